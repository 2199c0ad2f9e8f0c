"""A module's registrations through its scope (`ScopedHooks`) end up as if made on the
registry directly: in the same order, with the same checks, and each one taken out by
its own unregister, whether staged first or made while live."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amplifier_hooks import HookOptions, HookRegistry, events
from amplifier_hooks.engine.registrar import Unregister
from amplifier_hooks.modules.scoped import ScopedHooks

NAMES = ["tool:pre", "tool:post", "session:start"]

# A registration: (event, priority, staged before the scope goes live).
registrations = st.lists(
    st.tuples(st.sampled_from(NAMES), st.integers(-3, 3), st.booleans()), max_size=12
)


def handler(name: str) -> Any:
    def handle(event: str, data: dict[str, Any]) -> None:
        data.setdefault("ran", []).append(name)

    handle.__name__ = name
    return handle


@settings(max_examples=60, deadline=None)
@given(made=registrations, withdrawn=st.sets(st.integers(0, 11)))
def test_scoped_registrations_order_and_unregister_as_direct_ones(
    made: list[tuple[str, int, bool]], withdrawn: set[int]
) -> None:
    direct, scoped_registry = HookRegistry(), HookRegistry()
    scope = ScopedHooks(scoped_registry, "mod")
    undo_direct: list[Unregister] = []
    undo_scoped: list[Unregister] = []
    # The staged ones first (the bundle's mount), then the scope goes live, then the rest.
    order = [i for i, m in enumerate(made) if m[2]] + [i for i, m in enumerate(made) if not m[2]]
    live_from = sum(1 for m in made if m[2])
    by_index: dict[int, tuple[Unregister, Unregister]] = {}
    for position, index in enumerate(order):
        if position == live_from:
            scope.activate()
        event, priority, _ = made[index]
        options = HookOptions(priority=priority, name=f"h{index}", owner="mod")
        undo_direct.append(direct.add(event, handler(f"h{index}"), options))
        undo_scoped.append(scope.add(event, handler(f"h{index}"), options))
        by_index[index] = (undo_direct[-1], undo_scoped[-1])
    if live_from == len(order):
        scope.activate()
    assert scoped_registry.handler_info() == direct.handler_info()
    for index in sorted(withdrawn & by_index.keys()):
        for undo in by_index[index]:
            undo()
            undo()  # a second call does nothing
    assert scoped_registry.handler_info() == direct.handler_info()
    for event in NAMES:
        ran = [
            asyncio.run(registry.emit(event, {})).data.get("ran")
            for registry in (direct, scoped_registry)
        ]
        assert ran[0] == ran[1]
    scope.deactivate()
    assert scoped_registry.handler_info() == []
    scope.activate()  # back in, each in its place
    assert scoped_registry.handler_info() == direct.handler_info()


@pytest.mark.parametrize(
    ("event", "handler_", "options", "error"),
    [
        ("Tool:Pre", handler("h"), HookOptions(), ValueError),
        ("tool:pre", "not callable", HookOptions(), TypeError),
    ],
)
def test_a_bad_scoped_registration_fails_when_made_not_when_live(
    event: str, handler_: Any, options: HookOptions, error: type[Exception]
) -> None:
    registry = HookRegistry()
    scope = ScopedHooks(registry, "mod")
    with pytest.raises(error):
        scope.add(event, handler_, options)
    scope.activate()
    assert registry.handler_info() == []


def test_a_registry_that_registers_its_own_way_gets_every_scoped_registration() -> None:
    seen: list[str] = []

    class Counting(HookRegistry):
        def add(self, event: str, handler: Any, options: HookOptions) -> Unregister:
            seen.append(event)
            return super().add(event, handler, options)

    registry = Counting()
    scope = ScopedHooks(registry, "mod")
    scope.add(events.TOOL_PRE, handler("a"), HookOptions(name="a"))
    scope.activate()
    scope.add(events.TOOL_POST, handler("b"), HookOptions(name="b"))
    assert seen == [events.TOOL_PRE, events.TOOL_POST]
    assert registry.list_handlers() == {events.TOOL_POST: ["b"], events.TOOL_PRE: ["a"]}


def test_an_unregister_leads_to_neither_the_scope_nor_the_registry() -> None:
    """What a module gets back from a registration has no public attribute that reaches
    the loader's controls or the registry's table (as the module's hooks view has none)."""
    registry = HookRegistry()
    scope = ScopedHooks(registry, "mod")
    undo = scope.add(events.TOOL_PRE, handler("a"), HookOptions(name="a"))
    scope.activate()
    seen: list[object] = []
    frontier: list[object] = [undo, getattr(undo, "__self__", None)]
    for _ in range(3):
        frontier = [
            getattr(obj, name)
            for obj in frontier
            for name in dir(obj)
            if not name.startswith("_") and not callable(getattr(obj, name))
        ]
        seen += frontier
    assert not [v for v in seen if isinstance(v, ScopedHooks | HookRegistry | dict)]
    undo()
    assert registry.handler_info() == []


def test_one_handler_on_many_events_is_checked_named_and_overridden_for_each() -> None:
    """A subscription registers one handler with one options record on every event: the
    scope checks only the event again for the repeats, and the result is what direct
    registrations give (same names, order, overrides); a bad event among them still fails
    when it is made."""
    from concurrent.futures import ThreadPoolExecutor

    from amplifier_hooks.bundles.format import HandlerOverride

    every = list(events.STANDARD_EVENTS)
    with ThreadPoolExecutor(1) as pool:
        direct, scoped_registry = (
            HookRegistry(plain_handlers=pool),
            HookRegistry(plain_handlers=pool),
        )
        scope = ScopedHooks(
            scoped_registry, "mod", {"gone": HandlerOverride(enabled=False),
                                     "log": HandlerOverride(priority=7)},
        )  # fmt: skip
        ran: list[str] = []

        def log(event: str, data: dict[str, Any]) -> None:
            ran.append(event)

        gone = handler("gone")
        options = HookOptions(priority=1)
        for event in every:
            direct.add(event, log, HookOptions(priority=7, name="log", owner="mod"))
            scope.add(event, log, options)
            assert scope.add(event, gone, options)() is None  # disabled: a no-op unregister
        with pytest.raises(ValueError):
            scope.add("Not An Event", log, options)  # after the same pair: still checked
        with pytest.raises(TypeError):
            scope.add(events.TOOL_PRE, "not callable", options)
        scope.activate()
        assert scoped_registry.handler_info() == direct.handler_info()
        assert scope.names_seen == {"log", "gone"}
        for event in every:  # each placed in the registry's pool, each runs once
            asyncio.run(scoped_registry.emit(event, {}))
        assert ran == every
