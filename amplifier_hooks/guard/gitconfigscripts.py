"""A git setting that runs a program (``core.editor``, ``core.fsmonitor``, a filter, an
alias) or takes settings from a file (``include.path``, ``includeIf.*.path``) whose value
is a path in the workspace, the home folder or a temporary folder: a file the agent can
write, which git then runs or reads at later commands.

`git-config-plant-script` spots such a value by its text (``./x``, ``~/x``, ``/home/*``,
``/tmp/*``); a home or workspace elsewhere (``/Users/dev/project/scripts/x``, ``/srv/...``)
is no such text. Here the value's first word is resolved as a path against the call's own
workspace and home, and the piece marked (`CONFIG_SCRIPT`) for the rule of that name.
"""

from __future__ import annotations

import re
import shlex

from amplifier_hooks.guard.marking import mark_each
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.paths import locate_all

__all__ = ["CONFIG_SCRIPT", "mark_config_scripts"]

CONFIG_SCRIPT = "@git-config-own-script"
"""The mark of a ``git config`` that points a code-running setting at a writable path."""

_RUNNING_KEYS = re.compile(
    r"core\.(editor|pager|fsmonitor|hookspath|sshcommand|askpass|gitproxy)|sequence\.editor"
    r"|diff\.external|diff\..+\.(textconv|command)|merge\..+\.driver|filter\..+"
    r"|credential\.(.+\.)?helper|gpg\.(.+\.)?program|include\.path|includeif\..+\.path"
    r"|alias\..+|pager\..+|interactive\.difffilter|uploadpack\.packobjectshook|web\.browser"
    r"|browser\..+\.cmd|man\..+\.cmd|init\.templatedir|submodule\..+\.update"
    r"|remote\..+\.(uploadpack|receivepack)"
)
_VALUED = frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment"})
"""``git config`` options that take the next word as their value."""
_VERBS = frozenset({"set"})
"""``git config set KEY VALUE`` (git 2.46)."""
_WRITABLE = frozenset({"inside_workspace", "workspace_root", "home", "under_home",
                       "under_home_outside", "tmp"})  # fmt: skip


def mark_config_scripts(pieces: tuple[Piece, ...], places: Places) -> tuple[Piece, ...]:
    """``pieces`` with each ``git config`` that points a code-running setting at a path
    the agent can write marked `CONFIG_SCRIPT`."""
    if not any(p.program == "git" and "config" in p.args for p in pieces):
        return pieces  # (most git calls: no closure made, nothing kept per call)

    def marks_of(all_pieces: tuple[Piece, ...], index: int) -> tuple[str, ...]:
        piece = all_pieces[index]
        value = _set_value(piece.args)
        if value is None:
            return ()
        target = _first_word(value)
        if not target or not target.startswith(("/", "~", "$HOME", "${HOME}")):
            return ()  # a relative path or a command name: the rule's text patterns
        where = locate_all((target,), piece.cwd, places)[0].where
        return (CONFIG_SCRIPT,) if not _WRITABLE.isdisjoint(where) else ()

    return mark_each(pieces, ("git",), marks_of)


def _set_value(args: tuple[str, ...]) -> str | None:
    """The value a ``git config`` sets for a code-running key (None: another call)."""
    if "config" not in args:
        return None
    words: list[str] = []
    after = iter(args[args.index("config") + 1 :])
    for word in after:
        if word in _VALUED:
            next(after, None)
        elif not word.startswith("-"):
            words.append(word)
    if words and words[0] in _VERBS:
        words = words[1:]
    if len(words) < 2 or _RUNNING_KEYS.fullmatch(words[0].lower()) is None:
        return None
    return words[1]


def _first_word(value: str) -> str:
    """The program or file a value names: its first word (an alias's after ``!``)."""
    text = value.removeprefix("!").strip()
    try:
        parts = shlex.split(text)
    except ValueError:
        parts = text.split()
    return parts[0] if parts else ""
