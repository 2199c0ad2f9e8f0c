"""The approval provider a reference-style approval module is given.

Such a module offers the ``approval.register_provider`` capability and, inside its
``tool:pre`` handler, awaits ``provider.request_approval(request)``. `GateApprovalProvider`
is what it receives: each request goes through this coordinator's `ApprovalGate`, so it
meets the same remembered decisions, rate limit, audit, providers (Textual, console,
policy) and fail-closed rules as an ``ask_user`` result, and the answer comes back in the
reference's response shape.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from amplifier_hooks.amplifier.models import AmplifierApprovalResponse
from amplifier_hooks.approvals.models import ApprovalDecision, ApprovalDeferral
from amplifier_hooks.engine.resolution import ApprovalAsk
from amplifier_hooks.engine.result import HookResult
from amplifier_hooks.logs import get_logger

if TYPE_CHECKING:
    from amplifier_hooks.session.coordinator import Coordinator

logger = get_logger()

BRIDGE_OPTIONS = ("Allow once", "Allow for this session", "Allow always", "Deny")
"""The choices a person is offered for a reference-style request (the reference's
requests carry no options of their own)."""

DEFAULT_EVENT = "tool:pre"
"""The event a request is filed under when it is not asked during a dispatch."""

_DEFAULT_TIMEOUT = HookResult.model_fields["approval_timeout"].default


class GateApprovalProvider:
    """``request_approval(request) -> response``, answered by a coordinator's gate."""

    def __init__(self, coordinator: Coordinator, *, source: str) -> None:
        self._coordinator = coordinator
        self.source = source
        """The module that asks (shown to the person, and part of the memory key)."""

    async def request_approval(self, request: Any) -> Any:
        """Ask the gate; never raises for a bad request or a failing provider (those are
        denies, as the gate decides them), only for the caller's own cancellation."""
        fields = _fields(request)
        tool = str(fields.get("tool_name") or "unknown")
        action = str(fields.get("action") or f"Run {tool}")
        risk = fields.get("risk_level")
        timeout = fields.get("timeout")
        if not (isinstance(timeout, int | float) and not isinstance(timeout, bool) and timeout > 0):
            timeout = _DEFAULT_TIMEOUT
        details = fields.get("details")
        ask = ApprovalAsk(
            source=self.source,
            prompt=action if risk is None else f"{action} (risk: {risk})",
            options=list(BRIDGE_OPTIONS),
            timeout=float(timeout),
            default="deny",
            reason=f"{self.source} asks before {tool} runs",
        )
        data: dict[str, Any] = {
            "tool_name": tool,
            "tool_input": dict(details) if isinstance(details, Mapping) else {},
        }
        if risk is not None:
            data["risk_level"] = str(risk)
        event = self._coordinator.dispatching() or DEFAULT_EVENT
        decision = await self._coordinator.approvals.decide(ask, event, data)
        return _response(request, decision)


def _fields(request: Any) -> dict[str, Any]:
    if isinstance(request, Mapping):
        return dict(request)
    dump = getattr(request, "model_dump", None)
    if callable(dump):
        try:
            dumped = dump()
            if isinstance(dumped, Mapping):
                return dict(dumped)
        except Exception as exc:  # a broken foreign model still gets an answer: deny below
            logger.warning("approval request could not be read", error=str(exc))
    names = ("tool_name", "action", "details", "risk_level", "timeout")
    return {name: getattr(request, name, None) for name in names}


def _response(request: Any, decision: ApprovalDecision | ApprovalDeferral) -> Any:
    """The decision in the response class the module knows: the one defined beside the
    request's class (a real ``amplifier_core``'s), else this project's equivalent. A
    question left to the host is not approved: the module's own call cannot wait for the
    host's prompt, so it fails closed."""
    if isinstance(decision, ApprovalDeferral):
        values: dict[str, Any] = {"approved": False, "reason": decision.reason, "remember": False}
    else:
        reason = decision.reason or (
            f"{decision.choice} ({decision.via})" if decision.choice else decision.via
        )
        values = {
            "approved": decision.allowed,
            "reason": reason,
            "remember": decision.remembered or decision.via == "remembered",
        }
    home = sys.modules.get(type(request).__module__)
    foreign = getattr(home, "ApprovalResponse", None)
    if isinstance(foreign, type) and foreign is not AmplifierApprovalResponse:
        try:
            return foreign(**values)
        except Exception as exc:  # an unexpected shape: answer in ours rather than fail open
            logger.warning(
                "approval response class rejected the answer; using amplifier_hooks'",
                cls=f"{foreign.__module__}.{foreign.__qualname__}",
                error=str(exc),
            )
    return AmplifierApprovalResponse(**values)
