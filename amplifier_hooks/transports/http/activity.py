"""What a server is doing: calls in flight, when the last one ended, and whether calls
still waiting must give up because the server is shutting down."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator

__all__ = ["Activity"]


class Activity:
    """Counts calls in flight; wakes who waits for none to be left.

    ``abandoned`` is set when shutdown's grace is over: a call still waiting then answers
    with the host's fail-closed answer instead of being cut off (a cut-off HTTP hook is a
    hook that "gave no usable answer", which Claude Code lets through).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.in_flight = 0
        self.last_active = clock()
        self.abandoned = asyncio.Event()
        self._abandoning: asyncio.Future[None] | None = None
        self._quiet = asyncio.Event()
        self._quiet.set()
        self._changed = asyncio.Event()

    def begin(self) -> None:
        """A call starts; `end` once it is finished (what `call` does, without a
        generator and a context manager for every call of a server)."""
        self.in_flight += 1
        self._quiet.clear()

    def end(self) -> None:
        """The call begun is finished: it counts as activity until now."""
        self.in_flight -= 1
        self.last_active = self.clock()
        if self.in_flight == 0:
            self._quiet.set()
        self._changed.set()

    @contextlib.contextmanager
    def call(self) -> Iterator[None]:
        """Around one call."""
        self.begin()
        try:
            yield
        finally:
            self.end()

    def abandoning(self) -> asyncio.Future[None]:
        """A future done once calls are abandoned: one for every call to wait on beside
        its work (a task per call waiting on `abandoned` cost every call two more trips
        round the event loop)."""
        if self._abandoning is None:
            self._abandoning = asyncio.get_running_loop().create_future()
            if self.abandoned.is_set():
                self._abandoning.set_result(None)
        return self._abandoning

    def idle_for(self) -> float:
        """Seconds since the last call ended; 0 while one is in flight."""
        return 0.0 if self.in_flight else self.clock() - self.last_active

    async def quiet(self) -> None:
        """Return once no call is in flight."""
        await self._quiet.wait()

    async def drain(self, grace: float) -> bool:
        """Wait up to ``grace`` seconds for the calls in flight to end; if some are left,
        abandon them and wait for their fail-closed answers. True if none was abandoned."""
        try:
            await asyncio.wait_for(self._quiet.wait(), grace)
            return True
        except TimeoutError:
            self.abandoned.set()
            if self._abandoning is not None and not self._abandoning.done():
                self._abandoning.set_result(None)
            await self._quiet.wait()
            return False

    async def idle(self, seconds: float) -> None:
        """Return once no call has been in flight for ``seconds``."""
        while True:
            await self._quiet.wait()
            left = seconds - self.idle_for()
            if left <= 0:
                return
            self._changed.clear()
            # Woken early by any call ending (the count is checked again), else on time.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)
