"""Asking the person through the MCP client itself: elicitation.

A proxy runs as a child of its client, on the client's pipes: there is no terminal to ask
on. A client that takes elicitations (its ``initialize`` says so) shows the question in
its own window, so the approval gate's ``auto`` provider routes there (`HostAsking.asker`),
with the gate's timeouts, defaults, memory and audit as everywhere. A client that does not
is a host that cannot ask: the question goes to the queue, or is denied with a reason that
says how to answer.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

from amplifier_hooks.approvals.auto import HostAsking
from amplifier_hooks.approvals.models import ApprovalDismissed, ApprovalRequest

__all__ = ["ANSWER_FIELD", "ElicitingAsker", "Elicits", "client_asking"]

ANSWER_FIELD = "answer"
"""The one field of the form the client shows: the option chosen."""


class Elicits(Protocol):
    """What the asker needs of the client's connection: one form-mode elicitation."""

    async def elicit(self, message: str, requested_schema: dict[str, Any]) -> tuple[str, Any]:
        """The client's action (``accept``, ``decline``, ``cancel``) and its content."""
        ...


class ElicitingAsker:
    """An approval provider that asks through the MCP client (see the module docstring)."""

    via: Literal["person"] = "person"

    def __init__(self, client: Elicits, client_title: str) -> None:
        self.client = client
        self.client_title = client_title

    async def request_approval(self, request: ApprovalRequest) -> str:
        lines = [request.prompt]
        if request.reason and request.reason != request.prompt:
            lines.append(request.reason)
        lines += [f"{name}: {value}" for name, value in request.details.items()]
        schema = {
            "type": "object",
            "properties": {
                ANSWER_FIELD: {
                    "type": "string",
                    "title": "Answer",
                    "enum": list(request.options),
                }
            },
            "required": [ANSWER_FIELD],
        }
        action, content = await self.client.elicit("\n".join(lines), schema)
        if action != "accept":
            said = {"decline": "declined", "cancel": "cancelled"}.get(action, action)
            raise ApprovalDismissed(f"{said} in {self.client_title}")
        answer = content.get(ANSWER_FIELD) if isinstance(content, dict) else None
        if not isinstance(answer, str) or answer not in request.options:
            raise ApprovalDismissed(f"{self.client_title} answered none of the options")
        return answer


def client_asking(title: str, asker: ElicitingAsker | None) -> HostAsking:
    """What the client named ``title`` can do with a question: ask through ``asker``, or
    nothing (it takes no elicitations)."""
    if asker is None:
        return HostAsking(title, False, "takes no elicitations (MCP), so it cannot ask")
    return HostAsking(title, True, asker=asker)
