"""Where a workspace's hook server listens: a Unix socket in a directory only its user can
enter, named by a hash of what the server serves.

No token guards the socket: only processes that can enter the directory (its owner, and
root) can connect, and the server checks the peer's user id besides (`SO_PEERCRED`). The
client, in turn, checks the directory before it connects (another user may have made it
first, in a shared /tmp) and the server's user id after (`amplifier_hooks.transports.relay.wire`).
A token would add a file read to every hook call and keep out no one who could not
already read the token file.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Mapping


def _sha256_hex(data: bytes) -> str:
    """SHA-256 from the interpreter's own module when it has one: hashlib would load
    OpenSSL first, a few ms of every hook call (the digest is the same)."""
    try:
        from _sha2 import sha256  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        try:
            from _sha256 import sha256  # type: ignore[import-not-found, no-redef, unused-ignore]
        except ImportError:
            from hashlib import sha256
    digest: str = sha256(data).hexdigest()
    return digest


__all__ = [
    "PlaceError",
    "beside",
    "check_private_dir",
    "ensure_private_dir",
    "runtime_dir",
    "socket_path",
]

_MAX_SOCKET_PATH = 100  # sun_path holds 108 bytes on Linux, 104 on macOS; keep a margin


class PlaceError(OSError):
    """The socket's directory is missing and cannot be made, or is not private."""


def runtime_dir(environ: Mapping[str, str] | None = None) -> str:
    """``$XDG_RUNTIME_DIR/amplifier-hooks`` (a per-user tmpfs, gone at logout), else
    ``$XDG_STATE_HOME/amplifier-hooks/run`` (``~/.local/state/...``)."""
    env = os.environ if environ is None else environ
    runtime = env.get("XDG_RUNTIME_DIR", "")
    if os.path.isabs(runtime):
        return os.path.join(runtime, "amplifier-hooks")
    state = env.get("XDG_STATE_HOME", "")
    if not os.path.isabs(state):
        state = os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(state, "amplifier-hooks", "run")


RELAY_PROTOCOL = "relay-2"
"""The relay's answer format (`amplifier_hooks.transports.relay.client.RelayAnswer.body`).
Part of the server's key: a hook of a newer install never asks an older server, still
running until it is idle, in a format it does not speak."""


def server_key(bundle: str, workspace: str) -> str:
    """What tells servers apart: the bundle, the workspace, the Python that runs them
    (two virtual environments never share a server) and the relay's format."""
    parts = (os.path.realpath(bundle), os.path.realpath(workspace), sys.executable, RELAY_PROTOCOL)
    text = "\0".join(parts)
    return _sha256_hex(text.encode("utf-8", "surrogateescape"))[:24]


def socket_path(bundle: str, workspace: str, environ: Mapping[str, str] | None = None) -> str:
    """The socket of the server for ``bundle`` in ``workspace``. A runtime directory too
    long for a socket path falls back to ``/tmp/amplifier-hooks-<uid>``."""
    name = f"{server_key(bundle, workspace)}.sock"
    path = os.path.join(runtime_dir(environ), name)
    if len(os.fsencode(path)) > _MAX_SOCKET_PATH:
        path = os.path.join("/tmp", f"amplifier-hooks-{os.getuid()}", name)
    return path


def beside(socket: str, suffix: str) -> str:
    """A file of the server's next to its socket: ``<key>.lock``, ``<key>.log`` and
    ``<key>.json`` beside ``<key>.sock``."""
    return os.path.splitext(socket)[0] + suffix


def ensure_private_dir(directory: str) -> None:
    """Make ``directory`` (mode 0700) if missing; raise `PlaceError` unless it is a real
    directory owned by this user that no one else can enter."""
    try:
        _make_dirs(directory)
    except OSError as exc:
        raise PlaceError(f"cannot make {directory}: {exc.strerror or exc}") from exc
    if not check_private_dir(directory):
        raise PlaceError(f"cannot make {directory}: it vanished while being made")


def _make_dirs(directory: str) -> None:
    """Make ``directory`` and each missing parent 0700 whatever the umask (``os.makedirs``
    gives parents the umask's mode). `amplifier_hooks.private.make_dirs`'s rule, here
    because a hook's relay imports nothing more of the library."""
    missing = []
    path = os.path.abspath(directory)
    while not os.path.isdir(path) and os.path.dirname(path) != path:
        missing.append(path)
        path = os.path.dirname(path)
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):  # a concurrent first call: checked after
            os.mkdir(folder, 0o700)


def check_private_dir(directory: str) -> bool:
    """True if ``directory`` is a real directory of this user that no one else can enter;
    False if it does not exist. Anything else raises `PlaceError`: a folder another user
    made (or could write to) may hold their socket, answering our hooks as they please,
    so it is checked before anything in it is connected to."""
    try:
        info = os.lstat(directory)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise PlaceError(f"cannot check {directory}: {exc.strerror or exc}") from exc
    if not stat.S_ISDIR(info.st_mode):
        raise PlaceError(f"{directory} is not a directory (a symlink?); remove it")
    if info.st_uid != os.getuid():
        raise PlaceError(f"{directory} belongs to user id {info.st_uid}, not to you; remove it")
    if info.st_mode & 0o077:
        raise PlaceError(
            f"{directory} can be entered by other users (mode {info.st_mode & 0o777:o}): "
            f"run 'chmod 700 {directory}'"
        )
    return True
