"""A hook server that starts withdraws the questions its dead predecessors left pending.

When a hook server is killed (``kill -9``, a crash) while a question waits in the queue,
its row stays pending with nobody waiting for the answer; the relay starts a new server,
which asks again. Before the new server listens, it withdraws the pending questions of
servers on this machine that are gone (`ApprovalBackend.withdraw_orphans`), in the store
its bundle queues in, so an approver sees one question, and an answer to the orphan says
it was not applied. A store that cannot be reached now is logged, never fatal: the
orphan is then withdrawn when someone answers it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from amplifier_hooks.approvals.store import (
    MEMORY,
    ApprovalBackend,
    ApprovalStoreError,
    StoreLocationError,
    default_store_path,
    is_postgres_url,
    open_store,
)
from amplifier_hooks.approvals.store.location import sqlite_target
from amplifier_hooks.approvals.store.orphans import WITHDRAW_BUDGET, withdraw_at_open
from amplifier_hooks.bundles.format import Bundle
from amplifier_hooks.bundles.settings import store_of
from amplifier_hooks.logs import get_logger

__all__ = ["WITHDRAW_BUDGET", "withdraw_orphans"]

logger = get_logger()


def _no_such_file(target: object) -> bool:
    """True for a SQLite store whose file is not there yet: it holds no question, and
    looking must not create it."""
    if isinstance(target, ApprovalBackend) or is_postgres_url(target):
        return False
    if target is None:
        return not default_store_path().exists()
    path = sqlite_target(target) if isinstance(target, str) else target
    return not Path(path).expanduser().exists()  # type: ignore[arg-type]


async def withdraw_orphans(bundle: Bundle, session_options: dict[str, Any]) -> list[int]:
    """Withdraw the orphaned questions in the store ``bundle``'s sessions queue in (the
    caller's ``approval_store`` when it gives one); the ids withdrawn."""
    try:
        target = (
            session_options["approval_store"]
            if "approval_store" in session_options
            else store_of(bundle.session.approvals)
        )
        if target == MEMORY or _no_such_file(target):  # nobody else's questions in it
            return []
        backend = open_store(target)
    except (StoreLocationError, ApprovalStoreError) as exc:
        logger.warning("could not open the approval store to withdraw orphans", error=str(exc))
        return []
    try:
        return await withdraw_at_open(backend)
    finally:
        if not isinstance(target, ApprovalBackend):
            await backend.aclose()
