"""`Turns`: the loads of one event loop take turns, a few milliseconds' worth per turn of
the loop.

A hook server opens a session by loading its bundle, a few milliseconds of work done in
one go. When many sessions open at once (a fleet of agents starting together), loading
them all in the same turn of the loop would make one long turn: every one of their first
calls would be answered only after all the loads, at the same moment, and the agents
would go on in step and open their next sessions together again. Taking turns, the loads
waiting are let through in the order they came, as many per turn of the loop as fit in
`BUDGET` by what loads took lately (at least one): the first are answered first, and
other calls run in between instead of waiting for all of them.

It holds nothing while a load runs: a load that suspends (a module's mount awaiting I/O)
or runs long holds up no other load beyond its turn. A long one takes its turn again
after each slice (`MountedBundle`'s ``MOUNT_SLICE``), behind the loads that came
meanwhile. Without a load waiting, `take` goes through at once.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import deque

__all__ = ["BUDGET", "Turns", "turns"]


BUDGET = 0.005
"""Seconds of loading let through in one turn of the loop: as many loads as fit, by what
loads took lately (`Turns.took`), and at least one."""


class Turns:
    """One event loop's loads in line (see the module docstring)."""

    def __init__(self) -> None:
        # No reference to the loop: `_by_loop` holds this weakly keyed on it.
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._passed = 0  # loads let through for this turn of the loop
        self._coming = False  # `_next` is scheduled
        self._typical = BUDGET  # what a load took lately (until told: one a turn)

    def __len__(self) -> int:
        """Loads waiting for their turn."""
        return sum(not future.done() for future in self._waiting)

    def _room(self) -> bool:
        return self._passed == 0 or (self._passed + 1) * self._typical < BUDGET

    async def take(self, *, again: bool = False) -> None:
        """Wait for this load's turn; ``again``: a load giving the loop back after a slice,
        which goes behind the others even when nobody is waiting."""
        if not again and not self._waiting and self._room():
            self._pass()
            return
        future = asyncio.get_running_loop().create_future()
        self._waiting.append(future)
        self._come_round()
        await future  # cancelled while waiting: `_next` skips it

    def took(self, seconds: float) -> None:
        """A load's work in its turn took ``seconds``: how many fit in one turn."""
        self._typical = (self._typical + max(seconds, 0.0)) / 2

    def _pass(self) -> None:
        self._passed += 1
        self._come_round()

    def _come_round(self) -> None:
        if not self._coming:
            self._coming = True
            asyncio.get_running_loop().call_soon(self._next)

    def _next(self) -> None:
        self._coming = False
        self._passed = 0
        while self._waiting and self._room():
            future = self._waiting.popleft()
            if not future.done():
                future.set_result(None)  # its load runs in the next turn
                self._pass()
        if self._waiting:
            self._come_round()


_by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Turns] = weakref.WeakKeyDictionary()


def turns() -> Turns:
    """The running event loop's `Turns`."""
    loop = asyncio.get_running_loop()
    found = _by_loop.get(loop)
    if found is None:
        found = _by_loop[loop] = Turns()
    return found
