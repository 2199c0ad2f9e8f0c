"""One call timed as a server meets it: after other work has used the caches.

Between two hook calls a server parses the next request, the client runs, and so do the
machine's other processes; by the time the handler runs, little of its code or data is
still in the caches. A loop of back-to-back calls keeps all of it there, so it shows a
fraction of what the server pays. `swept_costs` times single calls both ways.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

__all__ = ["SWEPT_BYTES", "swept_costs"]

SWEPT_BYTES = 64 * 1024 * 1024
"""More than the caches of the machines we run on hold: a write to every cache line of it
leaves none of the measured call's code or data there."""

_LINE = 64
"""Bytes of a cache line (x86-64, most ARM64)."""


def swept_costs(call: Callable[[], object], rounds: int) -> tuple[float, float]:
    """Median CPU seconds (this thread's) of one ``call()``: (right after the one before
    it, after the caches were swept), each less the clock's own cost measured the same
    way."""
    sweep = bytearray(SWEPT_BYTES)
    ones = b"\x01" * (SWEPT_BYTES // _LINE)
    clock = time.thread_time

    def once() -> float:
        started = clock()
        call()
        return clock() - started

    def nothing() -> float:
        started = clock()
        return clock() - started

    warm: list[float] = []
    swept: list[float] = []
    warm_clock: list[float] = []
    swept_clock: list[float] = []
    for _ in range(rounds):
        once()
        warm.append(once())
        warm_clock.append(nothing())
        sweep[::_LINE] = ones
        swept.append(once())
        sweep[::_LINE] = ones
        swept_clock.append(nothing())
    return (
        statistics.median(warm) - statistics.median(warm_clock),
        statistics.median(swept) - statistics.median(swept_clock),
    )
