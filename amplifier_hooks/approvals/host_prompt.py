"""`HostApprovalProvider`: approval provider ``host`` — let the agent CLI ask its person.

When a bundle guards an agent CLI that has a permission prompt of its own (Claude Code's
``permissionDecision: "ask"``), the question can go there instead of to one of our
screens. The gate still runs (so approval events and the audit see the question), but
this provider answers nothing itself: it dismisses the question with `HOST_PROMPT` as the
reason, and the host adapter turns a deny with that reason into the host's "ask". Where
the host cannot ask (any event but a tool call), the deny stands, and the adapter says why.
Remembered answers are not used: the host keeps its own ("don't ask again").
"""

from __future__ import annotations

from amplifier_hooks.approvals.models import ApprovalDismissed, ApprovalRequest

__all__ = ["HOST_PROMPT", "HostApprovalProvider"]

HOST_PROMPT = "left to the host's own permission prompt"
"""The reason of the decision this provider leads to; adapters look for it."""


class HostApprovalProvider:
    """Defers every question to the host (see the module docstring)."""

    via = "policy"
    """Answers at once, without a person: no rate limit on its questions."""
    uses_memory = False
    """The host remembers its own answers; ours would answer before the host is asked."""

    async def request_approval(self, request: ApprovalRequest) -> str:
        raise ApprovalDismissed(HOST_PROMPT)
