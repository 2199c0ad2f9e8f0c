"""`ApprovalBackend`: the one async interface every approval store implements.

The gate, the queue provider and the approver's console talk only to this interface, so a
single machine's SQLite file and a team's PostgreSQL database behave the same. Every call
is a coroutine that never blocks the event loop; a failure is an `ApprovalStoreError`
whose message names the store. Calls that take ``budget`` retry transient failures (a
lock, a lost connection) with backoff for up to that many seconds.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TypeVar

from amplifier_hooks.approvals.models import ApprovalDecision, ApprovalDeferral, ApprovalRequest
from amplifier_hooks.approvals.store import operations, rows
from amplifier_hooks.approvals.store.operations import Operation, Tables
from amplifier_hooks.approvals.store.owners import this_machine, this_process
from amplifier_hooks.approvals.store.presence import ApproverKind, ApproverSeen
from amplifier_hooks.approvals.store.records import (
    GLOBAL,
    AnswerResult,
    ApprovalStoreError,
    AuditEntry,
    PendingRequest,
    RememberedDecision,
)
from amplifier_hooks.approvals.store.retrying import retrying
from amplifier_hooks.logs import get_logger

logger = get_logger()

T = TypeVar("T")

QUEUE_RETENTION = 7 * 24 * 3600.0
"""Seconds a queued request that is over (answered, expired, or past its deadline) is kept
before `ApprovalBackend.prune_queue` deletes it: a week."""

AUDIT_RETENTION = 90 * 24 * 3600.0
"""Seconds an audit row is kept before `ApprovalBackend.prune_audit` deletes it: 90 days
(long enough to answer "who allowed that last month", short enough that what the rows
quote does not pile up for ever). Set ``audit_retention`` to None to keep it all."""

PRUNE_INTERVAL = 3600.0
"""Seconds between two automatic prunes of one backend (see `ApprovalBackend.prune_soon`)."""


class ApprovalBackend(ABC):
    """Remembered decisions, the audit trail and the shared queue of pending requests.

    Each call is written once, here and in `operations`; a backend says how to run one
    transaction (`_transact`) and how to wait for the queue (`wait_for_change`).

    Queued requests that are over are pruned after ``queue_retention`` seconds (None:
    kept for ever): in the background, at most once per ``prune_interval``, after a
    request is queued or audited (`prune_soon`). Audit rows likewise after
    ``audit_retention`` seconds.
    """

    name: str
    """How messages name the store: a file path, or a URL without its password."""

    tables: Tables
    """The names this backend gives its tables."""

    clock: Callable[[], float]
    """Wall-clock seconds (``time.time``), replaceable so expiry can be tested."""

    shared: bool = False
    """True when other machines may use the same store (answers wake waiters by notify)."""

    queue_retention: float | None = QUEUE_RETENTION
    """Seconds a queued request is kept once it is over; None: for ever."""

    audit_retention: float | None = AUDIT_RETENTION
    """Seconds an audit row is kept; None: for ever."""

    prune_interval: float = PRUNE_INTERVAL
    """Seconds between two automatic prunes (by this backend's clock)."""

    retries: int = 0
    """How many times a call met a transient failure and was tried again."""

    _pruning: asyncio.Task[None] | None = None
    _last_prune: float | None = None

    # -- what a backend provides ---------------------------------------------------------

    @abstractmethod
    async def _transact(self, what: str, operation: Operation[T], budget: float | None) -> T:
        """Run ``operation`` as one transaction, once (within about ``budget`` seconds);
        a failure is an `ApprovalStoreError` (``transient`` when trying again may help)."""

    async def _run(
        self, what: str, operation: Callable[[], Operation[T]], budget: float | None = None
    ) -> T:
        """A fresh ``operation()`` per attempt, retried as `retrying` says."""
        first = True

        async def attempt() -> T:
            nonlocal first
            if not first:
                self.retries += 1
            first = False
            return await self._transact(what, operation(), budget)

        return await retrying(self.name, what, attempt, budget)

    def _queued(self, ident: int) -> None:  # noqa: B027  # SQLite needs nothing here
        """Request ``ident`` was just queued by this process (PostgreSQL listens for it)."""

    def _settled(self, ident: int) -> None:  # noqa: B027  # SQLite needs nothing here
        """This process is done with request ``ident``."""

    # -- remembered decisions ----------------------------------------------------------

    async def lookup(
        self, key: str, workspace: str = GLOBAL, *, budget: float | None = None
    ) -> RememberedDecision | None:
        """The unexpired remembered decision for ``key`` that applies in ``workspace``
        (one remembered for that workspace wins over one for every workspace)."""
        t, now = self.tables, self.now()
        return await self._run(
            "lookup", lambda: operations.lookup(t, self.name, key, workspace, now), budget
        )

    async def remember(
        self,
        request: ApprovalRequest,
        decision: ApprovalDecision,
        *,
        ttl: float | None = None,
        budget: float | None = None,
    ) -> None:
        """Store ``decision`` for ``request.key`` in ``request.remember_scope`` and audit
        it, in one transaction: a remembered answer never exists without its audit."""
        t, now = self.tables, self.now()
        await self._run(
            "remember", lambda: operations.remember(t, request, decision, now, ttl), budget
        )

    async def list_remembered(self, *, include_expired: bool = False) -> list[RememberedDecision]:
        """Every remembered decision, oldest first."""
        t, now = self.tables, None if include_expired else self.now()
        return await self._run(
            "list remembered", lambda: operations.list_remembered(t, self.name, now)
        )

    async def forget(self, key: str, workspace: str | None = None) -> int:
        """Drop the decisions remembered under ``key`` (in one workspace, or all); how many."""
        return await self._run("forget", lambda: operations.forget(self.tables, key, workspace))

    async def forget_all(self) -> int:
        """Drop every remembered decision (the audit trail is kept); how many."""
        return await self._run("forget all", lambda: operations.forget_all(self.tables))

    # -- audit ---------------------------------------------------------------------------

    async def audit(
        self,
        request: ApprovalRequest,
        answer: ApprovalDecision | ApprovalDeferral,
        *,
        budget: float | None = None,
    ) -> None:
        """Append one committed audit row: a decision, or a question left to the host."""
        t, now = self.tables, self.now()
        await self._run("audit", lambda: operations.audit(t, request, answer, now), budget)
        self.prune_soon()

    async def audit_log(self, limit: int | None = 100) -> list[AuditEntry]:
        """The most recent audit rows (up to ``limit``; None for all), oldest first."""
        return await self._run(
            "audit log", lambda: operations.audit_log(self.tables, self.name, limit)
        )

    # -- the shared queue ----------------------------------------------------------------

    async def enqueue(
        self,
        request: ApprovalRequest,
        *,
        session_id: str,
        host: str,
        deadline: float | None,
        budget: float | None = None,
    ) -> int:
        """Put ``request`` on the queue; its id. ``deadline`` is epoch seconds."""
        values = rows.pending_values(
            request, session_id, host, deadline, self.now(), this_process()
        )
        ident = await self._run(
            "queue request", lambda: operations.enqueue(self.tables, values), budget
        )
        self._queued(ident)
        self.prune_soon()
        return ident

    async def pending(self, ident: int, *, budget: float | None = None) -> PendingRequest | None:
        """One queued request as it stands now (None: no such id, or unreadable)."""
        return await self._run(
            "read queued request", lambda: operations.pending(self.tables, self.name, ident), budget
        )

    async def list_pending(
        self, *, include_done: bool = False, limit: int = 500
    ) -> list[PendingRequest]:
        """Up to ``limit`` queued requests, newest first; only those still waiting unless
        ``include_done``. A row that cannot be read is skipped with a log line."""
        return await self._run(
            "list queued requests",
            lambda: operations.list_pending(self.tables, self.name, include_done, limit),
        )

    async def answer(self, ident: int, choice: str, answered_by: str) -> AnswerResult:
        """Answer a pending request, in one transaction: exactly one answer wins; one
        that comes after the agent stopped waiting, or after the request's deadline, is
        recorded as late (audited, not applied, and the request marked expired). A
        request whose owner on this machine is gone is withdrawn, and the answer with it."""
        t, now, here = self.tables, self.now(), this_machine()
        return await self._run(
            "answer queued request",
            lambda: operations.answer(t, self.name, ident, choice, answered_by, now, here),
        )

    async def withdraw_orphans(self, *, budget: float | None = None) -> list[int]:
        """Withdraw the pending requests whose owner, a process of this machine, runs no
        more (killed, crashed): nobody waits for their answer. Requests of other machines
        are left alone. The ids withdrawn."""
        t, here = self.tables, this_machine()
        withdrawn = await self._run(
            "withdraw orphaned requests", lambda: operations.withdraw_orphans(t, here), budget
        )
        if withdrawn:
            logger.info("orphaned approval requests withdrawn", store=self.name, ids=withdrawn)
        return withdrawn

    async def expire(self, ident: int, *, budget: float | None = None) -> PendingRequest | None:
        """The agent stops waiting: mark the request expired unless an answer won first.
        Returns the row afterwards (its status says which happened)."""
        return await self._run(
            "expire queued request",
            lambda: operations.expire(self.tables, self.name, ident),
            budget,
        )

    async def settle(self, ident: int, outcome: str, *, budget: float | None = None) -> None:
        """Record what the agent did with the request (applied, late, timeout, withdrawn)."""
        try:
            await self._run(
                "settle queued request",
                lambda: operations.settle(self.tables, ident, outcome),
                budget,
            )
        finally:
            self._settled(ident)

    @abstractmethod
    async def wait_for_change(self, ident: int | None, timeout: float) -> None:
        """Return when request ``ident`` (None: any request) may have changed, or after
        ``timeout`` seconds. Callers re-read the row: a wake-up is only a hint."""

    # -- who watches the queue ------------------------------------------------------------

    async def beat(
        self, approver_id: str, name: str, kind: ApproverKind, *, budget: float | None = None
    ) -> None:
        """Record that approver console ``approver_id`` is running now (a heartbeat)."""
        t, now = self.tables, self.now()
        await self._run(
            "record approver", lambda: operations.beat(t, approver_id, name, kind, now), budget
        )

    async def leave(self, approver_id: str, *, budget: float | None = None) -> None:
        """Remove the heartbeat of a console that stops."""
        await self._run(
            "remove approver", lambda: operations.leave(self.tables, approver_id), budget
        )

    async def approvers(self, within: float, *, budget: float | None = None) -> list[ApproverSeen]:
        """The approver consoles whose last heartbeat is under ``within`` seconds old
        (by this backend's clock), most recent first."""
        t, since = self.tables, self.now() - within
        return await self._run(
            "read approvers", lambda: operations.approvers(t, self.name, since), budget
        )

    # -- pruning the queue ---------------------------------------------------------------

    def now(self) -> float:
        """This backend's clock: epoch seconds, as the rows record them."""
        return self.clock()

    async def prune_queue(self, older_than: float, *, budget: float | None = None) -> int:
        """Delete the queued requests that have been over for more than ``older_than``
        seconds; how many were deleted. A request is over when it was answered or
        expired, or when its deadline has passed; it is as old as the latest of its
        creation, its answer and its deadline. A request still waiting (no deadline, or
        one not yet passed) is never deleted, whatever its age."""
        cutoff = self.now() - older_than
        return await self._run(
            "prune queue", lambda: operations.prune_queue(self.tables, cutoff), budget
        )

    async def prune_audit(self, older_than: float, *, budget: float | None = None) -> int:
        """Delete the audit rows older than ``older_than`` seconds; how many."""
        cutoff = self.now() - older_than
        return await self._run(
            "prune audit", lambda: operations.prune_audit(self.tables, cutoff), budget
        )

    def prune_soon(self) -> None:
        """Start pruning the queue and the audit in the background, if a retention is
        set, no prune is running and the last one was ``prune_interval`` ago or more.
        Never raises and never waits: a prune that fails is logged and tried again later."""
        if self.queue_retention is None and self.audit_retention is None:
            return
        if self._pruning and not self._pruning.done():
            return
        now = self.now()
        last = self._last_prune
        if last is not None and 0 <= now - last < self.prune_interval:
            return
        self._last_prune = now
        self._pruning = asyncio.ensure_future(
            self._prune_in_background(self.queue_retention, self.audit_retention)
        )

    async def _prune_in_background(self, queue: float | None, audit: float | None) -> None:
        try:
            removed = 0 if queue is None else await self.prune_queue(queue)
            if audit is not None:
                removed += await self.prune_audit(audit)
        except ApprovalStoreError as exc:
            logger.warning("could not prune the approval queue", store=self.name, error=str(exc))
        except Exception as exc:  # a background task: nothing above it would see this
            logger.error("approval queue prune failed", store=self.name, error=repr(exc))
        else:
            if removed:
                logger.info("approval queue pruned", store=self.name, removed=removed)

    async def pruned(self) -> None:
        """Wait for the background prune, if one is running (for tests and tools)."""
        if self._pruning is not None:
            await asyncio.shield(self._pruning)

    async def _stop_pruning(self) -> None:
        """Stop a background prune before the connections go (part of `aclose`)."""
        task, self._pruning = self._pruning, None
        if task is not None and not task.done():
            task.cancel()
            await asyncio.wait({task})  # its own cancellation stays inside it

    # -- life cycle ----------------------------------------------------------------------

    @abstractmethod
    async def aclose(self) -> None:
        """Release connections; later calls raise `ApprovalStoreError`."""

    def close(self) -> None:  # noqa: B027  # a no-op is right for most backends
        """Synchronous close for callers without a loop (SQLite closes here too)."""
