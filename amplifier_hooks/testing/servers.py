"""Stop the hook servers a test started.

An agent CLI's command hook (``amplifier-hooks claude-code hook``) starts a server per
workspace that outlives the agent, listening on a Unix socket under
``$XDG_RUNTIME_DIR/amplifier-hooks``. A test that ran the hooks with its own runtime
directory stops them with `stop_hook_servers` before it ends, so no process outlives the
suite. The kernel names the process at the other end of each socket (``SO_PEERCRED``) and
says when it has exited (a pidfd): no polling, no sleeps. Linux only, as those are.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import struct
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["live_processes", "server_pid", "stop_hook_servers", "wait_exited"]


def live_processes(match: Callable[[list[bytes]], bool]) -> list[int]:
    """Pids of the running processes (zombies left out: they have ended) whose argument
    list ``match`` accepts; for a test that must find what it started by its command line
    (a server, or a process that should have been killed with its group)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:  # it ended while we looked
            continue
        if state != "Z" and match(argv):
            found.append(int(entry.name))
    return found


def server_pid(path: Path) -> int:
    """The pid of the process listening on the Unix socket ``path`` (OSError if none)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(str(path))
        raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    pid, _uid, _gid = struct.unpack("3i", raw)
    return int(pid)


def wait_exited(pid: int, timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for process ``pid`` (not necessarily a child of
    ours) to exit; False if it is still running then."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        readable, _, _ = select.select([fd], [], [], max(timeout, 0.0))
        return bool(readable)
    finally:
        os.close(fd)


def stop_hook_servers(runtime: Path, within: float = 30.0) -> list[int]:
    """SIGTERM every server listening on a socket under ``runtime`` (searched at any
    depth) and wait until each has exited; returns their pids. A stale socket (nobody
    listening) is skipped. TimeoutError if they are not all gone ``within`` seconds."""
    deadline = time.monotonic() + within
    stopped: list[int] = []
    for path in sorted(runtime.rglob("*.sock")):
        try:
            pid = server_pid(path)
        except OSError:
            continue
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        if not wait_exited(pid, deadline - time.monotonic()):
            raise TimeoutError(f"hook server {pid} ({path}) still runs after {within} s")
        stopped.append(pid)
    return stopped
