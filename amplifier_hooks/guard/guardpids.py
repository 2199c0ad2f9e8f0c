"""Process ids computed from the guard's own processes, handed to a program that signals,
slows or traces them.

``kill $(pgrep -f amplifier-hooks)`` is matched on pgrep's words by the pack
(`guard-server-stop-pid`), but the ids can come another way: ``amplifier-hooks doctor
--json | jq .. | xargs kill``, ``for p in $(ps -eo pid,args | awk '/amplifier-hooks/ ..');
do kill $p; done``. The guard cannot run the listing to see whose ids they are; when the
same command names one of the guard's programs and hands a signalling program ids it only
knows at run time, the ids are taken as the guard's (`GUARD_PIDS`, rule
`guard-server-signal-computed`). A signal to a literal pid, or ids listed without naming
the guard (``lsof -ti :3000 | xargs kill``), is not marked.
"""

from __future__ import annotations

from amplifier_hooks.guard.model import Piece

__all__ = ["GUARD_NAMES", "GUARD_PIDS", "SIGNALLERS", "mark_guard_pids"]

GUARD_PIDS = "@guard-pids"
"""The mark of a signalling program given ids computed in a command that names the guard."""
GUARD_NAMES = ("amplifier-hooks", "amplifier_hooks", "ah-guard", "ah_guard", "hook_start",
               "amplifier_module_")  # fmt: skip
"""The words of the guard's process command lines: its command, its package, its hook
module, the script each hook runs (``.../cli/hook_start.py``)."""
SIGNALLERS = frozenset({"kill", "pkill", "renice", "cpulimit", "prlimit", "ionice", "chrt",
                        "taskset", "gdb", "strace", "ltrace"})  # fmt: skip
"""Programs that stop, freeze, slow or trace the process whose id they are given."""


def mark_guard_pids(command: str, pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with `GUARD_PIDS` on each signalling program whose ids are computed, when
    ``command`` names one of the guard's programs (a cheap text screen first)."""
    lowered = command.lower()
    if not any([name in lowered for name in GUARD_NAMES]):
        return pieces
    if not any([p.program in SIGNALLERS and p.dynamic for p in pieces]):
        return pieces
    return tuple([
        p._replace(wrappers=(*p.wrappers, GUARD_PIDS)) if p.program in SIGNALLERS and p.dynamic
        else p
        for p in pieces
    ])  # fmt: skip
