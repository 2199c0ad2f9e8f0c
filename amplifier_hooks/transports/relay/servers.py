"""The background hook servers our command hooks started: found, named, stopped.

When a hook call starts a server (`amplifier_hooks.transports.relay.client`), it leaves a
note beside the socket (``<key>.json``: process id, bundle, workspace, socket, start
time). ``doctor`` lists the servers that still answer, and ``uninstall`` stops those of
the bundles whose hooks it removed. A server is only ever signalled when the process
listening on its socket is the one the note names (the socket's peer credentials), so a
reused process id is never hit. A ``serve`` a person runs has no note: it is theirs.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import struct
import time
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from amplifier_hooks.transports.relay.place import beside, runtime_dir

__all__ = [
    "STOP_TIMEOUT",
    "ServerNote",
    "note_path",
    "running_servers",
    "stop_hint",
    "stop_servers",
    "write_note",
]

STOP_TIMEOUT = 30.0
"""Seconds a stopped server may take to finish its calls and exit."""


class ServerNote(NamedTuple):
    """A background server, as the hook that started it noted it."""

    pid: int
    bundle: str
    workspace: str
    socket: str
    started: float


def note_path(socket_path: str) -> str:
    """``<key>.json`` next to ``<key>.sock``."""
    return beside(socket_path, ".json")


def write_note(note: ServerNote) -> None:
    """Leave ``note`` beside its socket (private, like the folder it is in)."""
    fd = os.open(
        note_path(note.socket), os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600
    )
    with os.fdopen(fd, "w", encoding="utf-8") as stream:
        json.dump(note._asdict(), stream)


def stop_hint(note: ServerNote) -> str:
    """The line that names a started server and says how to stop it."""
    return (
        f"amplifier-hooks: started a background hook server (pid {note.pid}) for "
        f"{note.bundle} in {note.workspace}; it exits after an hour without calls, or stop "
        f"it now with `kill {note.pid}` (`uninstall` stops it too)"
    )


def _folders(environ: Mapping[str, str] | None) -> list[str]:
    return [runtime_dir(environ), os.path.join("/tmp", f"amplifier-hooks-{os.getuid()}")]


def _read(path: str) -> ServerNote | None:
    try:
        with open(path, encoding="utf-8") as stream:
            data = json.load(stream)
        return ServerNote(
            int(data["pid"]),
            str(data["bundle"]),
            str(data["workspace"]),
            str(data["socket"]),
            float(data["started"]),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _listener(path: str) -> int | None:
    """The process id listening on the socket at ``path`` (None: nobody)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(path)
        except OSError:
            return None
        peer = getattr(socket, "SO_PEERCRED", None)
        if peer is None:  # no peer credentials here: trust the note
            return -1
        raw = probe.getsockopt(socket.SOL_SOCKET, peer, struct.calcsize("3i"))
    pid: int = struct.unpack("3i", raw)[0]
    return pid


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has exited (a zombie nobody reaped yet has)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stream:
            return stream.read().rsplit(")", 1)[-1].split()[0] == "Z"
    except (OSError, IndexError):
        return False


def running_servers(environ: Mapping[str, str] | None = None) -> list[ServerNote]:
    """The noted servers that are still listening; notes of gone ones are removed."""
    found = []
    for folder in _folders(environ):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            if not name.endswith(".json"):
                continue
            path = os.path.join(folder, name)
            note = _read(path)
            listener = None if note is None else _listener(note.socket)
            if note is not None and listener in (note.pid, -1):
                found.append(note)
            elif listener is None:
                with contextlib.suppress(OSError):
                    os.unlink(path)
    return found


def stop_servers(
    bundles: Iterable[str],
    workspace: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> list[ServerNote]:
    """Stop the running servers of ``bundles`` (paths as the hooks name them), in
    ``workspace`` only unless None; those stopped. Each gets SIGTERM, and is waited for
    (bounded) until its socket is gone."""
    wanted = {os.path.realpath(b) for b in bundles}
    place = None if workspace is None else os.path.realpath(workspace)
    stopped = []
    for note in running_servers(environ):
        if os.path.realpath(note.bundle) not in wanted:
            continue
        if place is not None and os.path.realpath(note.workspace) != place:
            continue
        with contextlib.suppress(ProcessLookupError):
            os.kill(note.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT
        while not _gone(note.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        with contextlib.suppress(OSError):
            os.unlink(note_path(note.socket))
        stopped.append(note)
    return stopped
