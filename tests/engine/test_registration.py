"""Registering handlers: the options record, names, listings, bad arguments."""

from __future__ import annotations

import functools
import math
from typing import Any

import pytest
from registry_support import EVENT, recorder

from amplifier_hooks import Coordinator, HookOptions, HookRegistry, events
from amplifier_hooks.bundles import HandlerOverride
from amplifier_hooks.engine.registry import DEFAULT_TIMEOUT
from amplifier_hooks.modules.scoped import ScopedHooks
from amplifier_hooks.modules.subscriptions import Subscriptions

# -- registration --------------------------------------------------------------------------


async def test_register_returns_an_idempotent_unregister() -> None:
    registry = HookRegistry()
    calls: list[str] = []
    handler = recorder(calls, "a")
    first = registry.register(EVENT, handler)
    registry.register(EVENT, handler)  # the same function twice: two registrations
    first()
    first()  # a second call does nothing, and does not remove the other registration
    assert registry.list_handlers(EVENT) == {EVENT: ["a"]}
    await registry.emit(EVENT, {})
    assert calls == ["a"]


def test_unregistering_the_last_handler_forgets_the_event() -> None:
    registry = HookRegistry()
    undo = registry.register(EVENT, recorder([], "a"))
    assert registry.events() == [EVENT]
    undo()
    assert registry.events() == []
    assert registry.list_handlers() == {}


def test_on_is_an_alias_of_register() -> None:
    registry = HookRegistry()
    undo = registry.on(EVENT, recorder([], "a"), 5, "named")
    assert registry.list_handlers() == {EVENT: ["named"]}
    undo()
    assert registry.list_handlers() == {}


@pytest.mark.parametrize("handler", [None, 42, "tool:pre", object()])
def test_a_non_callable_handler_is_rejected_at_registration(handler: Any) -> None:
    with pytest.raises(TypeError, match="callable"):
        HookRegistry().register(EVENT, handler)


@pytest.mark.parametrize(
    "name", ["tool", "tool_pre", "Tool:Pre", "tool:", ":pre", "tool::pre", "tool pre:x", ""]
)
def test_invalid_event_names_are_rejected(name: str) -> None:
    with pytest.raises(ValueError, match="event name"):
        HookRegistry().register(name, recorder([], "a"))


def test_a_non_string_event_name_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="string"):
        HookRegistry().register(123, recorder([], "a"))  # type: ignore[arg-type]


def test_a_name_checked_before_is_checked_as_quickly_and_as_strictly() -> None:
    # Every session's registrations ask about the same names: a valid one is remembered
    # (up to a bound), an invalid or unhashable one never is and keeps failing.
    assert events.validate_event_name("memo:twice") == "memo:twice"
    assert "memo:twice" in events._VALID_NAMES
    assert events.validate_event_name("memo:twice") == "memo:twice"
    for bad in ("Memo:Twice", ["memo:twice"], b"memo:twice"):
        for _ in range(2):
            with pytest.raises(ValueError, match="event name"):
                events.validate_event_name(bad)
    assert "Memo:Twice" not in events._VALID_NAMES


def test_names_past_the_bound_are_still_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(events, "_VALID_NAMES", set())
    monkeypatch.setattr(events, "_VALID_NAMES_MAX", 1)
    assert events.validate_event_name("first:name") == "first:name"
    assert events.validate_event_name("second:name") == "second:name"
    assert sorted(events._VALID_NAMES) == ["first:name"]
    with pytest.raises(ValueError, match="event name"):
        events.validate_event_name("second_name")


@pytest.mark.parametrize(
    "name", ["tool:pre", "todo:item_completed", "a:b:c", "my-app.v2:event.x", "x1:y2"]
)
def test_valid_event_names_are_accepted(name: str) -> None:
    assert events.is_valid_event_name(name)
    HookRegistry().register(name, recorder([], "a"))


def test_standard_event_names_are_valid_and_complete() -> None:
    required = {
        "session:start",
        "session:end",
        "execution:start",
        "execution:complete",
        "tool:pre",
        "tool:post",
        "tool:error",
        "provider:request",
        "provider:response",
        "prompt:submit",
        "approval:required",
        "approval:granted",
        "approval:denied",
    }
    assert required <= set(events.STANDARD_EVENTS)
    assert all(events.is_valid_event_name(name) for name in events.STANDARD_EVENTS)
    assert not events.is_valid_event_name(None)
    assert not events.is_valid_event_name("tool:pre\n")


@pytest.mark.parametrize("priority", [True, 1.5, "1", None])
def test_priority_must_be_an_int(priority: Any) -> None:
    with pytest.raises(TypeError, match="priority"):
        HookRegistry().register(EVENT, recorder([], "a"), priority)


@pytest.mark.parametrize("timeout", [-1, -0.5, math.nan, -math.inf])
def test_bad_timeouts_are_rejected(timeout: float) -> None:
    with pytest.raises(ValueError, match="timeout"):
        HookRegistry().register(EVENT, recorder([], "a"), timeout=timeout)
    with pytest.raises(ValueError, match="timeout"):
        HookRegistry(default_timeout=timeout)
    with pytest.raises(ValueError, match="timeout"):
        HookRegistry(event_timeouts={EVENT: timeout})


@pytest.mark.parametrize("limit", [(0, 1.0), (1, 0), (1, -1.0), (1.5, 1.0), (2, math.nan)])
def test_bad_rate_limits_are_rejected(limit: tuple[Any, Any]) -> None:
    with pytest.raises(ValueError, match="rate_limit"):
        HookRegistry().register(EVENT, recorder([], "a"), rate_limit=limit)


def test_bad_registry_settings_are_rejected() -> None:
    with pytest.raises(ValueError, match="max_depth"):
        HookRegistry(max_depth=0)
    with pytest.raises(ValueError, match="max_concurrency"):
        HookRegistry(max_concurrency=0)
    with pytest.raises(ValueError, match="event name"):
        HookRegistry(event_timeouts={"bad": 1.0})


def test_names_default_to_the_function_name() -> None:
    registry = HookRegistry()

    async def guard(event: str, data: dict[str, Any]) -> None:
        return None

    class Callable_:
        def __call__(self, event: str, data: dict[str, Any]) -> None:
            return None

    registry.register(EVENT, guard)
    registry.register(EVENT, guard, name="explicit")
    registry.register(EVENT, functools.partial(guard))
    registry.register(EVENT, Callable_())
    assert registry.list_handlers(EVENT) == {EVENT: ["guard", "explicit", "partial", "Callable_"]}


def test_list_handlers_by_event_and_all() -> None:
    registry = HookRegistry()
    registry.register("tool:post", recorder([], "p"))
    registry.register(EVENT, recorder([], "late"), priority=10)
    registry.register(EVENT, recorder([], "early"), priority=-10)
    assert registry.list_handlers() == {"tool:post": ["p"], EVENT: ["early", "late"]}
    assert registry.list_handlers(EVENT) == {EVENT: ["early", "late"]}
    assert registry.list_handlers("session:start") == {"session:start": []}


def test_handler_info_shows_resolved_settings() -> None:
    registry = HookRegistry(default_timeout=5, event_timeouts={"tool:post": 2})
    registry.register(EVENT, recorder([], "a"), owner="mod", fail_closed=True)
    registry.register("tool:post", recorder([], "b"), rate_limit=(3, 1))
    registry.register("tool:post", recorder([], "c"), timeout=math.inf)
    info = {i.name: i for i in registry.handler_info()}
    assert (info["a"].timeout, info["a"].fail_closed, info["a"].owner) == (5.0, True, "mod")
    assert (info["b"].timeout, info["b"].rate_limit) == (2.0, (3, 1.0))
    assert info["c"].timeout is None
    assert "name='a'" in repr(info["a"])
    assert registry.timeout_for(EVENT) == 5.0
    assert registry.timeout_for("tool:post") == 2.0
    assert HookRegistry().timeout_for(EVENT) == DEFAULT_TIMEOUT


# -- the registration record -----------------------------------------------------------------


def test_register_and_add_build_the_same_record() -> None:
    registry = HookRegistry()
    options = HookOptions(
        priority=3, name="guard", timeout=2.0, fail_closed=True, rate_limit=(5, 1), owner="m"
    )
    registry.add(EVENT, recorder([], "first"), options)
    registry.register(
        "tool:post",
        recorder([], "second"),
        3,
        "guard",
        timeout=2.0,
        fail_closed=True,
        rate_limit=(5, 1),
        owner="m",
    )
    first, second = registry.handler_info()[::-1]  # tool:post sorts first
    assert first.options == second.options == options
    assert (first.event, second.event) == (EVENT, "tool:post")


def test_the_record_gets_the_handler_name_and_keeps_an_unset_timeout() -> None:
    registry = HookRegistry(default_timeout=7)
    registry.add(EVENT, recorder([], "named_by_function"), HookOptions())
    [info] = registry.handler_info()
    assert info.options == HookOptions(name="named_by_function")
    assert info.options.timeout is None  # as registered: "the default"
    assert info.timeout == 7.0  # in effect


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"priority": True}, TypeError),
        ({"name": 3}, TypeError),
        ({"timeout": "1"}, ValueError),
        ({"fail_closed": "yes"}, TypeError),
        ({"rate_limit": (1,)}, ValueError),
        ({"owner": 1}, TypeError),
    ],
)
def test_a_bad_record_fails_where_it_is_made(
    fields: dict[str, Any], error: type[Exception]
) -> None:
    with pytest.raises(error):
        HookOptions(**fields)
    with pytest.raises(error):
        HookOptions().replace(**fields)


async def test_subscriptions_carry_every_option_of_the_record() -> None:
    # Subscriptions once took a hand-picked subset of the options (no timeout, no rate
    # limit); with the record there is nothing left to forget.
    coordinator = Coordinator()
    options = HookOptions(
        priority=4, name="watch", timeout=3.0, fail_closed=True, rate_limit=(2, 1), owner="o"
    )
    subscriptions = Subscriptions(coordinator.hooks, recorder([], "w"), options, include=["tool:*"])
    subscriptions.add([EVENT, "tool:post"])
    infos = coordinator.hooks.handler_info()
    assert [i.event for i in infos] == ["tool:post", EVENT]
    assert all(i.options == options for i in infos)


async def test_a_scoped_registry_applies_overrides_to_the_record() -> None:
    registry = HookRegistry()
    overrides = {"guard": HandlerOverride(priority=-5, timeout=9.0, fail_closed=True)}
    scoped = ScopedHooks(registry, "mod", overrides)
    scoped.add(
        EVENT,
        recorder([], "x"),
        HookOptions(priority=1, name="guard", rate_limit=(1, 1), owner="x"),
    )
    scoped.activate()
    [info] = registry.handler_info()
    assert info.options == HookOptions(
        priority=-5, name="guard", timeout=9.0, fail_closed=True, rate_limit=(1, 1.0), owner="mod"
    )
