"""`OpenQuestions`: the questions a gate is deciding right now, so that closing the gate
withdraws them before its store closes (a queued row is then closed as withdrawn, and no
approver answers a question nobody awaits)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

__all__ = ["WITHDRAWN", "WITHDRAW_GRACE", "OpenQuestions"]

WITHDRAWN = "the session ended before an answer: the question was withdrawn"
"""The deny reason of a question withdrawn because its gate closed."""
WITHDRAW_GRACE = 2.0
"""Seconds a closing gate gives its open questions to be withdrawn and audited."""


class OpenQuestions:
    """Counts the questions being decided; `settled` waits until there are none."""

    def __init__(self) -> None:
        self.count = 0
        self.withdrawing = False
        """Set while the gate closes: a question cancelled now was withdrawn."""
        self._quiet = asyncio.Event()

    @contextlib.contextmanager
    def one(self) -> Iterator[None]:
        """Count one question while inside."""
        self.count += 1
        self._quiet.clear()
        try:
            yield
        finally:
            self.count -= 1
            if not self.count:
                self._quiet.set()

    async def settled(self, timeout: float = WITHDRAW_GRACE) -> None:
        """Wait (at most ``timeout`` seconds) until no question is open."""
        if not self.count:
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._quiet.wait()
