"""`HostApprovalProvider`: approval provider ``host`` — let the agent CLI ask its person.

When a bundle guards an agent CLI that has a permission prompt of its own (Claude Code's
``permissionDecision: "ask"``), the question can go there instead of to one of our
screens. The gate still runs (so approval events and the audit see the question), but
this provider answers nothing itself: it raises `ApprovalLeftToHost`, the gate records a
decision ``via="host"``, and the host adapter turns that typed decision into the host's
"ask". Where the host cannot ask (any event but a tool call, or a host with no prompt),
it is a deny that says where a person can answer. Remembered answers are not used: the
host keeps its own ("don't ask again").
"""

from __future__ import annotations

from amplifier_hooks.approvals.models import ApprovalLeftToHost, ApprovalRequest

__all__ = ["HOST_PROMPT", "HostApprovalProvider"]

HOST_PROMPT = "left to the host's own permission prompt"
"""The reason of the decision this provider leads to (for people: adapters read the
decision's ``via``)."""


class HostApprovalProvider:
    """Defers every question to the host (see the module docstring)."""

    via = "policy"
    """Answers at once, without a person: no rate limit on its questions."""
    uses_memory = False
    """The host remembers its own answers; ours would answer before the host is asked."""

    async def request_approval(self, request: ApprovalRequest) -> str:
        raise ApprovalLeftToHost(HOST_PROMPT)
