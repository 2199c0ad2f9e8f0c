"""From a provider's answer (or its absence) to an `ApprovalDecision`.

The pure half of the gate: how an answer's words become a verdict, what a timeout or a
failure decides, and how a provider is called inside a task of its own without letting a
``SystemExit`` stop the event loop.
"""

from __future__ import annotations

from datetime import UTC, datetime

from amplifier_hooks.approvals.models import (
    ApprovalDecision,
    ApprovalProvider,
    ApprovalRequest,
    Scope,
    Via,
    classify_option,
    read_option,
)
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
        source=request.source,
        prompt=request.prompt,
        event=request.event,
        key=request.key,
        at=datetime.now(UTC),
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
    if meaning.verdict is None:
        return failed(request, f"option {answer!r} says neither allow nor deny")
    allowed = meaning.verdict == "allow"
    who = "by policy" if via == "policy" else "by the user"
    reason = f"{'allowed' if allowed else 'denied'} {who} ({answer})"
    if not allowed and request.reason:
        # What the agent is told (a Claude Code model reads it): why it was asked, too.
        reason += f": {request.reason}"
    return make_decision(request, allowed, answer, via, scope=meaning.scope, reason=reason)
