"""Windows paths (``C:\\Windows\\System32\\config\\SAM``, ``C:/Users/me/.ssh/id_rsa``,
``\\\\server\\share\\x``) where a host on Windows passes them.

To the POSIX reading of `paths` such a path is relative, a strange name inside the
workspace, and a read of it would be granted as a workspace read. On the host that sent it
it names a file on a drive or a share: outside the workspace, and somewhere the guard cannot
follow links or tell what is there. So it is placed ``unknown`` (no grant: deny and ask
rules still meet it) and ``outside_workspace``, and globs see it with ``/`` for ``\\`` and,
below ``X:/Users/NAME/``, as ``~/...`` too: any user's ``.ssh`` or browser logins are as
secret as the agent's own.
"""

from __future__ import annotations

import re

__all__ = ["WINDOWS_PLACES", "windows_forms"]

_ABSOLUTE = re.compile(r"[A-Za-z]:[\\/]|\\\\[^\\]")
_USER_HOME = re.compile(r"[A-Za-z]:/users/[^/]+/", re.IGNORECASE)

WINDOWS_PLACES = frozenset({"unknown", "outside_workspace"})
"""Where a Windows absolute path is, for the rules."""


def windows_forms(raw: str) -> tuple[str, ...] | None:
    """The forms globs see of ``raw`` when it is a Windows absolute path (None: it is not):
    the path with ``/`` for ``\\``, and ``~/REST`` when it is below a user's folder."""
    if _ABSOLUTE.match(raw) is None:
        return None
    path = raw.replace("\\", "/")
    forms = [path]
    home = _USER_HOME.match(path)
    if home is not None and home.end() < len(path):
        forms.append("~/" + path[home.end() :])
    return tuple(forms)
