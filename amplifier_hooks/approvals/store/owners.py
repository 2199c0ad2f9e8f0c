"""Who waits for a queued question: the process that asked it, and whether it still runs.

A queued row records its owner: the machine, the process id and the process's start
time. The start time is what tells a live owner from a dead one whose pid the kernel has
since given to another process. A server that starts withdraws the questions of owners on
its machine that are gone (`ApprovalBackend.withdraw_orphans`), so nobody answers a
question that nobody waits for; an owner on another machine (a shared store) cannot be
checked from here and is left alone.

The machine is its host name with a digest of its machine id and its pid namespace:
pids mean something only inside one namespace, so two containers with one host name are
two machines here. The start time is the kernel's (``/proc/PID/stat``: clock ticks since
boot, with the boot's id, so it never shifts with the wall clock and a reboot makes
every older owner gone). Where there is no ``/proc`` it is unknown and the pid alone is
checked.
"""

from __future__ import annotations

import functools
import hashlib
import os
import socket
from pathlib import Path
from typing import NamedTuple

__all__ = ["Owner", "gone", "process_started", "this_machine", "this_process"]

_PROC = Path("/proc")


class Owner(NamedTuple):
    """The process that waits for a queued question."""

    machine: str
    pid: int
    started: str | None
    """The kernel's start time of the process (``boot-id/ticks``); None where unknown."""

    def describe(self) -> str:
        """How messages name it: ``process 1234 on host``."""
        return f"process {self.pid} on {self.machine.rsplit(':', 1)[0]}"


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return ""


@functools.cache
def this_machine() -> str:
    """``hostname:digest``: the host name (for people) and a digest of what makes a pid
    meaningful here (the machine id and the pid namespace)."""
    identity = _read(Path("/etc/machine-id")) or _read(Path("/var/lib/dbus/machine-id"))
    try:
        namespace = os.readlink(_PROC / "self" / "ns" / "pid")
    except OSError:
        namespace = ""
    digest = hashlib.sha256(f"{identity}\0{namespace}".encode()).hexdigest()[:12]
    return f"{socket.gethostname()}:{digest}"


@functools.cache
def _boot_id() -> str:
    return _read(_PROC / "sys" / "kernel" / "random" / "boot_id")


def _stat(pid: int) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command name (state first); [] if none."""
    # The command name (field 2) is in parentheses and may hold spaces or parentheses.
    fields = _read(_PROC / str(pid) / "stat").rpartition(")")[2].split()
    return fields if len(fields) >= 20 else []


def process_started(pid: int) -> str | None:
    """The start time of process ``pid`` as the kernel counts it (``boot-id/ticks``);
    None when there is no such process or this system does not say."""
    fields, boot = _stat(pid), _boot_id()
    return f"{boot}/{fields[19]}" if fields and boot else None  # field 22: starttime


@functools.cache
def _this_process(pid: int) -> Owner:
    return Owner(this_machine(), pid, process_started(pid))


def this_process() -> Owner:
    """This process, as a queued row records its owner (recomputed after a fork)."""
    return _this_process(os.getpid())


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's: it runs
        return True
    except OSError:
        return False
    return True


def gone(owner: Owner) -> bool:
    """True when ``owner``, a process of this machine, runs no more: no process has its
    pid, the one that has it is a zombie, or it started at another time (the pid was
    reused). An owner of another machine is never called gone from here."""
    if owner.machine != this_machine() or owner.pid <= 0:
        return False
    if not _running(owner.pid):
        return True
    fields, boot = _stat(owner.pid), _boot_id()
    if not fields or not boot:
        return False  # nothing more to tell by: it runs
    if fields[0] == "Z":  # killed, and not yet reaped by its parent
        return True
    return owner.started is not None and f"{boot}/{fields[19]}" != owner.started
