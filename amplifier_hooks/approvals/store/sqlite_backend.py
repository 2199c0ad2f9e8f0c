"""`SQLiteBackend`: the `ApprovalBackend` over an `ApprovalStore` file.

SQLite calls block (a lock held by another process makes them wait up to the busy
timeout), so each one runs in a worker thread and the event loop keeps going. A lock that
outlasts the busy timeout is retried with backoff for the caller's budget; only a store
that stays unusable fails the question closed. Waiters on the queue poll: SQLite has no
notifications, and the file is only shared by processes on one machine.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import TypeVar

from amplifier_hooks.approvals.models import ApprovalDecision, ApprovalRequest
from amplifier_hooks.approvals.store.base import ApprovalBackend, retrying
from amplifier_hooks.approvals.store.presence import ApproverKind, ApproverSeen
from amplifier_hooks.approvals.store.records import (
    GLOBAL,
    AnswerResult,
    AuditEntry,
    PendingRequest,
    RememberedDecision,
)
from amplifier_hooks.approvals.store.sqlite import ApprovalStore

T = TypeVar("T")

POLL_INTERVAL = 0.05
"""Seconds between two looks at a queued request while waiting for its answer."""


class SQLiteBackend(ApprovalBackend):
    """Runs an `ApprovalStore`'s calls off the event loop, retrying locks."""

    def __init__(self, store: ApprovalStore, *, poll_interval: float = POLL_INTERVAL) -> None:
        self.store = store
        self.name = str(store.path)
        self.poll_interval = poll_interval
        self.retries = 0
        """How many times a call met a lock and was tried again (for tests and tuning)."""

    def __repr__(self) -> str:
        return f"SQLiteBackend({self.name!r})"

    async def _run(self, what: str, call: Callable[[], T], budget: float | None = None) -> T:
        first = True

        async def attempt() -> T:
            nonlocal first
            if not first:
                self.retries += 1
            first = False
            return await asyncio.to_thread(call)

        return await retrying(self.name, what, attempt, budget)

    # -- remembered decisions ----------------------------------------------------------

    async def lookup(
        self, key: str, workspace: str = GLOBAL, *, budget: float | None = None
    ) -> RememberedDecision | None:
        return await self._run(
            "lookup", functools.partial(self.store.lookup, key, workspace), budget
        )

    async def remember(
        self,
        request: ApprovalRequest,
        decision: ApprovalDecision,
        *,
        ttl: float | None = None,
        budget: float | None = None,
    ) -> None:
        call = functools.partial(self.store.remember, request, decision, ttl=ttl)
        await self._run("remember", call, budget)

    async def list_remembered(self, *, include_expired: bool = False) -> list[RememberedDecision]:
        call = functools.partial(self.store.list_remembered, include_expired=include_expired)
        return await self._run("list remembered", call)

    async def forget(self, key: str, workspace: str | None = None) -> int:
        return await self._run("forget", functools.partial(self.store.forget, key, workspace))

    async def forget_all(self) -> int:
        return await self._run("forget all", self.store.forget_all)

    # -- audit ---------------------------------------------------------------------------

    async def audit(
        self, request: ApprovalRequest, decision: ApprovalDecision, *, budget: float | None = None
    ) -> None:
        await self._run("audit", functools.partial(self.store.audit, request, decision), budget)
        self.prune_soon()

    async def audit_log(self, limit: int | None = 100) -> list[AuditEntry]:
        return await self._run("audit log", functools.partial(self.store.audit_log, limit))

    # -- the queue -----------------------------------------------------------------------

    async def enqueue(
        self,
        request: ApprovalRequest,
        *,
        session_id: str,
        host: str,
        deadline: float | None,
        budget: float | None = None,
    ) -> int:
        call = functools.partial(
            self.store.enqueue, request, session_id=session_id, host=host, deadline=deadline
        )
        ident = await self._run("enqueue", call, budget)
        self.prune_soon()
        return ident

    async def pending(self, ident: int, *, budget: float | None = None) -> PendingRequest | None:
        return await self._run("read queued", functools.partial(self.store.pending, ident), budget)

    async def list_pending(
        self, *, include_done: bool = False, limit: int = 500
    ) -> list[PendingRequest]:
        call = functools.partial(self.store.list_pending, include_done=include_done, limit=limit)
        return await self._run("list queued", call)

    async def answer(self, ident: int, choice: str, answered_by: str) -> AnswerResult:
        call = functools.partial(self.store.answer, ident, choice, answered_by)
        return await self._run("answer", call)

    async def expire(self, ident: int, *, budget: float | None = None) -> PendingRequest | None:
        return await self._run("expire", functools.partial(self.store.expire, ident), budget)

    async def settle(self, ident: int, outcome: str, *, budget: float | None = None) -> None:
        await self._run("settle", functools.partial(self.store.settle, ident, outcome), budget)

    async def wait_for_change(self, ident: int | None, timeout: float) -> None:
        await asyncio.sleep(max(0.0, min(timeout, self.poll_interval)))

    # -- who watches the queue ---------------------------------------------------------

    async def beat(
        self, approver_id: str, name: str, kind: ApproverKind, *, budget: float | None = None
    ) -> None:
        call = functools.partial(self.store.beat, approver_id, name, kind)
        await self._run("record approver", call, budget)

    async def leave(self, approver_id: str, *, budget: float | None = None) -> None:
        await self._run("remove approver", functools.partial(self.store.leave, approver_id), budget)

    async def approvers(self, within: float, *, budget: float | None = None) -> list[ApproverSeen]:
        return await self._run(
            "read approvers", functools.partial(self.store.approvers, within), budget
        )

    # -- pruning -------------------------------------------------------------------------

    def now(self) -> float:
        return self.store.clock()

    async def prune_queue(self, older_than: float, *, budget: float | None = None) -> int:
        call = functools.partial(self.store.prune_queue, older_than)
        return await self._run("prune queue", call, budget)

    async def prune_audit(self, older_than: float, *, budget: float | None = None) -> int:
        call = functools.partial(self.store.prune_audit, older_than)
        return await self._run("prune audit", call, budget)

    # -- life cycle ----------------------------------------------------------------------

    async def aclose(self) -> None:
        await self._stop_pruning()
        await asyncio.to_thread(self.store.close)

    def close(self) -> None:
        if self._pruning is not None:
            self._pruning.cancel()
        self.store.close()
