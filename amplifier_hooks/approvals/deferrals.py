"""`Deferrals`: questions left to the host's own prompt, until the host reports back.

A deferral is recorded when the gate makes it (the audit's ``deferred`` row, the event
``approval:deferred``); what the person at the host's prompt then chose is not told to
us directly, but the host's next report on the same tool call says it: the call ran
(``tool:post``, ``tool:error``: allowed) or was denied (the host's ``permission_denied``
event). That report, matched by the host's tool call id, completes the record as a
decision ``via="host"``. A host that sends no id, or never reports, leaves the deferral
as it was recorded.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from amplifier_hooks import events
from amplifier_hooks.approvals.decisions import make_decision
from amplifier_hooks.approvals.models import ApprovalDecision, ApprovalDeferral, ApprovalRequest

__all__ = ["OPEN_DEFERRALS", "Deferrals"]

OPEN_DEFERRALS = 256
"""Deferrals kept waiting for the host's report, per gate; beyond, the oldest is let go
(its audit row stays, without a completion)."""

_RAN = frozenset({events.TOOL_POST, events.TOOL_ERROR})
"""Events that tell a tool call ran: whoever the host asked allowed it."""


class Deferrals:
    """The open deferrals of one gate, by the host's tool call id (oldest first)."""

    __slots__ = ("_open", "limit")

    def __init__(self, limit: int = OPEN_DEFERRALS) -> None:
        self.limit = limit
        self._open: OrderedDict[str, ApprovalRequest] = OrderedDict()

    def __bool__(self) -> bool:
        return bool(self._open)

    def __len__(self) -> int:
        return len(self._open)

    def hold(self, request: ApprovalRequest, deferral: ApprovalDeferral) -> None:
        """Wait for the host's report on ``deferral``'s tool call (if it has an id)."""
        if deferral.call_id is None:
            return
        self._open[deferral.call_id] = request
        while len(self._open) > self.limit:
            self._open.popitem(last=False)

    def completion(
        self, event: str, data: Mapping[str, Any]
    ) -> tuple[ApprovalRequest, ApprovalDecision] | None:
        """The decision ``via="host"`` that the host's report ``event`` makes of an open
        deferral (which is then closed); None when it completes none."""
        if event in _RAN:
            allowed = True
        elif event.endswith(":permission_denied"):
            allowed = False
        else:
            return None
        call_id = data.get("tool_call_id")
        request = self._open.pop(call_id, None) if isinstance(call_id, str) else None
        if request is None:
            return None
        if allowed:
            reason = f"allowed at the host's own prompt: the tool call ran ({event})"
        else:
            said = data.get("reason")
            reason = "denied at the host's own prompt" + (f": {said}" if said else "")
        return request, make_decision(request, allowed, None, "host", reason=reason)
