"""Garbage collection paced for a hook server, so a full collection does not stall every
session.

An open session holds hundreds of objects the collector tracks (its coordinator, its
modules' hooks and their closures), and they live as long as the session. CPython's full
collection walks every tracked object and runs whenever the old generation has grown by a
quarter, so its pauses grow with the sessions open, and every call waiting meanwhile
takes that much longer (``benchmarks/bench_serve_load.py`` shows it).

So the server moves what has survived into the permanent generation (`gc.freeze`) after
new sessions opened (it looks every `EVERY` seconds): a full collection then walks only
what came since. Frozen objects are still freed when nothing refers to them; only cycles
among them wait. Closed sessions are where such cycles come from, so once the sessions
closed since the last full collection reach a quarter of those open (at least
`MIN_CHURN`) -- or the sessions object itself was replaced, on a bundle reload --
everything is unfrozen, collected once, and frozen again. The garbage kept waiting is
bounded by that many sessions.

The youngest generation is collected every `YOUNG` new objects instead of CPython's 700:
calls in flight hold a few hundred objects each a while (tasks, requests, records), so at
700 the collector would run every few calls and find next to nothing.
"""

from __future__ import annotations

import gc
import time

from amplifier_hooks.hosts import HostSessions
from amplifier_hooks.logs import get_logger

__all__ = ["EVERY", "MIN_CHURN", "YOUNG", "Collector"]

logger = get_logger()

EVERY = 0.25
"""Seconds between two looks (`Collector.tick`): the sessions opened within one are walked
by the ordinary collections until the next. A look's young collection walks what came
since the last, and stalls every call meanwhile: looking often keeps each stall short,
for about the same time collecting in all."""

MIN_CHURN = 64
"""Fewest closed sessions that make a full collection (about 4 MB of their garbage)."""

YOUNG = 10_000
"""New objects (less those freed) between two collections of the youngest generation."""

_started: list[Collector] = []  # the started collectors of this process
_saved: list[int] = []  # the thresholds before the first of them started


class Collector:
    """Freezes survivors after sessions open; collects in full after enough closed."""

    def __init__(self, min_churn: int = MIN_CHURN, young: int = YOUNG) -> None:
        self.min_churn = min_churn
        self.young = young
        self.full_collections = 0
        self._started = False
        self._sessions: HostSessions | None = None
        self._opened = -1
        self._closed_at_full = 0

    def start(self) -> None:
        """Collect the youngest generation every `young` objects (until `release`; with
        several servers in one process, until the last one's)."""
        if self._started:
            return
        self._started = True
        if not _started:
            _saved[:] = gc.get_threshold()
            gc.set_threshold(self.young, _saved[1], _saved[2])
        _started.append(self)

    def tick(self, sessions: HostSessions | None) -> None:
        """Look at ``sessions`` (the server's current ones) and collect as they ask."""
        if sessions is not self._sessions:
            self._full(sessions)
            return
        if sessions is None:
            return
        churn = sessions.closed - self._closed_at_full
        if churn >= max(self.min_churn, len(sessions) // 4):
            self._full(sessions)
        elif sessions.opened != self._opened:
            self._opened = sessions.opened
            gc.collect(1)  # the young cycles go now instead of waiting frozen
            gc.freeze()

    def _full(self, sessions: HostSessions | None) -> None:
        started = time.perf_counter()
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.full_collections += 1
        self._sessions = sessions
        self._opened = sessions.opened if sessions is not None else -1
        self._closed_at_full = sessions.closed if sessions is not None else 0
        logger.debug(
            "full garbage collection",
            ms=round((time.perf_counter() - started) * 1000, 1),
            frozen=gc.get_freeze_count(),
        )

    def release(self) -> None:
        """Give everything back to the ordinary collections (the server is stopping)."""
        gc.unfreeze()
        if self._started:
            self._started = False
            _started.remove(self)
            if not _started:
                gc.set_threshold(*_saved)
