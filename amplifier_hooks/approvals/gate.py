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
import math
import os
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import structlog
from asyncio_throttle import Throttler  # type: ignore[attr-defined]

from amplifier_hooks import events
from amplifier_hooks.approvals.models import (
    ApprovalDecision,
    ApprovalDismissed,
    ApprovalProvider,
    ApprovalRequest,
    ApprovalTimeout,
    Scope,
    Via,
    classify_option,
    memory_key,
    read_option,
    summarize,
)
from amplifier_hooks.approvals.store import ApprovalStore, ApprovalStoreError
from amplifier_hooks.kit.toolcalls import extract_fields
from amplifier_hooks.resolver import AskUser

if TYPE_CHECKING:
    from amplifier_hooks.registry import HookRegistry

logger = structlog.get_logger("amplifier_hooks")

NO_PROVIDER = "no approval provider is configured, so the request was denied"


def build_request(ask: AskUser, event: str, data: Mapping[str, Any]) -> ApprovalRequest:
    """The `ApprovalRequest` for one ask_user result of ``event``.

    The ask's own ``data`` may carry ``approval_key`` (an explicit memory key); the details
    shown are drawn from the event data, with the ask's data filling any gaps.
    """
    extra = ask.data or {}
    merged = {**extra, **data}
    return ApprovalRequest(
        prompt=ask.prompt,
        options=list(ask.options),
        timeout=ask.timeout,
        default=ask.default,
        event=event,
        source=ask.source,
        reason=ask.reason,
        details=summarize(merged),
        key=memory_key(ask.source, ask.prompt, list(ask.options), extra.get("approval_key")),
        raw=extract_fields(merged),
    )


def _ttl(ask: AskUser) -> float | None:
    value = (ask.data or {}).get("approval_ttl")
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value)
    return None


class ApprovalGate:
    """Asks a provider (or the memory) about each ask_user, and records the answer.

    ``store`` is an `ApprovalStore` or a path for one (``":memory:"`` by default; None for
    the user's state directory). ``registry`` receives approval:required /
    approval:granted / approval:denied; what its handlers return is ignored. At most
    ``max_prompts`` new questions reach a person per ``per_seconds``.
    """

    def __init__(
        self,
        provider: ApprovalProvider | None,
        store: ApprovalStore | str | os.PathLike[str] | None = ":memory:",
        *,
        registry: HookRegistry | None = None,
        max_prompts: int = 5,
        per_seconds: float = 1.0,
    ) -> None:
        if max_prompts < 1 or not per_seconds > 0:
            raise ValueError("max_prompts must be >= 1 and per_seconds > 0")
        self.provider = provider
        self._owns_store = not isinstance(store, ApprovalStore)
        self.store = store if isinstance(store, ApprovalStore) else ApprovalStore(store)
        self.registry = registry
        self._throttle = Throttler(rate_limit=max_prompts, period=per_seconds)
        self._session: dict[str, tuple[bool, str | None]] = {}

    @property
    def provider_via(self) -> Via:
        """Who answers for this gate's provider: a person unless it says it is a policy."""
        return "policy" if getattr(self.provider, "via", "person") == "policy" else "person"

    def forget_session(self) -> None:
        """Drop the answers remembered "for this session"."""
        self._session.clear()

    def close(self) -> None:
        """Close the store if the gate opened it (a store passed in stays the caller's)."""
        if self._owns_store:
            self.store.close()

    # -- deciding ----------------------------------------------------------------------

    async def decide_all(
        self, asks: Sequence[AskUser], event: str, data: dict[str, Any]
    ) -> list[ApprovalDecision]:
        """Decide each ask in order; the first deny ends it (later ones are not asked)."""
        decisions: list[ApprovalDecision] = []
        for ask in asks:
            decision = await self.decide(ask, event, data)
            decisions.append(decision)
            if not decision.allowed:
                break
        return decisions

    async def decide(self, ask: AskUser, event: str, data: dict[str, Any]) -> ApprovalDecision:
        """Decide one ask_user. Never raises, except for the caller's own cancellation and
        KeyboardInterrupt."""
        try:
            request = build_request(ask, event, data)
        except ValueError as exc:
            # The resolver validated the ask, so this is defensive: still a clear deny.
            request = ApprovalRequest(prompt=ask.prompt or "?", event=event, source=ask.source)
            return await self._finish(request, self._error(request, f"invalid request: {exc}"))
        remembered = self._recall(request)
        if remembered is not None:
            return await self._finish(request, remembered)
        if self.provider is None:
            return await self._finish(request, self._error(request, NO_PROVIDER))
        via = self.provider_via
        if via == "person":
            # Bounded rate of new prompts: a runaway loop queues here instead of flooding
            # the person's screen.
            async with self._throttle:
                pass
        await self._emit(events.APPROVAL_REQUIRED, request, None)
        decision = await self._ask(self.provider, request, via)
        return await self._finish(request, decision, ttl=_ttl(ask))

    def _recall(self, request: ApprovalRequest) -> ApprovalDecision | None:
        session = self._session.get(request.key)
        if session is not None:
            allowed, choice = session
            return self._decision(
                request, allowed, choice, "remembered", reason="remembered for this session"
            )
        try:
            stored = self.store.lookup(request.key)
        except ApprovalStoreError as exc:
            return self._error(request, str(exc))
        if stored is None:
            return None
        return self._decision(
            request,
            stored.allowed,
            stored.choice,
            "remembered",
            reason=f"remembered answer {stored.choice!r} of {stored.created_at:%Y-%m-%d %H:%M} UTC",
        )

    async def _ask(
        self, provider: ApprovalProvider, request: ApprovalRequest, via: Via
    ) -> ApprovalDecision:
        task = asyncio.current_task()
        cancelling = task.cancelling() if task is not None else 0
        try:
            limit = None if math.isinf(request.timeout) else request.timeout
            async with asyncio.timeout(limit) as window:
                answer = await provider.request_approval(request)
        except ApprovalTimeout:
            return self._timed_out(request)
        except TimeoutError as exc:
            if window.expired():
                return self._timed_out(request)
            return self._error(request, f"approval provider failed: {exc!r}")
        except ApprovalDismissed as exc:
            why = str(exc) or "the question was dismissed without an answer"
            return self._decision(request, False, None, via, reason=why)
        except asyncio.CancelledError:
            if task is not None and task.cancelling() > cancelling:
                # Our caller is being cancelled: record why nothing was decided, then let
                # the cancellation through (it must never be swallowed).
                self._audit(request, self._error(request, "cancelled while waiting for approval"))
                raise
            return self._error(request, "the approval request was cancelled")
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            # SystemExit, GeneratorExit or any other escape from a provider is a failed
            # provider like any exception: deny, and keep the agent running.
            logger.error(
                "approval provider failed",
                source=request.source,
                hook_event=request.event,
                error=repr(exc),
            )
            return self._error(request, f"approval provider failed: {exc!r}")
        if not isinstance(answer, str) or answer not in request.options:
            return self._error(
                request, f"answer {answer!r} is not one of the options {request.options}"
            )
        meaning = classify_option(answer)
        words = read_option(answer)
        if words.mixed and words.asked_scope != meaning.scope:
            logger.warning(
                "approval option has both allow and deny words; not remembered",
                source=request.source,
                hook_event=request.event,
                option=answer,
                asked_scope=words.asked_scope,
            )
        if meaning.verdict is None:
            return self._error(request, f"option {answer!r} says neither allow nor deny")
        verdict = "allowed" if meaning.verdict == "allow" else "denied"
        who = "by policy" if via == "policy" else "by the user"
        return self._decision(
            request,
            meaning.verdict == "allow",
            answer,
            via,
            scope=meaning.scope,
            reason=f"{verdict} {who} ({answer})",
        )

    def _timed_out(self, request: ApprovalRequest) -> ApprovalDecision:
        return self._decision(
            request,
            request.default == "allow",
            None,
            "timeout",
            reason=f"no answer within {request.timeout:g}s; the default is {request.default}",
        )

    async def _finish(
        self, request: ApprovalRequest, decision: ApprovalDecision, *, ttl: float | None = None
    ) -> ApprovalDecision:
        """Remember (if the option asked for it and a person chose it), audit, announce."""
        keep = decision.via == "person" and decision.scope != "once"
        if keep and decision.scope == "always":
            stored = decision.model_copy(update={"remembered": True})
            try:
                self.store.remember(request, stored, ttl=ttl)
                decision = stored
            except ApprovalStoreError as exc:
                decision = self._error(request, str(exc))
                self._audit(request, decision)
        else:
            decision = self._audit(request, decision)
            if keep and decision.scope == "session" and decision.via == "person":
                # Only an answer that made it into the audit trail is remembered.
                self._session[request.key] = (decision.allowed, decision.choice)
                decision = decision.model_copy(update={"remembered": True})
        logger.info(
            "approval decided",
            source=request.source,
            hook_event=request.event,
            allowed=decision.allowed,
            via=decision.via,
            choice=decision.choice,
            remembered=decision.remembered,
        )
        name = events.APPROVAL_GRANTED if decision.allowed else events.APPROVAL_DENIED
        await self._emit(name, request, decision)
        return decision

    def _audit(self, request: ApprovalRequest, decision: ApprovalDecision) -> ApprovalDecision:
        """Write the audit row; a decision that cannot be audited becomes a deny."""
        try:
            self.store.audit(request, decision)
        except ApprovalStoreError as exc:
            logger.error("approval audit failed", source=request.source, error=str(exc))
            if decision.allowed or decision.via != "error":
                return self._error(request, str(exc))
        return decision

    async def _emit(
        self, event: str, request: ApprovalRequest, decision: ApprovalDecision | None
    ) -> None:
        if self.registry is None:
            return
        payload: dict[str, Any] = {
            "source": request.source,
            "prompt": request.prompt,
            "event": request.event,
            "request": request.model_dump(mode="json"),
        }
        if decision is not None:
            payload["decision"] = decision.model_dump(mode="json")
        try:
            await self.registry.emit(event, payload)
        except Exception as exc:  # an observer must never break a decision
            logger.warning("approval event handlers failed", hook_event=event, error=repr(exc))

    # -- building decisions --------------------------------------------------------------

    @staticmethod
    def _decision(
        request: ApprovalRequest,
        allowed: bool,
        choice: str | None,
        via: Via,
        *,
        scope: Scope = "once",
        reason: str | None = None,
    ) -> ApprovalDecision:
        return ApprovalDecision(
            allowed=allowed,
            choice=choice,
            via=via,
            scope=scope,
            reason=reason,
            source=request.source,
            prompt=request.prompt,
            event=request.event,
            key=request.key,
            at=datetime.now(UTC),
        )

    def _error(self, request: ApprovalRequest, why: str) -> ApprovalDecision:
        return self._decision(request, False, None, "error", reason=f"{why}; denied (fail closed)")
