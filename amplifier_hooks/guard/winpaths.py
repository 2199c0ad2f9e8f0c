"""Windows paths (``C:\\Windows\\System32\\config\\SAM``, ``C:/Users/me/.ssh/id_rsa``,
``\\\\server\\share\\x``) where a host on Windows passes them.

To the POSIX reading of `paths` such a path is relative, a strange name inside the
workspace, and a read of it would be granted as a workspace read. On the host that sent it
it names a file on a drive or a share: outside the workspace, and somewhere the guard cannot
follow links or tell what is there. So it is placed ``unknown`` (no grant: deny and ask
rules still meet it) and ``outside_workspace``, and globs see it with ``/`` for ``\\`` and,
below ``X:/Users/NAME/``, as ``~/...`` too: any user's ``.ssh`` or browser logins are as
secret as the agent's own. A host's hook settings there (``.claude/settings.json`` in any
folder, ``~/.codex/`` below a user's folder) are the places self-protection keeps.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from amplifier_hooks.guard.model import KnownPlaces

__all__ = ["WindowsPath", "home_path", "windows_path"]

_ABSOLUTE = re.compile(r"[A-Za-z]:[\\/]|\\\\[^\\]")
_USER_HOME = re.compile(r"[A-Za-z]:/users/[^/]+/", re.IGNORECASE)
_PLACES = frozenset({"unknown", "outside_workspace"})
_HOME_NAMED = re.compile(
    r"(?:[A-Za-z]:|\\mnt\\[A-Za-z]|\\\\(?:localhost|127\.0\.0\.1)\\[A-Za-z]\$|\\\\\?\\[A-Za-z]:)"
    r"[\\/]users[\\/]([^\\/]+)(?=[\\/]|$)",
    re.IGNORECASE,
)


class WindowsPath(NamedTuple):
    """A Windows absolute path with ``/`` for ``\\``, where it is and the forms globs see."""

    path: str
    where: frozenset[str]
    forms: tuple[str, ...]


def windows_path(raw: str, known: KnownPlaces) -> WindowsPath | None:
    """``raw`` placed when it is a Windows absolute path (None: it is not)."""
    if _ABSOLUTE.match(raw) is None:
        return None
    path = raw.replace("\\", "/")
    forms = [path]
    # as an absolute path, for the places of any folder (`**/.claude/settings.json`)
    where = _PLACES | known.own.where("/" + path.lstrip("/"), known.workspace)
    home = _USER_HOME.match(path)
    if home is not None and home.end() < len(path):
        rest = path[home.end() :]
        forms.append("~/" + rest)
        # and as the same file below the home folder (`~/.codex/config.toml`)
        where |= known.own.where(f"{known.home.rstrip('/')}/{rest}", known.workspace)
    return WindowsPath(path, where, tuple(forms))


def home_path(raw: str, known: KnownPlaces) -> str | None:
    """``raw`` as the path below the home folder it names, when it is below a user folder
    whose name is the home folder's own (``C:\\Users\\dev\\project`` for ``/home/dev``:
    the same person's home seen from Windows, where agents on Windows name it so); None
    for any other path."""
    if raw[1:2] != ":" and raw[:2] not in ("\\\\", "//") and not raw.startswith("/mnt/"):
        return None
    found = _HOME_NAMED.match(raw.replace("/", "\\"))
    home = known.home.rstrip("/")
    if found is None or found.group(1).lower() != home.rpartition("/")[2].lower() or not home:
        return None
    return home + raw[found.end() :].replace("\\", "/")
