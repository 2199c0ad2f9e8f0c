"""HookResult: the spec's fields and defaults, and rejection of results that cannot be honoured."""

from __future__ import annotations

import math
from typing import Any

import pytest
from pydantic import ValidationError

from amplifier_hooks import CONTINUE, HookResult

SPEC_DEFAULTS: dict[str, Any] = {
    "action": "continue",
    "data": None,
    "reason": None,
    "context_injection": None,
    "context_injection_role": "system",
    "ephemeral": False,
    "approval_prompt": None,
    "approval_options": None,
    "approval_timeout": 300.0,
    "approval_default": "deny",
    "suppress_output": False,
    "user_message": None,
    "user_message_level": "info",
    "user_message_source": None,
    "append_to_last_tool_result": False,
    # CONTRACT §11's typed allow, default off so a plain result keeps the spec's meaning.
    "grant": False,
}


def test_fields_and_defaults_are_the_spec_table() -> None:
    assert set(HookResult.model_fields) == set(SPEC_DEFAULTS)
    assert HookResult().model_dump() == SPEC_DEFAULTS
    assert HookResult() == CONTINUE


def test_results_are_frozen_so_one_instance_can_be_shared() -> None:
    with pytest.raises(ValidationError):
        CONTINUE.action = "deny"  # type: ignore[misc]


def test_a_misspelt_field_is_rejected_not_ignored() -> None:
    with pytest.raises(ValidationError, match="acton"):
        HookResult(acton="deny")  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        HookResult.model_validate({"action": "deny", "why": "x"})


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("action", "block"),
        ("action", "DENY"),
        ("context_injection_role", "tool"),
        ("approval_default", "maybe"),
        ("user_message_level", "debug"),
        ("data", ["not", "a", "dict"]),
    ],
)
def test_values_outside_the_allowed_set_are_rejected(field: str, value: Any) -> None:
    with pytest.raises(ValidationError, match=field):
        HookResult(**{field: value})


@pytest.mark.parametrize("timeout", [0, 0.0, -1, -0.001, math.nan, -math.inf])
def test_approval_timeout_must_be_positive(timeout: float) -> None:
    with pytest.raises(ValidationError, match="approval_timeout"):
        HookResult(action="ask_user", approval_timeout=timeout)


def test_a_short_approval_timeout_is_fine() -> None:
    assert HookResult(action="ask_user", approval_timeout=0.5).approval_timeout == 0.5


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ([], "must not be empty"),
        (["Allow", "  "], "blank"),
        (["Allow", ""], "blank"),
        (["Allow", "Allow"], "repeat"),
    ],
)
def test_approval_options_must_be_usable(options: list[str], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        HookResult(action="ask_user", approval_options=options)


def test_options_default_to_allow_deny() -> None:
    assert HookResult(action="ask_user").options == ["Allow", "Deny"]
    custom = HookResult(action="ask_user", approval_options=["Yes", "No", "Always"])
    assert custom.options == ["Yes", "No", "Always"]
    # The property hands out a copy: a caller cannot edit the frozen result through it.
    custom.options.append("Never")
    assert custom.options == ["Yes", "No", "Always"]


@pytest.mark.parametrize("text", [None, ""])
def test_inject_context_needs_text(text: str | None) -> None:
    with pytest.raises(ValidationError, match="context_injection"):
        HookResult(action="inject_context", context_injection=text)


def test_modify_needs_data_but_empty_data_is_a_valid_replacement() -> None:
    with pytest.raises(ValidationError, match="modify"):
        HookResult(action="modify")
    assert HookResult(action="modify", data={}).data == {}


def test_a_dict_validates_into_a_result() -> None:
    result = HookResult.model_validate(
        {"action": "inject_context", "context_injection": "note", "ephemeral": True}
    )
    assert (result.action, result.context_injection, result.ephemeral) == (
        "inject_context",
        "note",
        True,
    )


def test_validation_errors_are_value_errors() -> None:
    # Callers that only know the standard library can still catch bad results.
    with pytest.raises(ValueError):
        HookResult(action="modify")


@pytest.mark.parametrize("action", ["deny", "ask_user"])
def test_a_grant_cannot_go_with_a_deny_or_a_question(action: str) -> None:
    with pytest.raises(ValidationError, match="grant=True cannot go with action"):
        HookResult(action=action, grant=True, reason="x")  # type: ignore[arg-type]


def test_a_grant_may_ride_on_a_continue_a_modify_or_an_injection() -> None:
    assert HookResult(grant=True).grant
    assert HookResult(action="modify", data={"a": 1}, grant=True).grant
    assert HookResult(action="inject_context", context_injection="hi", grant=True).grant
