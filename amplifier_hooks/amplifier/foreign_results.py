"""Results from the reference's own ``HookResult`` classes (amplifier-core 1.x and 2.x).

A module run against a real ``amplifier_core`` returns that library's ``HookResult``. Its
1.x fields are ours; 2.x adds ``context_injections`` (an ordered list of injections, of
which the scalar ``context_injection`` fields are a projection). `from_foreign` maps such
a result onto this project's: every injection is kept, each with its own role and flags;
a field this project does not know is reported and left out, never a reason to drop the
result (a deny whose result cannot be read in full is still a deny, and so is an action
this project does not know).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from amplifier_hooks.engine.result import ACTIONS, HookResult, Role
from amplifier_hooks.logs import get_logger

logger = get_logger()

_KNOWN = frozenset(HookResult.model_fields)
_warned: set[str] = set()


class ExtraInjection(BaseModel):
    """An injection beyond the first of a result that carries several."""

    model_config = ConfigDict(frozen=True)

    text: str = Field(min_length=1)
    role: Role = "system"
    ephemeral: bool = False
    append_to_last_tool_result: bool = False


class ForeignHookResult(HookResult):
    """A `HookResult` mapped from another library's; ``extra_injections`` holds the
    injections after the first, which the resolver keeps one by one."""

    extra_injections: list[ExtraInjection] = Field(default_factory=list)


def from_foreign(values: Mapping[str, Any]) -> HookResult:
    """This project's result for a reference-style result given as its field values.

    Raises (the handler then counts as failed) only for a result that is neither a deny
    nor an ask_user; those two are never turned into a continue.
    """
    action = values.get("action", "continue")
    if action not in ACTIONS:
        # An action this project does not know (a newer reference, say) may mean "stop":
        # guessing "continue" would be failing open.
        logger.warning("hook result with an unknown action; denying", action=repr(action))
        return HookResult(
            action="deny", reason=f"unknown hook action {action!r}; denied rather than guessed"
        )
    try:
        return _mapped(dict(values))
    except Exception as exc:
        if action not in ("deny", "ask_user"):
            raise
        # Fail closed: a blocking result that cannot be read in full still blocks.
        given = values.get("reason")
        logger.warning("a blocking hook result could not be read in full; denying", error=str(exc))
        return HookResult(
            action="deny",
            reason=given
            if isinstance(given, str) and given
            else f"{action} result could not be read: {exc}",
        )


def _mapped(fields: dict[str, Any]) -> HookResult:
    injections = [_injection(item) for item in fields.pop("context_injections", None) or []]
    for name in [key for key in fields if key not in _KNOWN]:
        value = fields.pop(name)
        if value not in (None, False, "", [], {}) and name not in _warned:
            _warned.add(name)
            logger.warning("hook result field not known here; ignored", field=name)
    action = fields.get("action", "continue")
    if injections:
        fields.update(_projected(injections[0]))
        if action == "continue":
            fields["action"] = action = "inject_context"
        elif action == "modify":
            logger.warning(
                "a modify result's context_injections are dropped (one action per result)",
                count=len(injections),
            )
            for key in ("context_injection", "ephemeral", "append_to_last_tool_result"):
                fields.pop(key, None)
            injections = []
    extras = [ExtraInjection(**_projected(item, text_key="text")) for item in injections[1:]]
    if extras:
        return ForeignHookResult.model_validate({**fields, "extra_injections": extras})
    return HookResult.model_validate(fields)


def _injection(item: Any) -> dict[str, Any]:
    if isinstance(item, Mapping):
        return dict(item)
    dump = getattr(item, "model_dump", None)
    if callable(dump):
        dumped = dump()
        if isinstance(dumped, Mapping):
            return dict(dumped)
    raise TypeError(f"context_injections item of type {type(item).__name__} cannot be read")


def _projected(item: Mapping[str, Any], text_key: str = "context_injection") -> dict[str, Any]:
    """One reference injection as our field names."""
    projected = {
        text_key: item.get("content"),
        "ephemeral": bool(item.get("ephemeral", False)),
        "append_to_last_tool_result": bool(item.get("append_to_last_tool_result", False)),
    }
    role_key = "context_injection_role" if text_key == "context_injection" else "role"
    projected[role_key] = item.get("role", "system")
    return projected
