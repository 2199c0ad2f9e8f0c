"""Where a workspace's hook server listens: a Unix socket in a directory only its user can
enter, named by a hash of what the server serves.

No token guards the socket: only processes that can enter the directory (its owner, and
root) can connect, and the server checks the peer's user id besides (`SO_PEERCRED`). A
token would add a file read to every hook call and keep out no one who could not already
read the token file.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from collections.abc import Mapping
from pathlib import Path

__all__ = ["PlaceError", "ensure_private_dir", "runtime_dir", "socket_path"]

_MAX_SOCKET_PATH = 100  # sun_path holds 108 bytes on Linux, 104 on macOS; keep a margin


class PlaceError(OSError):
    """The socket's directory is missing and cannot be made, or is not private."""


def runtime_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_RUNTIME_DIR/amplifier-hooks`` (a per-user tmpfs, gone at logout), else
    ``$XDG_STATE_HOME/amplifier-hooks/run`` (``~/.local/state/...``)."""
    env = os.environ if environ is None else environ
    runtime = env.get("XDG_RUNTIME_DIR", "")
    if os.path.isabs(runtime):
        return Path(runtime) / "amplifier-hooks"
    state = env.get("XDG_STATE_HOME", "")
    base = Path(state) if os.path.isabs(state) else Path.home() / ".local" / "state"
    return base / "amplifier-hooks" / "run"


def server_key(bundle: str, workspace: str) -> str:
    """What tells servers apart: the bundle, the workspace, and the Python that runs
    them (two virtual environments never share a server)."""
    text = "\0".join((os.path.realpath(bundle), os.path.realpath(workspace), sys.executable))
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:24]


def socket_path(bundle: str, workspace: str, environ: Mapping[str, str] | None = None) -> Path:
    """The socket of the server for ``bundle`` in ``workspace``. A runtime directory too
    long for a socket path falls back to ``/tmp/amplifier-hooks-<uid>``."""
    name = f"{server_key(bundle, workspace)}.sock"
    directory = runtime_dir(environ)
    if len(os.fsencode(directory / name)) > _MAX_SOCKET_PATH:
        directory = Path("/tmp") / f"amplifier-hooks-{os.getuid()}"
    return directory / name


def ensure_private_dir(directory: Path) -> None:
    """Make ``directory`` (mode 0700) if missing; raise `PlaceError` unless it is a real
    directory owned by this user that no one else can enter."""
    try:
        directory.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        directory.mkdir(mode=0o700, exist_ok=True)
        info = os.lstat(directory)
    except OSError as exc:
        raise PlaceError(f"cannot make {directory}: {exc.strerror or exc}") from exc
    if not stat.S_ISDIR(info.st_mode):
        raise PlaceError(f"{directory} is not a directory (a symlink?); remove it")
    if info.st_uid != os.getuid():
        raise PlaceError(f"{directory} belongs to user id {info.st_uid}, not to you; remove it")
    if info.st_mode & 0o077:
        raise PlaceError(
            f"{directory} can be entered by other users (mode {info.st_mode & 0o777:o}): "
            f"run 'chmod 700 {directory}'"
        )
