"""`QueueApprovalProvider`: ask whoever watches the shared queue, not this terminal.

The request goes into the store with everything an approver needs (session, host,
workspace, event, prompt, options, details, deadline); the provider then waits for its
row to be answered: woken by ``LISTEN/NOTIFY`` on PostgreSQL, by polling on SQLite. Its
own deadline decides if nobody answers: the row is marked expired (an answer that comes
after that is recorded as late, never applied). A store that cannot be reached when the
question is asked fails it closed; a connection lost while waiting is retried until the
deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import math
import socket
import time
import uuid
from collections.abc import Awaitable
from typing import Final, Literal, TypeVar

from amplifier_hooks.approvals.models import ApprovalRequest, ApprovalTimeout
from amplifier_hooks.approvals.requests import current_workspace
from amplifier_hooks.approvals.store import (
    MEMORY,
    ApprovalBackend,
    ApprovalStoreError,
    StoreTarget,
)
from amplifier_hooks.approvals.store import open_store as _open_store
from amplifier_hooks.logs import get_logger

logger = get_logger()

T = TypeVar("T")

SETTLE_BUDGET = 5.0
"""Seconds spent recording the final state of a request after the wait is over."""

QUEUED_FIELD_LIMIT = 16_000
"""Characters of one tool field (command, path, url) queued whole for the approver; a
longer one is cut with a line that says how much is missing."""


def queued_details(request: ApprovalRequest) -> dict[str, str]:
    """The details queued with ``request``: the gate's short summary, with the tool's own
    fields (``raw``) whole and with their line breaks, so an approver who reads the queue
    (a browser, ``approve --list --json``) sees the command that will run, not its first
    line. Consoles that show one line still cut them for display."""
    details = dict(request.details)
    fields = request.raw if request.shown_raw is None else request.shown_raw
    for name, value in fields.items():
        if not isinstance(value, str) or not value:
            continue
        if len(value) > QUEUED_FIELD_LIMIT:
            missing = len(value) - QUEUED_FIELD_LIMIT
            value = f"{value[:QUEUED_FIELD_LIMIT]}\n[… {missing} more characters not shown]"
        details[name] = value
    return details


class _Follow(enum.Enum):
    GATE = "the store of the gate the provider is installed on"

    def __repr__(self) -> str:
        return "GATE_STORE"


GATE_STORE: Final = _Follow.GATE
"""``store`` for a provider that queues in its gate's store: one store (one pool, one
listener) for the queue, the remembered answers and the audit, whatever chose it."""


class QueueApprovalProvider:
    """Puts each request on the store's queue and returns the approver's choice.

    ``store`` is a backend (the caller's to close), a path or URL for one (`open_store`;
    the provider closes it), or `GATE_STORE`: the store of the `ApprovalGate` it is
    installed on, given by the gate (see `use_gate_store`). ``session_id`` and ``host``
    tell the approver who is asking (defaults: the request's own session -- the
    coordinator's, which a Claude Code session sets to its own id -- else a fresh id;
    this host's name).
    """

    via: Literal["person"] = "person"

    def __init__(
        self,
        store: StoreTarget | ApprovalBackend | _Follow,
        *,
        session_id: str | None = None,
        host: str | None = None,
        workspace: str | None = None,
    ) -> None:
        self.follows_gate = store is GATE_STORE
        self._owns_backend = not self.follows_gate and not isinstance(store, ApprovalBackend)
        self._backend = None if isinstance(store, _Follow) else _open_store(store)
        self._given_session = session_id
        self.session_id = session_id or uuid.uuid4().hex[:12]
        self.host = host or socket.gethostname()
        self.workspace = workspace
        self.last_id: int | None = None
        """The id of the most recent request this provider queued (for tools and tests)."""
        self.last_seen: float | None = None
        """When (epoch seconds) this provider last saw an answer arrive (for benchmarks)."""

    @property
    def backend(self) -> ApprovalBackend:
        """The store requests are queued in; `ApprovalStoreError` (so the gate fails the
        question closed) for a `GATE_STORE` provider that no gate has been given."""
        if self._backend is None:
            raise ApprovalStoreError(
                "the queue provider has no store: it queues in its approval gate's store, "
                "and it is not installed on a gate"
            )
        return self._backend

    def use_gate_store(self, backend: ApprovalBackend) -> None:
        """Called by the gate that installs this provider: a `GATE_STORE` provider queues
        in ``backend`` from now on (which stays the gate's to close); others ignore it."""
        if not self.follows_gate:
            return
        self._backend = backend
        if backend.name == MEMORY:
            logger.warning(
                "queued approvals are in an in-process store (:memory:): no approver "
                "outside this process can see them; name a shared store "
                "(--store, $AMPLIFIER_HOOKS_STORE or session.approvals.store)"
            )

    async def aclose(self) -> None:
        """Close the store if this provider opened it (the gate calls this on close)."""
        if self._owns_backend and self._backend is not None:
            await self._backend.aclose()

    async def request_approval(self, request: ApprovalRequest) -> str:
        """Queue ``request``, wait for its answer; `ApprovalTimeout` at the deadline."""
        started = time.time()
        deadline = None if math.isinf(request.timeout) else started + request.timeout
        update: dict[str, object] = {"details": queued_details(request)}
        if not request.workspace:
            update["workspace"] = self.workspace or current_workspace()
        request = request.model_copy(update=update)
        # Not reachable now: the gate turns this error into a deny that names the store.
        # Half the question's time at most, so the failure (not the timeout) is reported.
        queueing = asyncio.ensure_future(
            self.backend.enqueue(
                request,
                session_id=self._given_session or request.session_id or self.session_id,
                host=self.host,
                deadline=deadline,
                budget=min(request.timeout / 2, SETTLE_BUDGET),
            )
        )
        try:
            ident = await asyncio.shield(queueing)
        except asyncio.CancelledError:
            # Stopped while queueing: let the insert finish, then close its row, so no
            # approver is shown a question nobody awaits.
            queued = await _shielded(queueing)
            if queued is not None:
                await _shielded(self.backend.expire(queued, budget=SETTLE_BUDGET))
                outcome = _stopped(deadline)
                await _shielded(self.backend.settle(queued, outcome, budget=SETTLE_BUDGET))
            raise
        self.last_id = ident
        logger.info("approval queued", request_id=ident, store=self.backend.name)
        try:
            return await self._wait(ident, deadline)
        except asyncio.CancelledError:
            # The gate stopped waiting (its deadline, or the agent is going away): close
            # the row so no approver answers a question nobody awaits. If an answer won
            # the race, hand it back so the gate audits it as late.
            row = await _shielded(self.backend.expire(ident, budget=SETTLE_BUDGET))
            if row is not None and row.status == "answered" and row.choice is not None:
                await _shielded(self.backend.settle(ident, "late", budget=SETTLE_BUDGET))
                return row.choice
            await _shielded(self.backend.settle(ident, _stopped(deadline), budget=SETTLE_BUDGET))
            raise

    async def _wait(self, ident: int, deadline: float | None) -> str:
        lost = False
        while True:
            left = math.inf if deadline is None else deadline - time.time()
            try:
                row = await self.backend.pending(ident, budget=max(0.0, min(left, 1.0)))
            except ApprovalStoreError as exc:
                if not exc.transient:
                    raise
                if not lost:
                    logger.warning("approval queue unreachable; still waiting", error=str(exc))
                lost, row = True, None
            else:
                if lost:
                    logger.info("approval queue reachable again", request_id=ident)
                lost = False
            if row is not None and row.status == "answered" and row.choice is not None:
                self.last_seen = time.time()
                await self._settle(ident, "applied")
                return row.choice
            if row is not None and row.status == "expired":
                await self._settle(ident, "timeout")
                raise ApprovalTimeout(f"queued request {ident} expired without an answer")
            if left <= 0:
                row = await self.backend.expire(ident, budget=SETTLE_BUDGET)
                if row is not None and row.status == "answered" and row.choice is not None:
                    await self._settle(ident, "applied")
                    return row.choice
                await self._settle(ident, "timeout")
                raise ApprovalTimeout(f"no answer to queued request {ident} before its deadline")
            await self.backend.wait_for_change(ident, left)

    async def _settle(self, ident: int, outcome: str) -> None:
        try:
            await self.backend.settle(ident, outcome, budget=SETTLE_BUDGET)
        except ApprovalStoreError as exc:  # the decision stands; only the note is missing
            logger.warning("could not record the queued request's outcome", error=str(exc))


def _stopped(deadline: float | None) -> str:
    """Why a question the gate stopped waiting for is closed: ``timeout`` at its deadline
    (the gate's own starts a moment before this provider's), else ``withdrawn``."""
    passed = deadline is not None and time.time() >= deadline - 0.5
    return "timeout" if passed else "withdrawn"


async def _shielded(work: Awaitable[T]) -> T | None:
    """Finish ``work`` even though the caller is being cancelled; None if it fails."""
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        with contextlib.suppress(BaseException):
            return await task
        return None
    except ApprovalStoreError as exc:
        logger.warning("could not close the queued request", error=str(exc))
        return None
