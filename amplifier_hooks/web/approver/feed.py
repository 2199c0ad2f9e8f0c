"""`QueueFeed`: one watcher of the store per server, fanned out to every open browser.

The queue is read once per change (LISTEN/NOTIFY on PostgreSQL, polling on SQLite) and
at least every `IDLE_REFRESH` seconds (so a deadline that passes moves a request to the
history), never more often than every `MIN_REFRESH` seconds; each browser is sent the
new state only when it differs from the last one. A hundred open tabs cost one reader.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from amplifier_hooks.approvals.store import ApprovalBackend, ApprovalStoreError
from amplifier_hooks.logs import get_logger
from amplifier_hooks.web.approver.views import HISTORY, split_queue

__all__ = ["IDLE_REFRESH", "MIN_REFRESH", "QueueFeed"]

logger = get_logger()

MIN_REFRESH = 0.2
"""Seconds between two reads of the queue, however often it is notified."""
IDLE_REFRESH = 5.0
"""Seconds between two reads when nothing is notified (deadlines pass silently)."""


class QueueFeed:
    """The current state of the queue as JSON, and a way to wait for the next one."""

    def __init__(self, backend: ApprovalBackend) -> None:
        self.backend = backend
        self.version = 0
        self.state: dict[str, Any] = {"version": 0, "loading": True}
        self.text = json.dumps(self.state)
        self._changed = asyncio.Condition()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._next_deadline = float("inf")  # epoch seconds of the nearest deadline
        self.closed = False
        self.ready = asyncio.Event()
        """Set once the queue has been read (or found unreadable) for the first time."""

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.ensure_future(self._run())

    def wake(self) -> None:
        """Read the queue now (after an answer, say), not at the next change."""
        self._wake.set()

    async def close(self) -> None:
        """Stop reading and release every browser waiting for the next state."""
        self.closed = True
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        async with self._changed:
            self._changed.notify_all()

    def stamped(self, text: str) -> str:
        """The state's JSON ``text`` with ``now``: the store's clock (the one its rows'
        times are in) as it is sent, so a page computes time left from it and its own
        monotonic clock, whatever the clock of the machine it runs on says (a state read
        minutes ago is not "now")."""
        return f'{text[:-1]}, "now": {self.backend.now():.3f}}}'

    async def next_state(self, after: int, timeout: float) -> tuple[int, str] | None:
        """The state's version and JSON once its version is past ``after``; None after
        ``timeout`` seconds without one, or when the feed closes."""
        async with self._changed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    self._changed.wait_for(lambda: self.version > after or self.closed), timeout
                )
            if self.version > after and not self.closed:
                return self.version, self.text
            return None

    async def refresh(self) -> None:
        """Read the queue once and publish the state if it changed."""
        state: dict[str, Any]
        try:
            waiting_rows = await self.backend.list_pending()
            recent = await self.backend.list_pending(
                include_done=True, limit=min(500, len(waiting_rows) + 2 * HISTORY)
            )
        except ApprovalStoreError as exc:
            state = {**self.state, "error": f"store unreachable: {exc}", "loading": False}
        else:
            waiting, history = split_queue(waiting_rows, recent, self.backend.now())
            deadlines = [v["deadline"] for v in waiting if v["deadline"] is not None]
            self._next_deadline = min(deadlines, default=float("inf"))
            state = {"pending": waiting, "history": history, "error": None, "loading": False}
        state.pop("version", None)
        if state == {k: v for k, v in self.state.items() if k != "version"}:
            return
        async with self._changed:
            self.version += 1
            self.state = {**state, "version": self.version}
            self.text = json.dumps(self.state)
            self._changed.notify_all()

    async def _run(self) -> None:
        while True:
            try:
                await self.refresh()
            except Exception as exc:  # a background task: nothing above it would see this
                logger.error("approver feed failed to read the queue", error=repr(exc))
            self.ready.set()
            self._wake.clear()
            # Re-read just after the nearest deadline: that request is over by then.
            left = self._next_deadline - self.backend.now()
            idle = max(MIN_REFRESH, min(IDLE_REFRESH, left + 0.05))
            waiting = asyncio.ensure_future(self.backend.wait_for_change(None, idle))
            woken = asyncio.ensure_future(self._wake.wait())
            try:
                await asyncio.wait({waiting, woken}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (waiting, woken):
                    task.cancel()
            if not self._wake.is_set():
                await asyncio.sleep(MIN_REFRESH)
