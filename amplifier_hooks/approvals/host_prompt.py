"""`HostApprovalProvider`: approval provider ``host`` -- let the agent CLI ask its person.

When a bundle guards an agent CLI that has a permission prompt of its own (Claude Code's
``permissionDecision: "ask"``), the question can go there instead of to one of our
screens. The gate still runs (so approval events and the audit see the question), but
this provider answers nothing itself: its `defer` gives the gate an `ApprovalDeferral`,
which the gate records (event ``approval:deferred``, the host as the question's owner)
and the host adapter turns into the host's "ask". Where the host cannot ask (any event
but a tool call, or a host with no prompt), it is a deny that says where a person can
answer. Remembered answers are not used: the host keeps its own ("don't ask again").
"""

from __future__ import annotations

from amplifier_hooks.approvals.models import (
    ApprovalDeferral,
    ApprovalDismissed,
    ApprovalRequest,
    answer_fields,
)

__all__ = ["HOST_PROMPT", "HostApprovalProvider"]

HOST_PROMPT = "left to the host's own permission prompt"
"""The reason of the deferral this provider makes (for people: adapters read the value)."""


class HostApprovalProvider:
    """Defers every question to the host (see the module docstring)."""

    via = "policy"
    """Answers at once, without a person: no rate limit on its questions."""
    uses_memory = False
    """The host remembers its own answers; ours would answer before the host is asked."""

    def defer(self, request: ApprovalRequest, call_id: str | None = None) -> ApprovalDeferral:
        """The gate's value for ``request``: the host owns it (``call_id``: the host's id
        of the tool call, which its later report carries)."""
        return ApprovalDeferral(reason=HOST_PROMPT, call_id=call_id, **answer_fields(request))

    async def request_approval(self, request: ApprovalRequest) -> str:
        """For a caller that cannot defer (not the gate): nobody here can answer, so the
        question fails closed, with the reason."""
        raise ApprovalDismissed(HOST_PROMPT)
