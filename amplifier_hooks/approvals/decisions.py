"""From a provider's answer (or its absence) to an `ApprovalDecision`.

The pure half of the gate: how an answer's words become a decision, what a timeout or a
failure decides, and how a provider is called inside a task of its own without letting a
``SystemExit`` stop the event loop.
"""

from __future__ import annotations

import asyncio
from typing import Any

from amplifier_hooks.approvals.models import (
    ApprovalDecision,
    ApprovalDeferral,
    ApprovalProvider,
    ApprovalRequest,
    Scope,
    Via,
    answer_fields,
    classify_option,
    read_option,
)
from amplifier_hooks.approvals.store import ApprovalBackend, ApprovalStoreError
from amplifier_hooks.logs import get_logger

logger = get_logger()


class ProviderEscape(Exception):
    """Carries a SystemExit (or other BaseException) out of the provider's task: raised
    as itself inside a task it would stop the event loop, not just fail the question."""

    def __init__(self, original: BaseException) -> None:
        super().__init__(repr(original))
        self.original = original


async def call_provider(provider: ApprovalProvider, request: ApprovalRequest) -> str:
    """Ask ``provider``, turning SystemExit and KeyboardInterrupt into `ProviderEscape`."""
    try:
        return await provider.request_approval(request)
    except (KeyboardInterrupt, SystemExit) as exc:  # the gate re-raises KeyboardInterrupt
        raise ProviderEscape(exc) from exc


def via_of(provider: object) -> Via:
    """Who answers for ``provider``: a person unless it says it is a policy."""
    return "policy" if getattr(provider, "via", "person") == "policy" else "person"


async def route_question(
    provider: ApprovalProvider, request: ApprovalRequest, budget: float
) -> ApprovalProvider | ApprovalDecision:
    """The provider that answers ``request``: ``provider`` itself, or the one its
    ``route(request)`` picks (provider ``auto``) within ``budget`` seconds; a routing that
    fails or takes longer is a deny (fail closed)."""
    route = getattr(provider, "route", None)
    if not callable(route):
        return provider
    try:
        chosen: ApprovalProvider = await asyncio.wait_for(route(request), budget)
    except TimeoutError:
        return failed(request, "the approval provider could not choose who answers in time")
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        return provider_failed(request, exc)
    return chosen


SessionMemory = dict[tuple[str, str], tuple[bool, str | None]]
"""Answers remembered "for this session": (remember scope, key) -> (allowed, choice)."""


async def recall(
    backend: ApprovalBackend, session: SessionMemory, request: ApprovalRequest, budget: float
) -> ApprovalDecision | None:
    """The remembered answer to ``request`` (this session's first, then the store's),
    None if there is none; a store that cannot be read is a deny (fail closed)."""
    remembered = session.get((request.remember_scope, request.key))
    if remembered is not None:
        allowed, choice = remembered
        return make_decision(
            request, allowed, choice, "remembered", reason="remembered for this session"
        )
    try:
        stored = await backend.lookup(request.key, request.remember_scope or "*", budget=budget)
    except ApprovalStoreError as exc:
        return failed(request, str(exc))
    if stored is None:
        return None
    where = "every workspace" if stored.workspace == "*" else stored.workspace
    return make_decision(
        request,
        stored.allowed,
        stored.choice,
        "remembered",
        reason=f"remembered answer {stored.choice!r} of {stored.created_at:%Y-%m-%d %H:%M} "
        f"UTC (for {where})",
    )


def make_decision(
    request: ApprovalRequest,
    allowed: bool,
    choice: str | None,
    via: Via,
    *,
    scope: Scope = "once",
    reason: str | None = None,
) -> ApprovalDecision:
    """An `ApprovalDecision` about ``request``, stamped now."""
    return ApprovalDecision(
        allowed=allowed,
        choice=choice,
        via=via,
        scope=scope,
        reason=reason,
        **answer_fields(request),
    )


def failed(request: ApprovalRequest, why: str) -> ApprovalDecision:
    """A deny for a request that could not be decided properly (fail closed)."""
    return make_decision(request, False, None, "error", reason=f"{why}; denied (fail closed)")


def provider_failed(request: ApprovalRequest, exc: BaseException) -> ApprovalDecision:
    """The deny for a provider that raised: SystemExit, GeneratorExit or any other escape
    from a provider is a failed provider like any exception, and the agent keeps running."""
    logger.error(
        "approval provider failed",
        source=request.source,
        hook_event=request.event,
        error=repr(exc),
    )
    return failed(request, f"approval provider failed: {exc!r}")


def timed_out(request: ApprovalRequest) -> ApprovalDecision:
    """No answer in time: the request's default decides."""
    return make_decision(
        request,
        request.default == "allow",
        None,
        "timeout",
        reason=f"no answer within {request.timeout:g}s; the default is {request.default}",
    )


def read_answer(request: ApprovalRequest, answer: object, via: Via) -> ApprovalDecision:
    """The decision an answer means: its option's words, or a deny if it is not one."""
    if not isinstance(answer, str) or answer not in request.options:
        return failed(request, f"answer {answer!r} is not one of the options {request.options}")
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
    if meaning.decision is None:
        return failed(request, f"option {answer!r} says neither allow nor deny")
    allowed = meaning.decision == "allow"
    who = "by policy" if via == "policy" else "by the user"
    reason = f"{'allowed' if allowed else 'denied'} {who} ({answer})"
    if not allowed and request.reason:
        # What the agent is told (a Claude Code model reads it): why it was asked, too.
        reason += f": {request.reason}"
    return make_decision(request, allowed, answer, via, scope=meaning.scope, reason=reason)


def late_answer(request: ApprovalRequest, answer: object) -> ApprovalDecision:
    """The audit row of an answer that came after the gate stopped waiting: not applied.
    Its via is "late", not one of the decision kinds, because this answer decided nothing."""
    late = make_decision(
        request,
        False,
        answer if isinstance(answer, str) else None,
        "error",
        reason=f"late answer {answer!r} after the deadline; not applied",
    )
    return late.model_copy(update={"via": "late"})


def event_payload(
    request: ApprovalRequest, answer: ApprovalDecision | ApprovalDeferral | None
) -> dict[str, Any]:
    """The data of an approval:required / granted / denied event (with its
    ``decision``) or of approval:deferred (with its ``deferral``)."""
    payload: dict[str, Any] = {
        "source": request.source,
        "prompt": request.prompt,
        "event": request.event,
        "request": request.model_dump(mode="json"),
    }
    if isinstance(answer, ApprovalDeferral):
        payload["deferral"] = answer.model_dump(mode="json")
    elif answer is not None:
        payload["decision"] = answer.model_dump(mode="json")
    return payload


def log_decision(request: ApprovalRequest, answer: ApprovalDecision | ApprovalDeferral) -> None:
    """One log record per answer the gate makes (never its details: they may hold
    secrets the redaction has not seen)."""
    if isinstance(answer, ApprovalDeferral):
        logger.info(
            "approval deferred", source=request.source, hook_event=request.event, owner=answer.owner
        )
        return
    logger.info(
        "approval decided",
        source=request.source,
        hook_event=request.event,
        allowed=answer.allowed,
        via=answer.via,
        choice=answer.choice,
        remembered=answer.remembered,
    )
