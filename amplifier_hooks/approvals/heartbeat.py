"""`Heartbeat`: a running approver console says so in the store it serves.

While the console runs, its row in the store is renewed every `BEAT_INTERVAL` seconds;
when it stops, the row is deleted. The ``auto`` approval provider queues a question only
where such a heartbeat is recent (see `amplifier_hooks.approvals.auto`). A heartbeat
that cannot be written is logged and tried again at the next beat: the console itself
keeps working (it only means agents may not queue to it for a while).
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid

from amplifier_hooks.approvals.store import (
    BEAT_INTERVAL,
    ApprovalBackend,
    ApprovalStoreError,
    ApproverKind,
)
from amplifier_hooks.engine.options import positive_seconds
from amplifier_hooks.logs import get_logger

__all__ = ["Heartbeat"]

logger = get_logger()

LEAVE_BUDGET = 2.0
"""Seconds spent removing the row when the console stops."""


class Heartbeat:
    """``async with Heartbeat(backend, "ana@laptop", "console"):`` -- beats until exit."""

    def __init__(
        self,
        backend: ApprovalBackend,
        name: str,
        kind: ApproverKind,
        *,
        interval: float = BEAT_INTERVAL,
    ) -> None:
        self.backend = backend
        self.name = name
        self.kind: ApproverKind = kind
        self.interval = positive_seconds(interval, "interval")
        self.id = uuid.uuid4().hex
        self.beats = 0
        """Heartbeats written so far (for tests and diagnostics)."""
        self._task: asyncio.Task[None] | None = None

    async def beat(self) -> bool:
        """Write one heartbeat now; False (logged) if the store refused it."""
        try:
            await self.backend.beat(self.id, self.name, self.kind, budget=self.interval / 2)
        except ApprovalStoreError as exc:
            logger.warning(
                "approver heartbeat not recorded", store=self.backend.name, error=str(exc)
            )
            return False
        self.beats += 1
        return True

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            await self.beat()

    async def __aenter__(self) -> Heartbeat:
        await self.beat()
        self._task = asyncio.ensure_future(self._run())
        return self

    async def __aexit__(self, *exc: object) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        try:
            await self.backend.leave(self.id, budget=LEAVE_BUDGET)
        except ApprovalStoreError as exc:  # the row ages out of the presence window
            logger.warning(
                "approver heartbeat not removed", store=self.backend.name, error=str(exc)
            )
