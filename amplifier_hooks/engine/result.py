"""`HookResult`: what a handler returns to influence the agent."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from amplifier_hooks.engine.shortcut import mark_unchecked

Action = Literal["continue", "deny", "modify", "inject_context", "ask_user"]
Role = Literal["system", "user", "assistant"]
Level = Literal["info", "warning", "error"]
AllowOrDeny = Literal["allow", "deny"]
"""What an approval can end in (its default, what an option or a policy rule says)."""

ACTIONS: tuple[Action, ...] = ("continue", "deny", "modify", "inject_context", "ask_user")

DEFAULT_APPROVAL_OPTIONS: tuple[str, ...] = ("Allow", "Deny")


class HookResult(BaseModel):
    """What a handler says about one event.

    The fields and defaults are those of the spec's table, plus ``user_message_source``.
    Instances are frozen so that a handler may return one shared instance safely, and
    unknown fields are rejected so that a typo (``acton="deny"``) fails loudly instead of
    silently meaning "continue".
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    action: Action = "continue"
    data: dict[str, Any] | None = None
    reason: str | None = None
    context_injection: str | None = None
    context_injection_role: Role = "system"
    ephemeral: bool = False
    approval_prompt: str | None = None
    approval_options: list[str] | None = None
    approval_timeout: float = Field(default=300.0)
    approval_default: AllowOrDeny = "deny"
    suppress_output: bool = False
    user_message: str | None = None
    user_message_level: Level = "info"
    user_message_source: str | None = None
    append_to_last_tool_result: bool = False
    grant: bool = False
    """An explicit allow: the handler grants the operation, so a host with a permission
    layer of its own (Claude Code's ``permissionDecision: "allow"``) need not ask again.
    Kept by the fold only when nothing in the same emit denies or asks; where there is no
    host permission layer it means continue. Only with continue, modify or inject_context."""

    @model_validator(mode="after")
    def _check_consistency(self) -> HookResult:
        # Each rule below rejects a result whose intent cannot be carried out, so the
        # mistake surfaces where the handler built it rather than as a silent no-op.
        if not self.approval_timeout > 0:  # also rejects NaN
            raise ValueError("approval_timeout must be a positive number of seconds")
        if self.approval_options is not None:
            if not self.approval_options:
                raise ValueError("approval_options must not be empty (omit it for Allow/Deny)")
            if any(not option.strip() for option in self.approval_options):
                raise ValueError("approval_options must not contain blank options")
            if len(set(self.approval_options)) != len(self.approval_options):
                raise ValueError("approval_options must not repeat an option")
        if self.action == "inject_context" and not self.context_injection:
            raise ValueError("action 'inject_context' needs a non-empty context_injection")
        if self.grant and self.action in ("deny", "ask_user"):
            raise ValueError(
                f"grant=True cannot go with action {self.action!r}: a grant allows the operation"
            )
        if self.action == "modify" and self.data is None:
            raise ValueError("action 'modify' needs data (the whole new event data)")
        return self

    @property
    def options(self) -> list[str]:
        """The approval options, with the spec's default filled in."""
        return list(self.approval_options or DEFAULT_APPROVAL_OPTIONS)

    # A HookResult is checked when it is made, and frozen: the registry never validates one
    # again. The two ways pydantic offers around validation mark what they make instead,
    # so the registry validates exactly those (`engine.shortcut.is_checked`).

    @classmethod
    def model_construct(  # type: ignore[override]  # the plugin's signature names fields
        cls, _fields_set: set[str] | None = None, **values: Any
    ) -> Self:
        """Build without validation (pydantic's ``model_construct``); the result is marked
        unchecked, and a registry validates it before folding it."""
        result = super().model_construct(_fields_set, **values)
        mark_unchecked(result)
        return result

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy (pydantic's ``model_copy``); with ``update`` it is marked unchecked, as
        pydantic does not validate the update."""
        copied = super().model_copy(update=update, deep=deep)
        if update:
            mark_unchecked(copied)
        return copied


CONTINUE = HookResult()
"""A shared ``continue`` result; handlers may return it instead of building their own."""
