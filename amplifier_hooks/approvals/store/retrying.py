"""How a store call outlasts a transient failure (a lock, a lost connection): retried with
jittered backoff for up to its budget, then given up with one warning. Its own module:
every backend's calls go through it (`base.ApprovalBackend`), whatever the database.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from amplifier_hooks.approvals.store.records import ApprovalStoreError
from amplifier_hooks.logs import get_logger

__all__ = ["DEFAULT_BUDGET", "retrying"]

logger = get_logger()

T = TypeVar("T")

DEFAULT_BUDGET = 10.0
"""Seconds a store call keeps retrying transient failures when the caller gives no budget."""


async def retrying(
    name: str, what: str, attempt: Callable[[], Awaitable[T]], budget: float | None
) -> T:
    """Run ``attempt`` until it succeeds, retrying transient `ApprovalStoreError` with
    jittered exponential backoff (10 ms doubling to 500 ms) for up to ``budget`` seconds."""
    limit = DEFAULT_BUDGET if budget is None else max(0.0, budget)
    give_up = time.monotonic() + limit
    pause = 0.01
    tries = 0
    while True:
        tries += 1
        try:
            return await attempt()
        except ApprovalStoreError as exc:
            left = give_up - time.monotonic()
            if not exc.transient or left <= 0:
                if tries > 1:
                    logger.warning("approval store gave up", store=name, what=what, tries=tries)
                raise
            logger.debug("approval store retry", store=name, what=what, error=str(exc))
            await asyncio.sleep(min(left, pause * random.uniform(0.5, 1.0)))
            pause = min(pause * 2, 0.5)
