"""A path as ``os.path.realpath`` makes it, read from the file system on every call (a
symlink the agent made a moment ago must be followed), cheaply: one ``lstat`` per name below
a folder already known to be real.
"""

from __future__ import annotations

import os
import stat

from amplifier_hooks.guard.model import KnownPlaces

__all__ = ["real_path"]


_OWN_STREAMS = ("/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/self/fd/")
"""Names of the running command's own streams: resolved here they would name the guard's
process's (a pipe or a log file), so the same call would be judged by where the guard's
output goes."""


def real_path(path: str, known: KnownPlaces) -> str:
    """``os.path.realpath(path)``, read from the file system on every call (a symlink the
    agent made a moment ago must be followed), but only below a folder already known to be
    real: ``tests/`` in the workspace costs one ``lstat``, not one per folder from ``/``;
    any other absolute path is walked from ``/`` the same way (realpath's own walk costs
    several times more: bench_guard's corpus table)."""
    if path.startswith(_OWN_STREAMS):  # the command's streams, not the guard's own
        return path
    for prefix in known.real:
        if path.startswith(prefix) and (len(path) == len(prefix) or path[len(prefix)] == "/"):
            found = _below(prefix, path[len(prefix) + 1 :])
            break
    else:
        found = _below("", path[1:]) if path[:1] == "/" else None
    if found is not None:
        return found
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return os.path.normpath(path)


def _below(prefix: str, rest: str) -> str | None:
    """``rest`` resolved below the real folder ``prefix`` ("": ``/``) by one ``lstat`` per
    name until one is missing (nothing below it exists either), as realpath resolves it;
    None when a name is a symlink or ``..`` (realpath then resolves it in full)."""
    parts = rest.split("/")
    if ".." in parts:
        return None  # `..` after a symlink climbs from where the link points
    resolved = prefix
    exists = True
    for part in parts:
        if not part or part == ".":  # (`find .`: the folder itself)
            continue
        resolved += "/" + part
        if not exists:
            continue
        try:
            mode = os.lstat(resolved).st_mode
        except OSError:
            exists = False  # nothing below a missing folder exists either
            continue
        except ValueError:
            return None
        if stat.S_ISLNK(mode):
            return None
    return resolved or "/"
