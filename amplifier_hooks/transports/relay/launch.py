"""Starting a workspace's hook server for the relay (`client`): detached (its own session,
no terminal), its output in ``<key>.log``, waited for until it says it is ready; then noted
for ``doctor`` and announced. Only a hook call that finds no server imports this module,
so every other hook's process starts without it (docs/performance.md).
"""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import sys
import time
from collections.abc import Callable

from amplifier_hooks.transports.relay.place import beside
from amplifier_hooks.transports.relay.servers import ServerNote, stop_hint, write_note

__all__ = ["START_TIMEOUT", "StartError", "announce", "start_server"]

START_TIMEOUT = 60.0
"""Seconds a starting server may take to load its bundle and listen (a cold start on a
busy machine imports pydantic, YAML and every module)."""


class StartError(Exception):
    """The server did not start, or not in time; the message says why (the relay makes it
    its `client.RelayError`)."""


def start_server(
    bundle: str,
    workspace: str,
    path: str,
    idle_exit: float,
    started: Callable[[object], None] | None,
) -> None:
    """Start the server detached (its own session, no terminal), output to ``<sock>.log``,
    and wait until it writes "ready" on an inherited pipe -- or dies, or times out. The
    server is then given to ``started`` (by default `announce`)."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)  # stale: nobody answered on it, and we hold the lock
    log = beside(path, ".log")
    log_fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    read_end, write_end = os.pipe()
    command = [
        sys.executable,
        "-P",  # its working directory is the project's: nothing is imported from there
        "-m",
        "amplifier_hooks.cli",
        "serve",
        "--bundle",
        bundle,
        "--unix",
        path,
        "--idle-exit",
        repr(idle_exit),
        "--ready-fd",
        str(write_end),
    ]
    try:
        process = subprocess.Popen(
            command,
            cwd=workspace,
            stdin=subprocess.DEVNULL,
            stdout=log_fd,
            stderr=log_fd,
            pass_fds=(write_end,),
            start_new_session=True,
        )
    except OSError as exc:
        os.close(read_end)
        raise StartError(f"cannot start the hook server: {exc}") from exc
    finally:
        os.close(write_end)
        os.close(log_fd)
    try:
        said = _read_ready(read_end, START_TIMEOUT)
    finally:
        os.close(read_end)
    if said == "ready":
        (started or announce)(_noted(process.pid, bundle, workspace, path))
        return
    if said is None:
        raise StartError(f"the hook server did not start within {START_TIMEOUT:g} s (see {log})")
    code = process.wait()
    raise StartError(f"the hook server exited ({code}) before it was ready: {_tail(log)}")


def _noted(pid: int, bundle: str, workspace: str, path: str) -> object:
    """Note the started server beside its socket (for ``doctor`` and ``uninstall``)."""
    note = ServerNote(pid, bundle, workspace, path, time.time())
    with contextlib.suppress(OSError):  # without the note doctor does not list it
        write_note(note)
    return note


def announce(note: object) -> None:
    """Say on stderr, once, that a server runs and how to stop it: a process the person
    did not start must not stay unseen."""
    if isinstance(note, ServerNote):
        sys.stderr.write(stop_hint(note) + "\n")


def _read_ready(fd: int, timeout: float) -> str | None:
    """The line the server wrote on the pipe ("" if it closed it without one), or None
    if ``timeout`` passed first."""
    data = b""
    while b"\n" not in data:
        readable, _, _ = select.select([fd], [], [], timeout)
        if not readable:
            return None
        chunk = os.read(fd, 256)
        if not chunk:
            break
        data += chunk
    return data.decode("utf-8", "replace").strip()


def _tail(log: str, lines: int = 5) -> str:
    try:
        with open(log, encoding="utf-8", errors="replace") as file:
            text = file.read().strip()
    except OSError:
        return f"(no log at {log})"
    tail = " | ".join(text.splitlines()[-lines:])
    return f"{tail} (log: {log})" if tail else f"(empty log: {log})"
