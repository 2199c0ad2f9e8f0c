"""`Turns`: the loads of one event loop take turns, one per turn of the loop.

A hook server opens a session by loading its bundle, a few milliseconds of work done in
one go. When many sessions open at once (a fleet of agents starting together) they all
became ready in the same turn of the loop and all loaded in it, one long turn, so every
one of their first calls was answered only after all the loads, at the same moment. The
agents then went on in step, and opened their next sessions together again
(docs/performance.md, the `tail2` branch). Taking turns, the loads waiting are let through
one per turn of the loop, in the order they came: the first answered first, other calls
run in between, and the agents drift apart.

It holds nothing while a load runs: a load that suspends (a module's mount awaiting I/O)
or runs long holds up no other load beyond its turn. A long one takes its turn again
after each slice (`BundleSession`'s ``MOUNT_SLICE``), behind the loads that came
meanwhile. Without a load waiting, `take` goes through at once.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import deque

__all__ = ["Turns", "turns"]


class Turns:
    """One event loop's loads in line (see the module docstring)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._free = True  # nobody has gone through in this turn of the loop

    def __len__(self) -> int:
        """Loads waiting for their turn."""
        return sum(not future.done() for future in self._waiting)

    async def take(self, *, again: bool = False) -> None:
        """Wait for this load's turn; ``again``: a load giving the loop back after a slice,
        which goes behind the others even when nobody is waiting."""
        if self._free and not again:
            self._pass()
            return
        future = self._loop.create_future()
        self._waiting.append(future)
        if self._free:
            self._pass()
        await future  # cancelled while waiting: `_next` skips it

    def _pass(self) -> None:
        self._free = False
        self._loop.call_soon(self._next)

    def _next(self) -> None:
        while self._waiting:
            future = self._waiting.popleft()
            if not future.done():
                future.set_result(None)  # its load runs in the next turn
                self._loop.call_soon(self._next)
                return
        self._free = True


_by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Turns] = weakref.WeakKeyDictionary()


def turns() -> Turns:
    """The running event loop's `Turns`."""
    loop = asyncio.get_running_loop()
    found = _by_loop.get(loop)
    if found is None:
        found = _by_loop[loop] = Turns(loop)
    return found
