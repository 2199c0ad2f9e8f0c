"""What a pattern in a path could name, where it matters to the guard: a pattern in a
folder name (``cat ~/.ss?/id_*``) is judged as each sensitive folder it could name, and a
pattern in the last name (``rm -rf .c*``) as the protected places bash would expand it to.
"""

from __future__ import annotations

import os
import re
from fnmatch import fnmatchcase
from functools import lru_cache

from amplifier_hooks.guard.agents import FOLDER_NAMES, HOSTS, OWN_STATE
from amplifier_hooks.guard.model import KnownPlaces

__all__ = ["MAX_LISTED", "MAX_NAMED", "globbed_own", "named_by", "named_folders",
           "own_below_variable"]  # fmt: skip

GLOB_CHARS = frozenset("*?[")
MAX_NAMED = 16
MAX_LISTED = 512
_OWN_FILE_NAMES = ("opencode.json", "opencode.jsonc")
"""Protected names without a leading dot (a ``*`` matches them at a project's top)."""


_HOST_FILE_NAMES = tuple(sorted(
    {s.glob.rsplit("/", 1)[-1] for s in HOSTS if GLOB_CHARS.isdisjoint(s.glob.rsplit("/", 1)[-1])}
    | {"settings.json", "settings.local.json"}
))  # fmt: skip
"""The hosts' protected file names (``settings.json``, ``hooks.json``, ...): a pattern in a
last name in a folder not there to read (``rm .cla*/set*.json``) is each it could match."""

RULE_NAMES = (".git", ".env", ".ssh", ".gnupg", ".aws", ".kube", ".netrc", ".npmrc", ".pypirc",
              ".bashrc", ".bash_profile", ".profile", ".zshrc", ".zshenv", ".gitconfig",
              ".git-credentials", ".docker", ".config")  # fmt: skip
"""Names the rules protect wherever they are (``**/.git``, ``~/.ssh/**``), which a
pattern in a path's last name (``.[g]it``, ``.gi?``) may name whatever the folder holds."""


def named_by(pattern: str) -> tuple[str, ...]:
    """The names of `RULE_NAMES` a last-name ``pattern`` matches as bash does: a dot
    name only by a pattern that starts with its dot (``*`` takes no ``.git``)."""
    if not pattern.startswith("."):
        return ()
    return tuple(n for n in RULE_NAMES if fnmatchcase(n, pattern))


def globbed_own(folder: str, pattern: str, known: KnownPlaces) -> frozenset[str]:
    """The protected places among what ``pattern`` matches in ``folder`` as bash would
    expand it (``rm -rf .c*`` takes ``.claude``), read from the folder (at most
    `MAX_LISTED` names) only where it could: a pattern for dot-names, a host's folder, or
    a name a host keeps at a project's top."""
    own = known.own
    if GLOB_CHARS.isdisjoint(pattern):
        return frozenset()
    if not (
        pattern.startswith(".")
        or own.maybe(folder + "/.")
        or any(fnmatchcase(n, pattern) for n in _OWN_FILE_NAMES)
    ):
        return frozenset()
    found: set[str] = set()
    try:
        with os.scandir(folder) as entries:
            for count, entry in enumerate(entries):
                if count >= MAX_LISTED:
                    break
                name = entry.name
                if name.startswith(".") != pattern.startswith(".") or not fnmatchcase(
                    name, pattern
                ):
                    continue
                found.update(own.where(f"{folder}/{name}", known.workspace))
    except OSError:  # not there to read: each host folder it could match, and in a host's
        dots = pattern.startswith(".")  # folder each protected file (`.claude/set*.json`)
        names = (
            *(FOLDER_NAMES if dots else ()),
            *(_HOST_FILE_NAMES if own.maybe(folder + "/.") and pattern.strip("*.") else ()),
        )  # fmt: skip  (`*`: the folder emptied, placed as the folder)
        for name in names:
            if name.startswith(".") == dots and fnmatchcase(name, pattern):
                found.update(own.where(f"{folder}/{name}", known.workspace))
    return frozenset(found)


def named_folders(path: str) -> list[str]:
    """The paths a pattern in a folder name could name among `agents.FOLDER_NAMES` (the
    folders credentials and protected places are under), at most `MAX_NAMED`."""
    found = [""]
    parts = path.split("/")
    for index, part in enumerate(parts):
        if GLOB_CHARS.isdisjoint(part) or index == len(parts) - 1:
            found = [f"{f}/{part}" if f or index else part for f in found]
            continue
        found = [f"{f}/{n}" for f in found for n in _named_by(part)][:MAX_NAMED]
        if not found:
            return []
    return found


@lru_cache(maxsize=256)  # pure: a pattern's folder names recur (`*`, `.ss?`), and each
def _named_by(part: str) -> tuple[str, ...]:  # `fnmatchcase` on ~45 names costs ~20 µs
    """The names of `agents.FOLDER_NAMES` that the pattern ``part`` matches."""
    return tuple(n for n in FOLDER_NAMES if fnmatchcase(n, part))


_GUARD_STATE = frozenset({"guard_state"})
_GUARD_INSTALLED = frozenset({"guard_installed"})
_GUARD_COMMAND = re.compile(
    r"\$\((?:command\s+-[vV]|which|type\s+-[pP]|whereis\s+-b)\s+amplifier-hooks\s*\)"
)
"""``"$(command -v amplifier-hooks)"``: the guard's command wherever the PATH finds it (a
host's hooks run that file), so re-moding, deleting or linking over it is changing the
installed guard."""
_VARIABLE_HEAD = re.compile(r"\$(?:\w+|\{\w+\})(/[^$`\x00{*?\[\\]+)")


_STATE_VARIABLES = tuple(g[1:].split("/", 1)[0] for g in OWN_STATE if g.startswith("$"))
_OWN_BELOW_STATE = re.compile(
    r"\$(?:\{)?(?:" + "|".join(_STATE_VARIABLES) + r")(?::?[-=][^}]*)?(?:\})?"
    r"/+amplifier-hooks(?:/.*)?"
)
"""``$XDG_RUNTIME_DIR/amplifier-hooks/hooks.sock``, ``${XDG_STATE_HOME:-$HOME/.local/state}
/amplifier-hooks``: our folder below a variable our state lives under (`agents.OWN_STATE`)
is our state whatever the variable holds when the command runs (the hook may have been
given another value than the guard sees)."""


def own_below_variable(raw: str, known: KnownPlaces) -> frozenset[str]:
    """``$DIR/.claude/settings.json``: whatever folder ``DIR`` names, the path is one of
    the places every folder may hold (`agents.HOSTS`' ``**/`` globs), so it is placed there
    too; ``$DIR/.claude.json`` is home's own only when DIR is home, which cannot be told.
    Below the variables our state lives under, our folder is our state (`_OWN_BELOW_STATE`);
    our command as the PATH finds it is the installed guard (`_GUARD_COMMAND`)."""
    if _OWN_BELOW_STATE.fullmatch(raw) is not None:
        return _GUARD_STATE
    if _GUARD_COMMAND.fullmatch(raw) is not None:
        return _GUARD_INSTALLED
    found = _VARIABLE_HEAD.fullmatch(raw)
    if found is None:
        return frozenset()
    return known.own.where("/\x00" + os.path.normpath(found.group(1)), known.workspace)
