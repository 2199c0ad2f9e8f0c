"""Withdrawing the questions nobody waits for any more, when a store is opened.

A hook server killed while a question waits leaves its row pending (docs/security.md,
"Questions have one owner"). Whoever opens the store to ask or answer -- a starting
server, the approver's console, its browser page, ``approve --list`` -- first withdraws
the pending questions of owners on this machine that are gone
(`ApprovalBackend.withdraw_orphans`), so a person is never shown a question whose answer
nobody would read. A store that cannot do it now is logged, never fatal: an answer to
the orphan still finds its owner gone and says so (``won: false``).
"""

from __future__ import annotations

import asyncio

from amplifier_hooks.approvals.store.base import ApprovalBackend
from amplifier_hooks.approvals.store.records import ApprovalStoreError
from amplifier_hooks.logs import get_logger

__all__ = ["WITHDRAW_BUDGET", "withdraw_at_open"]

logger = get_logger()

WITHDRAW_BUDGET = 5.0
"""Seconds the store gets to withdraw orphans before the opener goes on without it."""


async def withdraw_at_open(backend: ApprovalBackend) -> list[int]:
    """Withdraw the orphaned questions in ``backend``; the ids withdrawn (none when the
    store could not do it in `WITHDRAW_BUDGET`)."""
    try:
        return await asyncio.wait_for(
            backend.withdraw_orphans(budget=WITHDRAW_BUDGET), WITHDRAW_BUDGET
        )
    except ApprovalStoreError as exc:
        # A store that cannot be reached at all (a wrong address, password or database)
        # fails the opener's own next call with one clear error: saying it here too would
        # print it twice. A passing failure is worth a warning.
        log = logger.warning if exc.transient else logger.debug
        log("could not withdraw orphaned approval requests", store=backend.name, error=str(exc))
        return []
    except TimeoutError:
        logger.warning(
            "could not withdraw orphaned approval requests",
            store=backend.name,
            error="timed out",
        )
        return []
