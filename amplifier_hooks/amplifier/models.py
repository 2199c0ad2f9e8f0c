"""The reference system's approval and injection records, in the shapes its modules build.

A module written for the reference asks its approval provider with a request of this
shape (a tool name, an action line, details, a risk level, an optional timeout) and
expects a response of this shape (approved, reason, remember). These are what the
``amplifier_core`` alias exports under those names; `amplifier.approvals` translates them to
and from this project's gate.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, field_validator

from amplifier_hooks.engine.result import HookResult, Role

__all__ = [
    "AmplifierApprovalProvider",
    "AmplifierApprovalRequest",
    "AmplifierApprovalResponse",
    "ContextInjection",
    "HookHandler",
]


class AmplifierApprovalRequest(BaseModel):
    """A question a reference-style module puts to its approval provider."""

    # Extra keys are kept: a module may pass more than the reference defines, and the
    # bridge shows the person whatever it was given.
    model_config = ConfigDict(extra="allow")

    tool_name: str
    action: str
    """One line saying what will happen (e.g. ``Execute: rm -rf build``)."""
    details: dict[str, Any] = Field(default_factory=dict)
    risk_level: str
    """low, medium, high or critical (free text in the reference)."""
    timeout: float | None = None
    """Seconds to wait for an answer; None leaves it to the gate's default."""

    @field_validator("timeout")
    @classmethod
    def _positive(cls, value: float | None) -> float | None:
        if value is not None and not value > 0:
            raise ValueError("timeout must be a positive number of seconds, or None")
        return value


class AmplifierApprovalResponse(BaseModel):
    """The answer a reference-style module receives."""

    approved: bool
    reason: str | None = None
    remember: bool = False
    """True when this answer was remembered for later requests."""


@runtime_checkable
class AmplifierApprovalProvider(Protocol):
    """What a reference-style module calls: ``await provider.request_approval(request)``."""

    async def request_approval(
        self, request: AmplifierApprovalRequest
    ) -> AmplifierApprovalResponse: ...


class ContextInjection(BaseModel):
    """One injection of a 2.x-style result's ``context_injections`` list."""

    content: str
    role: Role = "system"
    ephemeral: bool = False
    append_to_last_tool_result: bool = False
    hook_name: str = "unknown"
    event: str = ""


@runtime_checkable
class HookHandler(Protocol):
    """A handler as the reference types it: ``await handler(event, data) -> HookResult``."""

    async def __call__(self, event: str, data: dict[str, Any]) -> HookResult | None: ...
