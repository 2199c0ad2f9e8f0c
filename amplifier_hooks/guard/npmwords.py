"""npm's command word as npm reads it: a unique prefix of a command or an alias
(``npm pub``, ``npm publ``, ``npm unpub``), an alias (``npm rm``, ``npm i``) or a
camelCase spelling (``npm installTest``) is the command it stands for, so the rules on
``npm publish`` see every spelling of it (npm's ``utils/cmd-list.js``: ``deref``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from amplifier_hooks.guard.model import Piece

__all__ = ["npm_command", "spell_npm"]

_COMMANDS = frozenset(
    {"access", "adduser", "approve-scripts", "audit", "bugs", "cache", "ci", "completion",
     "config", "dedupe", "deny-scripts", "deprecate", "diff", "dist-tag", "docs", "doctor",
     "edit", "exec", "explain", "explore", "find-dupes", "fund", "get", "help", "help-search",
     "init", "install", "install-ci-test", "install-scripts", "install-test", "link", "ll",
     "login", "logout", "ls", "org", "outdated", "owner", "pack", "ping", "pkg", "prefix",
     "profile", "prune", "publish", "query", "rebuild", "repo", "restart", "root", "run",
     "sbom", "search", "set", "shrinkwrap", "stage", "star", "stars", "start", "stop", "team",
     "test", "token", "trust", "undeprecate", "uninstall", "unpublish", "unstar", "update",
     "version", "view", "whoami"}
)  # fmt: skip
"""npm's commands (npm 11)."""
_ALIASES = {
    "author": "owner", "home": "docs", "issues": "bugs", "info": "view", "show": "view",
    "find": "search", "add": "install", "unlink": "uninstall", "remove": "uninstall",
    "rm": "uninstall", "r": "uninstall", "un": "uninstall", "rb": "rebuild", "list": "ls",
    "ln": "link", "create": "init", "i": "install", "it": "install-test",
    "cit": "install-ci-test", "u": "update", "up": "update", "c": "config", "s": "search",
    "se": "search", "tst": "test", "t": "test", "ddp": "dedupe", "v": "view",
    "run-script": "run", "clean-install": "ci", "clean-install-test": "install-ci-test",
    "x": "exec", "why": "explain", "la": "ll", "verison": "version", "ic": "ci",
    "innit": "init", "in": "install", "ins": "install", "inst": "install",
    "insta": "install", "instal": "install", "isnt": "install", "isnta": "install",
    "isntal": "install", "isntall": "install", "install-clean": "ci",
    "isntall-clean": "ci", "hlep": "help", "dist-tags": "dist-tag", "upgrade": "update",
    "udpate": "update", "rum": "run", "sit": "install-ci-test", "urn": "run", "ogr": "org",
    "add-user": "adduser",
}  # fmt: skip
"""npm's aliases and the typos it takes, each to its command."""
_NAMES = tuple(sorted(_COMMANDS | _ALIASES.keys()))
_UPPER = re.compile(r"[A-Z]")


@lru_cache(maxsize=256)  # pure: a handful of words recur
def npm_command(word: str) -> str | None:
    """The command npm runs for ``word`` (None: none, npm prints its help)."""
    if _UPPER.search(word):
        word = _UPPER.sub(lambda m: "-" + m.group(0).lower(), word)
    if word in _COMMANDS:
        return word
    if word in _ALIASES:
        return _ALIASES[word]
    found = [n for n in _NAMES if n.startswith(word)] if word else []
    if len(found) != 1:
        return None  # (no name, or a prefix of two: abbrev gives neither)
    name = found[0]
    while name in _ALIASES:
        name = _ALIASES[name]
    return name


def spell_npm(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each npm's command word (its first operand that is one) spelled
    as the command npm runs for it."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if piece.program != "npm":
            continue
        args = list(piece.args)
        for at, word in enumerate(args):
            if word == "--":
                break
            if word.startswith("-"):
                continue
            command = npm_command(word)
            if command is None:
                continue  # (the value of an option before it: `--prefix sub`)
            if command != word:
                args[at] = command
                out = out or list(pieces)
                out[index] = piece._replace(args=tuple(args))
            break
    return pieces if out is None else tuple(out)
