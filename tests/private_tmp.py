"""Run a program where the machine's shared scratch places are folders a test watches.

``python private_tmp.py SOURCE TARGET [SOURCE TARGET ...] -- PROGRAM ARGS...`` makes a
mount namespace of its own (and, unless it runs as root, a user namespace that maps this
user to itself), binds each SOURCE over TARGET in it, in order, and runs PROGRAM there.
The program and everything it starts see ``/tmp`` (say) as the test's folder; nothing
else on the machine sees a change, so what the program leaves there is the program's
alone, whatever other processes and users do in the real ``/tmp`` at the same time.

Only the standard library: it is run as a script, before the program it runs.
"""

from __future__ import annotations

import ctypes
import os
import sys

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
MS_BIND = 0x1000
MS_REC = 0x4000
MS_PRIVATE = 1 << 18

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"{what}: {os.strerror(error)}")


def _write(path: str, text: str) -> None:
    with open(path, "w") as stream:
        stream.write(text)


def enter(binds: list[tuple[str, str]]) -> None:
    """Make this process's own mount namespace and bind each ``(source, target)``."""
    uid, gid = os.getuid(), os.getgid()
    flags = CLONE_NEWNS if uid == 0 else CLONE_NEWNS | CLONE_NEWUSER
    _check(_libc.unshare(flags), "unshare")
    if uid != 0:  # the same ids inside: files made are this user's, as outside
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{uid} {uid} 1")
        _write("/proc/self/gid_map", f"{gid} {gid} 1")
    # Nothing mounted here may reach the machine's own mount table.
    _check(_libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "making / private")
    for source, target in binds:
        _check(
            _libc.mount(os.fsencode(source), os.fsencode(target), None, MS_BIND | MS_REC, None),
            f"binding {source} over {target}",
        )


def main(argv: list[str]) -> None:
    if "--" not in argv:
        sys.exit("usage: private_tmp.py SOURCE TARGET ... -- PROGRAM ARGS...")
    split = argv.index("--")
    places, program = argv[:split], argv[split + 1 :]
    if len(places) % 2 or not program:
        sys.exit("usage: private_tmp.py SOURCE TARGET ... -- PROGRAM ARGS...")
    enter(list(zip(places[0::2], places[1::2], strict=True)))
    os.execvp(program[0], program)


if __name__ == "__main__":
    main(sys.argv[1:])
