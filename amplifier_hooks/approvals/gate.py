"""`ApprovalGate`: turns the ask_user results of an emit into decisions.

The gate is where "a person decides" must hold even when things go wrong, so every path
that is not a clear answer ends in a deny: no provider, a provider that raises (even
``SystemExit``; only KeyboardInterrupt and the caller's own cancellation go through) or is
cancelled, an answer that is not one of the options, an option that says neither allow nor
deny, a store that cannot record the decision. Only the request's own timeout may apply an
``allow`` default, because the hook asked for exactly that.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from asyncio_throttle import Throttler  # type: ignore[attr-defined]

from amplifier_hooks import events
from amplifier_hooks.approvals.asking import Asking
from amplifier_hooks.approvals.decisions import (
    SessionMemory,
    event_payload,
    failed,
    log_decision,
    recall,
    route_question,
    via_of,
)
from amplifier_hooks.approvals.deferrals import Deferrals
from amplifier_hooks.approvals.host_prompt import HostApprovalProvider
from amplifier_hooks.approvals.models import (
    ApprovalDecision,
    ApprovalDeferral,
    ApprovalProvider,
    ApprovalRequest,
    Via,
)
from amplifier_hooks.approvals.open_questions import OpenQuestions
from amplifier_hooks.approvals.provider_slot import ProviderSlot
from amplifier_hooks.approvals.redact import Scrub, shown_request
from amplifier_hooks.approvals.requests import build_request, current_workspace, ttl_of
from amplifier_hooks.approvals.store import (
    DEFAULT_BUDGET,
    ApprovalBackend,
    ApprovalStoreError,
    StoreTarget,
    open_store,
)
from amplifier_hooks.engine.resolution import ApprovalAsk
from amplifier_hooks.logs import get_logger

if TYPE_CHECKING:
    from amplifier_hooks.engine.registry import HookRegistry

__all__ = ["NO_PROVIDER", "Announce", "Answer", "ApprovalGate"]

logger = get_logger()

NO_PROVIDER = "no approval provider is configured, so the request was denied"

Announce = Callable[[str, dict[str, Any]], Awaitable[Any]]
"""Sends an approval event (name, payload) to whoever listens; what it returns is ignored."""

Answer = ApprovalDecision | ApprovalDeferral
"""What the gate makes of one ask_user: a decision, or the question left to the host."""


class ApprovalGate:
    """Asks a provider (or the memory) about each ask_user, and records the answer.

    ``store`` is an `ApprovalBackend`, a path or a ``postgresql://`` URL (None for
    ``$AMPLIFIER_HOOKS_STORE`` or the user's state directory). ``announce`` (else
    ``registry.emit``) receives the approval:* events (a `Coordinator` sets its own
    dispatch, so observers see them like any other); what comes back is ignored. At most
    ``max_prompts`` new questions reach a person per ``per_seconds``. ``workspace`` is what
    "always" answers are scoped to when the event does not name one (default: the current
    directory). Store calls retry for up to ``store_budget`` seconds (no longer than the
    question's own timeout) before failing the question closed. The gate closes a store
    it opened; ``own_store`` overrides that (True: close the backend given too).

    ``provider`` may be replaced at any time (a bundle reload does). A provider with a
    ``use_gate_store(backend)`` method is handed this gate's backend when it is installed,
    so a queue provider made without a store of its own queues where the gate remembers
    and audits. A replaced provider is closed (its ``aclose``, if any) once the questions
    it is still answering are over, or at `aclose` at the latest (`ProviderSlot`).

    A provider with ``uses_memory = False`` (the fixed allow/deny modes) is neither
    answered from remembered decisions nor remembered: what it says is what applies.
    """

    def __init__(
        self,
        provider: ApprovalProvider | None,
        store: StoreTarget = ":memory:",
        *,
        registry: HookRegistry | None = None,
        max_prompts: int = 5,
        per_seconds: float = 1.0,
        workspace: str | None = None,
        store_budget: float = DEFAULT_BUDGET,
        own_store: bool | None = None,
        announce: Announce | None = None,
    ) -> None:
        if max_prompts < 1 or not per_seconds > 0:
            raise ValueError("max_prompts must be >= 1 and per_seconds > 0")
        self._owns_store = (
            not isinstance(store, ApprovalBackend) if own_store is None else own_store
        )
        self.backend: ApprovalBackend = open_store(store)
        self._providers = ProviderSlot(self.backend)
        self.provider = provider
        self.registry = registry
        self.announce = announce
        self.workspace = current_workspace() if workspace is None else workspace
        self.store_budget = store_budget
        self._throttle = Throttler(rate_limit=max_prompts, period=per_seconds)
        self._session: SessionMemory = {}
        self._open = OpenQuestions()
        self._asking = Asking(self._providers, self._open, self._audit)
        self.deferred = Deferrals()
        """Questions left to the host, until it reports on their tool calls."""
        self.scrubber: Callable[[], Scrub | None] = lambda: None
        """Where the bundle's scrubber is found (a `Coordinator` looks up ah-redaction's
        capability at each question, since modules mount after the gate is made)."""

    def scrub(self) -> Scrub | None:
        """The bundle's scrubber now, if it has one that is callable."""
        found = self.scrubber()
        return found if callable(found) else None

    @property
    def provider(self) -> ApprovalProvider | None:
        """Who answers what memory does not (None: nobody, so such questions are denied).
        Assigning another closes this one once its open questions are over."""
        return self._providers.current

    @provider.setter
    def provider(self, provider: ApprovalProvider | None) -> None:
        self._providers.install(provider)

    async def wait_retired(self) -> None:
        """Wait until every replaced provider has finished its questions and is closed."""
        await self._providers.wait_retired()

    @property
    def provider_via(self) -> Via:
        """Who answers for this gate's provider: a person unless it says it is a policy."""
        return via_of(self.provider)

    @property
    def uses_memory(self) -> bool:
        """False when the provider says remembered decisions must not apply."""
        return getattr(self.provider, "uses_memory", True) is not False

    def forget_session(self) -> None:
        """Drop the answers remembered "for this session"."""
        self._session.clear()

    def close(self) -> None:
        """Close the store if the gate opened it (a store passed in stays the caller's).
        Synchronous, for SQLite; a PostgreSQL pool closes in `aclose`."""
        for task in list(self._asking.background):
            task.cancel()
        if self._owns_store:
            self.backend.close()

    async def aclose(self) -> None:
        """Withdraw the questions still open (their providers stop asking: a queued row is
        closed, so no approver answers it), finish late-answer bookkeeping (briefly), then
        close every provider the gate has held (a provider's ``aclose``, if it has one:
        replaced ones, then the current one) and an owned store."""
        if self._open.count:
            self._open.withdrawing = True
            self._providers.withdraw()
            await self._open.settled()
        if self._asking.background:
            await asyncio.wait(list(self._asking.background), timeout=1.0)
        for task in list(self._asking.background):
            task.cancel()
        await self._providers.aclose()
        if self._owns_store:
            await self.backend.aclose()

    async def drain(self) -> None:
        """Wait until every late answer and background audit has been written."""
        while self._asking.background:
            await asyncio.gather(*list(self._asking.background), return_exceptions=True)

    # -- deciding ----------------------------------------------------------------------

    async def decide_all(
        self, asks: Sequence[ApprovalAsk], event: str, data: dict[str, Any]
    ) -> list[Answer]:
        """Answer each ask in order; a deny or a deferral ends it (later ones are not
        asked: a deferral's host asks about the whole call)."""
        answers: list[Answer] = []
        for ask in asks:
            answer = await self.decide(ask, event, data)
            answers.append(answer)
            if isinstance(answer, ApprovalDeferral) or not answer.allowed:
                break
        return answers

    async def decide(self, ask: ApprovalAsk, event: str, data: dict[str, Any]) -> Answer:
        """Answer one ask_user: a decision, or an `ApprovalDeferral` when the provider
        leaves it to the host. Never raises, except for the caller's own cancellation and
        KeyboardInterrupt."""
        with self._open.one():  # `aclose` withdraws it if it is still open then
            return await self._decide(ask, event, data)

    async def _decide(self, ask: ApprovalAsk, event: str, data: dict[str, Any]) -> Answer:
        try:
            request = build_request(ask, event, data, workspace=self.workspace)
            request = shown_request(request, ask, event, data, self.workspace, self.scrub())
        except ValueError as exc:
            # The resolver validated the ask, so this is defensive: still a clear deny.
            request = ApprovalRequest(prompt=ask.prompt or "?", event=event, source=ask.source)
            return await self._finish(request, failed(request, f"invalid request: {exc}"))
        if self.uses_memory:
            remembered = await recall(self.backend, self._session, request, self._budget(request))
            if remembered is not None:
                return await self._finish(request, remembered)
        installed = self.provider
        if installed is None:
            return await self._finish(request, failed(request, NO_PROVIDER))
        answering = await route_question(installed, request, self._budget(request))
        if isinstance(answering, ApprovalDecision):
            return await self._finish(request, answering)
        if isinstance(answering, HostApprovalProvider):
            await self._emit(events.APPROVAL_REQUIRED, request, None)
            call_id = data.get("tool_call_id")
            deferral = answering.defer(request, call_id if isinstance(call_id, str) else None)
            return await self._defer(request, deferral)
        via = via_of(answering)
        if via == "person":
            # Bounded rate of new prompts: a runaway loop queues here instead of flooding
            # the person's screen.
            async with self._throttle:
                pass
        await self._emit(events.APPROVAL_REQUIRED, request, None)
        decision = await self._asking.ask(installed, request, via, answering)
        return await self._finish(request, decision, ttl=ttl_of(ask))

    def _budget(self, request: ApprovalRequest) -> float:
        return min(self.store_budget, request.timeout)

    async def _finish(
        self, request: ApprovalRequest, decision: ApprovalDecision, *, ttl: float | None = None
    ) -> ApprovalDecision:
        """Remember (if the option asked for it and a person chose it), audit, announce."""
        keep = decision.via == "person" and decision.scope != "once" and self.uses_memory
        if keep and decision.scope == "always":
            stored = decision.model_copy(update={"remembered": True})
            try:
                await self.backend.remember(request, stored, ttl=ttl, budget=self.store_budget)
                decision = stored
            except ApprovalStoreError as exc:
                decision = await self._audit(request, failed(request, str(exc)))
        else:
            decision = await self._audit(request, decision)
            if keep and decision.scope == "session" and decision.via == "person":
                # Only an answer that made it into the audit trail is remembered.
                self._session[(request.remember_scope, request.key)] = (
                    decision.allowed,
                    decision.choice,
                )
                decision = decision.model_copy(update={"remembered": True})
        log_decision(request, decision)
        name = events.APPROVAL_GRANTED if decision.allowed else events.APPROVAL_DENIED
        await self._emit(name, request, decision)
        return decision

    async def _defer(self, request: ApprovalRequest, deferral: ApprovalDeferral) -> Answer:
        """Audit the question as the host's, announce approval:deferred, and wait for the
        host's report of the tool call (`host_reported`). A deferral that cannot be
        audited is a deny: the record of who owns the question must exist."""
        try:
            await self.backend.audit(request, deferral, budget=self.store_budget)
        except ApprovalStoreError as exc:
            logger.error("approval audit failed", source=request.source, error=str(exc))
            return await self._finish(request, failed(request, str(exc)))
        log_decision(request, deferral)
        self.deferred.hold(request, deferral)
        await self._emit(events.APPROVAL_DEFERRED, request, deferral)
        return deferral

    async def host_reported(self, event: str, data: Mapping[str, Any]) -> ApprovalDecision | None:
        """Complete a deferral from the host's report on its tool call (`Deferrals`): the
        decision ``via="host"``, audited and announced; None if ``event`` completes none."""
        found = self.deferred.completion(event, data)
        return None if found is None else await self._finish(*found)

    async def _audit(
        self, request: ApprovalRequest, decision: ApprovalDecision
    ) -> ApprovalDecision:
        """Write the audit row; a decision that cannot be audited becomes a deny."""
        try:
            await self.backend.audit(request, decision, budget=self.store_budget)
        except ApprovalStoreError as exc:
            logger.error("approval audit failed", source=request.source, error=str(exc))
            if decision.allowed or decision.via != "error":
                return failed(request, str(exc))
        return decision

    async def _emit(self, event: str, request: ApprovalRequest, answer: Answer | None) -> None:
        send = self.announce
        if send is None:
            if self.registry is None:
                return
            send = self.registry.emit
        try:
            await send(event, event_payload(request, answer))
        except Exception as exc:  # an observer must never break a decision
            logger.warning("approval event handlers failed", hook_event=event, error=repr(exc))
