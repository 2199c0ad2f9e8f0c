"""`QueueListener`: one ``LISTEN`` connection per process that wakes queue waiters.

Agents waiting for answers and approvers' consoles would otherwise poll. A notification
carries the id of the request that changed; the listener sets that request's event (and
the "anything changed" event). When its connection drops, it reconnects with backoff and
then wakes every waiter, because notifications sent while it was away are lost: waiters
re-read their rows, so nothing answered in the gap is missed.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import psycopg

from amplifier_hooks.approvals.store.postgres_schema import CHANNEL
from amplifier_hooks.logs import get_logger

logger = get_logger()

FALLBACK = 5.0
"""Seconds a waiter sleeps at most while the listener is connected (a safety net)."""
OFFLINE_POLL = 0.25
"""Seconds between re-reads while the listener is reconnecting."""


class QueueListener:
    """Wakes `wait` callers when their request (or any request) changes."""

    def __init__(self, url: str, name: str) -> None:
        self.url = url
        """The connection string (with its connect timeout: `PostgresBackend.conninfo`)."""
        self.name = name
        self.connected = asyncio.Event()
        self.reconnects = 0
        self._watched: dict[int, asyncio.Event] = {}
        self._any = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    def start(self) -> None:
        """Start listening (once); safe to call on every wait. Never again once closed: a
        waiter still looping after its store was closed must not open a new connection
        (nothing would close it)."""
        if self._closed:
            return
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._run())

    def watch(self, ident: int) -> None:
        """Start collecting wake-ups for ``ident`` (call right after queueing it)."""
        self._watched.setdefault(ident, asyncio.Event())

    def unwatch(self, ident: int) -> None:
        """Stop collecting wake-ups for ``ident``."""
        self._watched.pop(ident, None)

    async def wait(self, ident: int | None, timeout: float) -> None:
        """Until ``ident`` (None: anything) is notified, or ``timeout`` seconds pass."""
        self.start()
        event = self._any if ident is None else self._watched.setdefault(ident, asyncio.Event())
        cap = FALLBACK if self.connected.is_set() else OFFLINE_POLL
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout=max(0.0, min(timeout, cap)))
        event.clear()

    def _wake_all(self) -> None:
        self._any.set()
        for event in self._watched.values():
            event.set()

    async def _run(self) -> None:
        pause = 0.05
        while True:
            try:
                conn: psycopg.AsyncConnection[Any] = await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True
                )
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.connected.set()
                    pause = 0.05
                    self._wake_all()  # anything sent while we were away is lost: re-read
                    async for note in conn.notifies():
                        self._any.set()
                        with contextlib.suppress(ValueError):
                            event = self._watched.get(int(note.payload))
                            if event is not None:
                                event.set()
            except (psycopg.Error, OSError) as exc:
                if self.connected.is_set():
                    logger.warning(
                        "approval queue listener lost its connection; reconnecting",
                        store=self.name,
                        error=str(exc),
                    )
                self.connected.clear()
                self._wake_all()
                self.reconnects += 1
            await asyncio.sleep(pause)
            pause = min(pause * 2, 2.0)

    async def aclose(self) -> None:
        """Stop listening, for good."""
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
