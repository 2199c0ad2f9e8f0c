"""What emit does with bad input from the caller or a handler: fail loudly or isolate."""

from __future__ import annotations

from typing import Any

import pytest

from amplifier_hooks import Coordinator, HookRegistry, HookResult


@pytest.mark.parametrize("name", ["tool_pre", "Tool:Pre", "tool pre", ""])
async def test_a_misspelt_event_is_an_error_even_with_no_handlers(name: str) -> None:
    registry = HookRegistry()
    with pytest.raises(ValueError, match="event name"):
        await registry.emit(name, {})
    with pytest.raises(ValueError, match="event name"):
        await registry.emit_and_collect(name, {})
    with pytest.raises(ValueError, match="event name"):
        await Coordinator().dispatch(name, {})


async def test_a_well_formed_event_nobody_handles_is_fine() -> None:
    resolution = await HookRegistry().emit("custom:thing", {"a": 1})
    assert resolution.action == "continue" and resolution.data == {"a": 1}


@pytest.mark.parametrize("data", [["a", "b"], "text", 42, (("a", 1),)])
@pytest.mark.parametrize("with_handler", [False, True])
async def test_data_that_is_not_a_mapping_is_a_type_error_naming_the_event(
    data: Any, with_handler: bool
) -> None:
    registry = HookRegistry()
    if with_handler:
        registry.register("tool:pre", lambda event, data: None)
    with pytest.raises(TypeError, match=r"data for 'tool:pre' must be a mapping"):
        await registry.emit("tool:pre", data)


def constructed(**fields: Any) -> HookResult:
    """A HookResult that skipped validation, as model_construct allows."""
    return HookResult.model_construct(**fields)


@pytest.mark.parametrize(
    "bad",
    [
        constructed(action="modify", data=None),
        constructed(action="modify", data=["not", "a", "dict"]),
        constructed(action="bogus"),
        constructed(action="inject_context", context_injection=None),
        constructed(action="ask_user", approval_timeout=-1.0),
        # model_copy does not validate its update either.
        HookResult().model_copy(update={"action": "modify"}),
        HookResult(action="inject_context", context_injection="x").model_copy(
            update={"context_injection": ""}
        ),
    ],
)
@pytest.mark.parametrize("fail_closed", [False, True])
async def test_an_unvalidated_broken_result_is_a_handler_failure(
    bad: HookResult, fail_closed: bool, logs: list[dict[str, Any]]
) -> None:
    registry = HookRegistry()
    registry.register("tool:pre", lambda event, data: bad, name="broken", fail_closed=fail_closed)
    registry.register("tool:pre", lambda event, data: None, 1, name="after")
    resolution = await registry.emit("tool:pre", {"x": 1})
    assert resolution.action == ("deny" if fail_closed else "continue")
    assert resolution.trace[0].failure == "invalid_return"
    assert resolution.data["x"] == 1
    failure = next(r for r in logs if r["event"] == "hook handler failed")
    assert failure["handler"] == "broken" and "invalid HookResult" in failure["error"]


async def test_an_invalid_returned_dict_names_the_bad_field(logs: list[dict[str, Any]]) -> None:
    registry = HookRegistry()
    registry.register("tool:pre", lambda event, data: {"action": "deny", "why": "no"}, name="typo")
    resolution = await registry.emit("tool:pre", {})
    assert resolution.action == "continue"
    failure = next(r for r in logs if r["event"] == "hook handler failed")
    assert "why: Extra inputs are not permitted" in failure["error"]


async def test_the_resolution_does_not_share_a_handlers_dict() -> None:
    shared = {"k": 1}
    result = HookResult.model_construct(action="modify", data=shared)
    registry = HookRegistry()
    registry.register("tool:pre", lambda event, data: result)
    resolution = await registry.emit("tool:pre", {})
    assert resolution.data == shared
    resolution.data["agent"] = "changed it"  # type: ignore[index]
    assert shared == {"k": 1}


async def test_a_constructed_result_that_is_valid_is_folded() -> None:
    # Results that skipped validation are validated before folding, not refused.
    registry = HookRegistry()
    registry.register("tool:pre", lambda e, d: constructed(action="modify", data={"y": 2}))
    resolution = await registry.emit("tool:pre", {"x": 1})
    assert (resolution.action, resolution.data) == ("modify", {"y": 2})
    assert resolution.trace[0].failure is None
