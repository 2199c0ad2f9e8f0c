"""Through the ``amplifier_core`` alias, the kernel's stand-ins behave like the reference's.

What the reference's own tests (amplifier-core's test_hooks, test_contribution_channels,
test_event_taxonomy, test_events_smoke) check, written for this project: a registry made
through the alias shows in-place edits of the event data to later handlers and to the
caller, reports ``continue`` after a ``modify``, and returns a deny without data;
``ModuleCoordinator(session)`` can be built and lists its channels as the reference does;
the event names form a consistent taxonomy. This project's own `HookRegistry` keeps
CONTRACT §3 (a handler never sees another's in-place edit), checked alongside.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from amplifier_hooks import HookRegistry, HookResult
from amplifier_hooks.amplifier.alias import (
    install_amplifier_core_alias,
    uninstall_amplifier_core_alias,
)
from amplifier_hooks.amplifier.reference_hooks import ReferenceHookRegistry, edited_in_place


@pytest.fixture
def core() -> Iterator[ModuleType]:
    """The alias, installed for one test."""
    uninstall_amplifier_core_alias()
    assert install_amplifier_core_alias()
    yield importlib.import_module("amplifier_core")
    uninstall_amplifier_core_alias()


def appender(label: str, key: str = "calls") -> Any:
    async def handler(event: str, data: dict[str, Any]) -> HookResult:
        data.setdefault(key, []).append(label)
        return HookResult(action="continue")

    handler.__name__ = label
    return handler


# -- in-place edits --------------------------------------------------------------------


async def test_an_in_place_edit_reaches_the_caller_as_a_continue(core: ModuleType) -> None:
    registry = core.hooks.HookRegistry()

    async def mark(event: str, data: dict[str, Any]) -> HookResult:
        data["handled"] = True
        return HookResult(action="continue")

    unregister = registry.register("test:event", mark, name="marker")
    assert registry.list_handlers("test:event") == {"test:event": ["marker"]}
    result = await registry.emit("test:event", {})
    assert (result.action, result.data["handled"]) == ("continue", True)
    unregister()
    assert registry.list_handlers("test:event") == {"test:event": []}


async def test_later_handlers_see_earlier_edits_in_priority_order(core: ModuleType) -> None:
    registry = core.HookRegistry()
    registry.register("test:event", appender("low"), priority=10)
    registry.on("test:event", appender("high"), priority=5)
    result = await registry.emit("test:event", {})
    assert result.action == "continue"
    assert result.data["calls"] == ["high", "low"]
    assert registry.list_handlers("test:event") == {"test:event": ["high", "low"]}


async def test_an_edit_by_a_handler_that_returns_none_or_is_sync_counts(core: ModuleType) -> None:
    registry = core.HookRegistry()
    seen: list[dict[str, Any]] = []

    def sync_edit(event: str, data: dict[str, Any]) -> None:
        data["sync"] = 1

    async def none_edit(event: str, data: dict[str, Any]) -> None:
        data["none"] = 2

    async def look(event: str, data: dict[str, Any]) -> None:
        seen.append(dict(data))

    registry.register("test:event", sync_edit, priority=1)
    registry.register("test:event", none_edit, priority=2)
    registry.register("test:event", look, priority=3)
    result = await registry.emit("test:event", {"given": 0})
    assert seen[0]["sync"] == 1 and seen[0]["none"] == 2 and seen[0]["given"] == 0
    assert {k: result.data[k] for k in ("given", "sync", "none")} == {
        "given": 0,
        "sync": 1,
        "none": 2,
    }


async def test_a_failing_handler_does_not_stop_the_edits_of_the_rest(core: ModuleType) -> None:
    registry = core.HookRegistry()

    async def boom(event: str, data: dict[str, Any]) -> None:
        raise RuntimeError("Test error")

    async def works(event: str, data: dict[str, Any]) -> HookResult:
        data["still_works"] = True
        return HookResult(action="continue")

    registry.register("test:event", boom, priority=5)
    registry.register("test:event", works, priority=10)
    result = await registry.emit("test:event", {})
    assert (result.action, result.data["still_works"]) == ("continue", True)


async def test_a_modify_is_reported_as_continue_with_its_data(core: ModuleType) -> None:
    registry = core.HookRegistry()

    async def modifier(event: str, data: dict[str, Any]) -> HookResult:
        data["modified"] = True
        return HookResult(action="modify", data=data)

    registry.register("test:event", modifier)
    result = await registry.emit("test:event", {"original": True})
    assert result.action == "continue"
    assert result.data["original"] is True and result.data["modified"] is True


async def test_an_edited_continue_keeps_its_message(core: ModuleType) -> None:
    registry = core.HookRegistry()

    async def edit_and_tell(event: str, data: dict[str, Any]) -> HookResult:
        data["x"] = 1
        return HookResult(user_message="noted", user_message_level="warning")

    registry.register("test:event", edit_and_tell, name="teller")
    result = await registry.emit("test:event", {})
    assert result.data["x"] == 1
    assert [(m.text, m.level, m.source) for m in result.messages] == [
        ("noted", "warning", "teller")
    ]


async def test_a_deny_has_no_data_and_stops_the_chain(core: ModuleType) -> None:
    registry = core.HookRegistry()
    ran: list[str] = []

    async def deny(event: str, data: dict[str, Any]) -> HookResult:
        ran.append("deny")
        data["before_deny"] = True
        return HookResult(action="deny", reason="Test denial")

    async def never(event: str, data: dict[str, Any]) -> None:
        ran.append("never")

    registry.register("test:event", deny, priority=5)
    registry.register("test:event", never, priority=10)
    result = await registry.emit("test:event", {"x": 1})
    assert (result.action, result.reason, result.data) == ("deny", "Test denial", None)
    assert ran == ["deny"]


async def test_precedence_is_the_reference_s(core: ModuleType) -> None:
    registry = core.HookRegistry()

    async def ask(event: str, data: dict[str, Any]) -> HookResult:
        return HookResult(action="ask_user", approval_prompt="Allow?", approval_default="deny")

    async def inject(event: str, data: dict[str, Any]) -> HookResult:
        return HookResult(action="inject_context", context_injection=f"from {event}")

    registry.register("test:event", inject, priority=5, name="ctx")
    registry.register("test:event", ask, priority=10, name="ask")
    result = await registry.emit("test:event", {})
    assert (result.action, result.approval_prompt) == ("ask_user", "Allow?")
    registry.register("only:inject", inject, name="one")
    registry.register("only:inject", inject, name="two")
    both = await registry.emit("only:inject", {})
    assert both.action == "inject_context"
    assert both.context_injection == "from only:inject\n\nfrom only:inject"


async def test_defaults_and_the_timestamp_are_stamped_as_in_the_reference(
    core: ModuleType,
) -> None:
    registry = core.HookRegistry()
    registry.set_default_fields(session_id="s-1", env="test")
    seen: list[dict[str, Any]] = []

    async def capture(event: str, data: dict[str, Any]) -> None:
        seen.append(data.copy())

    registry.register("test:event", capture)
    await registry.emit("test:event", {"session_id": "override", "timestamp": "caller"})
    assert seen[0]["session_id"] == "override" and seen[0]["env"] == "test"
    assert seen[0]["timestamp"] != "caller" and seen[0]["timestamp"].endswith("+00:00")
    unheard = await registry.emit("nobody:listens", {"data": "value"})
    assert unheard.action == "continue" and unheard.data == {"data": "value"}


async def test_this_project_s_registry_keeps_each_handler_s_edits_its_own() -> None:
    """CONTRACT §3, for the same handlers: only a modify changes the data."""
    registry = HookRegistry()
    registry.register("test:event", appender("high"), priority=5)
    registry.register("test:event", appender("low"), priority=10)
    result = await registry.emit("test:event", {})
    assert "calls" not in result.data and result.action == "continue"

    async def deny(event: str, data: dict[str, Any]) -> HookResult:
        return HookResult(action="deny", reason="no")

    registry.register("deny:event", deny)
    denied = await registry.emit("deny:event", {"x": 1})
    assert denied.data is not None and denied.data["x"] == 1


def test_an_edit_is_a_change_of_binding_never_a_comparison() -> None:
    class NeverCompare:
        def __eq__(self, other: object) -> bool:
            raise AssertionError("values are not compared")

        __hash__ = object.__hash__

    value = NeverCompare()
    before = {"a": value, "b": [1]}
    after = dict(before)
    assert not edited_in_place(before, after)
    after["b"].append(2)  # inside a shared object: seen through the copy anyway
    assert not edited_in_place(before, after)
    assert edited_in_place(before, {**after, "a": NeverCompare()})
    assert edited_in_place(before, {"a": value})
    assert edited_in_place(before, {**after, "c": None})


def test_the_reference_registry_takes_this_project_s_options() -> None:
    registry = ReferenceHookRegistry(default_timeout=5.0, max_depth=2)
    assert registry.max_depth == 2 and registry.timeout_for("tool:pre") == 5.0
    with pytest.raises(TypeError):
        ReferenceHookRegistry(adapter=None)


# -- ModuleCoordinator(session) ----------------------------------------------------------


class Session:
    session_id = "test-session"
    parent_id = "parent-1"
    config = {"session": {"injection_budget_per_turn": 500}, "hooks": []}


async def test_a_module_coordinator_is_built_for_a_session(core: ModuleType) -> None:
    ModuleCoordinator = core.coordinator.ModuleCoordinator
    session = Session()
    for made in (ModuleCoordinator(session=session), ModuleCoordinator(session)):
        assert made.session is session
        assert (made.session_id, made.parent_id) == ("test-session", "parent-1")
        assert made.config["hooks"] == []
        assert made.injection_budget_per_turn == 500 and made.injection_size_limit is None
        assert made.get("hooks") is made.hooks and made.mount_points["hooks"] is made.hooks
        assert made.channels == {}
    coordinator = ModuleCoordinator(session=session)
    coordinator.hooks.register("test:event", appender("one"), priority=1)
    coordinator.hooks.register("test:event", appender("two"), priority=2)
    result = await coordinator.hooks.emit("test:event", {})
    assert result.data["calls"] == ["one", "two"] and result.data["session_id"] == "test-session"
    await coordinator.coordinator.cleanup()


async def test_a_session_s_dispatch_of_a_deny_has_empty_data(core: ModuleType) -> None:
    coordinator = core.ModuleCoordinator(session=Session())

    async def deny(event: str, data: dict[str, Any]) -> HookResult:
        return HookResult(action="deny", reason="blocked")

    coordinator.hooks.register("tool:pre", deny)
    outcome = await coordinator.coordinator.dispatch("tool:pre", {"tool_name": "bash"})
    assert (outcome.allowed, outcome.reason, outcome.data) == (False, "blocked", {})


def test_a_session_without_an_id_or_with_the_reference_s_systems_is_refused(
    core: ModuleType,
) -> None:
    class NoId:
        pass

    with pytest.raises(TypeError, match="a session needs a non-empty str session_id, got None"):
        core.ModuleCoordinator(session=NoId())
    with pytest.raises(TypeError, match="approvals go through the coordinator's approval gate"):
        core.ModuleCoordinator(Session(), object())
    with pytest.raises(TypeError, match=r"takes \(coordinator, scope\) or \(session\)"):
        core.ModuleCoordinator()


def test_a_loader_view_has_no_session(core: ModuleType) -> None:
    view = core.testing.create_test_coordinator()
    assert view.session is None and view.channels == {}


async def test_channels_list_contributors_as_the_reference_does(core: ModuleType) -> None:
    coordinator = core.ModuleCoordinator(session=Session())

    def listing() -> list[str]:
        return ["item1", "item2"]

    coordinator.register_contributor("test-channel", "test-module", listing)
    coordinator.register_contributor("other", "second", lambda: None)
    assert coordinator.channels == {
        "test-channel": [{"name": "test-module", "callback": listing}],
        "other": [{"name": "second", "callback": coordinator.channels["other"][0]["callback"]}],
    }
    snapshot = coordinator.channels
    snapshot["test-channel"].clear()  # a snapshot: the registration stays
    assert await coordinator.collect_contributions("test-channel") == [["item1", "item2"]]


async def test_collection_skips_failures_and_none_and_keeps_order(core: ModuleType) -> None:
    coordinator = core.ModuleCoordinator(session=Session())

    def failing() -> None:
        raise RuntimeError("Test failure")

    class Conditional:
        enabled = False

        def contribute(self) -> list[str] | None:
            return ["data"] if self.enabled else None

    async def later() -> list[str]:
        return ["async-data"]

    conditional = Conditional()
    coordinator.register_contributor("test", "first", lambda: "first")
    coordinator.register_contributor("test", "bad", failing)
    coordinator.register_contributor("test", "dict", lambda: {"key": "value"})
    coordinator.register_contributor("test", "maybe", conditional.contribute)
    coordinator.register_contributor("test", "async", later)
    coordinator.register_contributor("test", "int", lambda: 42)
    coordinator.register_contributor("elsewhere", "x", lambda: ["x"])
    assert await coordinator.collect_contributions("test") == [
        "first",
        {"key": "value"},
        ["async-data"],
        42,
    ]
    conditional.enabled = True
    assert (await coordinator.collect_contributions("test"))[2] == ["data"]
    assert await coordinator.collect_contributions("elsewhere") == [["x"]]
    assert await coordinator.collect_contributions("nonexistent") == []


# -- the event taxonomy ----------------------------------------------------------------


def test_every_event_constant_is_in_all_events_once(core: ModuleType) -> None:
    events = core.events
    constants = [
        getattr(events, name)
        for name in dir(events)
        if name.isupper() and not name.startswith("_") and name != "ALL_EVENTS"
    ]
    assert sorted(constants) == sorted(events.ALL_EVENTS)
    assert len(set(events.ALL_EVENTS)) == len(events.ALL_EVENTS)


def test_event_names_are_namespace_action_and_an_optional_detail(core: ModuleType) -> None:
    for event in core.events.ALL_EVENTS:
        parts = event.split(":")
        assert 2 <= len(parts) <= 3 and all(parts), event
        assert len(parts) == 2 or parts[2] in {"debug", "raw"}, event
        assert event == event.lower(), event


def test_the_canonical_events_have_their_constants(core: ModuleType) -> None:
    canonical = [
        "session:start",
        "session:end",
        "prompt:submit",
        "prompt:complete",
        "plan:start",
        "plan:end",
        "provider:request",
        "provider:response",
        "provider:error",
        "content_block:start",
        "content_block:delta",
        "content_block:end",
        "tool:pre",
        "tool:post",
        "tool:error",
        "context:pre_compact",
        "context:post_compact",
        "artifact:write",
        "artifact:read",
        "policy:violation",
        "approval:required",
        "approval:granted",
        "approval:denied",
    ]
    for event in canonical:
        assert getattr(core.events, event.replace(":", "_").upper()) == event
