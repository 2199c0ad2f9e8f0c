"""Timing helpers shared by the benchmarks."""

from __future__ import annotations

from collections.abc import Callable


def calibrate(run: Callable[[int], float], budget: float) -> int:
    """A loop count whose run takes about ``budget`` seconds.

    ``run(loops)`` runs the measured thing ``loops`` times and returns the seconds it took.
    """
    loops = 1
    while True:
        elapsed = run(loops)
        if elapsed >= budget / 10:
            return max(1, int(loops * budget / elapsed))
        loops *= 10
