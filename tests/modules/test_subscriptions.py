"""Event subscriptions: one handler on every event matching include/exclude globs."""

from __future__ import annotations

from typing import Any

import pytest

from amplifier_hooks import Coordinator
from amplifier_hooks.engine.options import HookOptions
from amplifier_hooks.modules.subscriptions import Subscriptions, validate_event_pattern


async def noop(event: str, data: dict[str, Any]) -> None:
    return None


async def test_globs_select_events_and_refresh_adds_contributed_ones() -> None:
    coordinator = Coordinator()
    subs = Subscriptions(
        coordinator.hooks,
        noop,
        HookOptions(priority=5, name="watch", owner="test"),
        include=["tool:*", "todo:*"],
        exclude=["tool:error"],
    )
    subs.add(["tool:pre", "tool:post", "tool:error", "prompt:submit"])
    assert subs.events == ["tool:pre", "tool:post"]
    coordinator.register_contributor("observability.events", "todo", lambda: ["todo:updated"])
    assert await subs.refresh(coordinator) == ["todo:updated"]
    assert await subs.refresh(coordinator) == []  # idempotent per event
    assert coordinator.hooks.list_handlers("todo:updated") == {"todo:updated": ["watch"]}
    assert {i.owner for i in coordinator.hooks.handler_info()} == {"test"}
    subs.close()
    subs.close()
    assert coordinator.hooks.list_handlers() == {}


async def test_literal_includes_are_registered_even_if_nobody_contributes_them() -> None:
    coordinator = Coordinator()
    subs = Subscriptions(coordinator.hooks, noop, HookOptions(name="w"), include=["custom:event"])
    subs.add([])
    assert subs.events == ["custom:event"]


@pytest.mark.parametrize("pattern", ["Tool:*", "tool pre", "tool:$"])
def test_bad_patterns_are_rejected_with_the_pattern_named(pattern: str) -> None:
    with pytest.raises(ValueError, match="invalid event"):
        validate_event_pattern(pattern)
