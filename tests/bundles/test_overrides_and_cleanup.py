"""Handler overrides from the bundle, the scoped view a module gets, and unmounting."""

from __future__ import annotations

from typing import Any

import pytest

from amplifier_hooks.bundles import Bundle, HandlerOverride
from amplifier_hooks.bundles.loading import MountedBundle, build_coordinator
from amplifier_hooks.session.coordinator import Coordinator

from .conftest import (
    broken,
    echo,
    owners,
    seen,
)


async def test_handler_overrides_apply_by_name(
    coordinator: Coordinator, logs: list[dict[str, Any]]
) -> None:
    overrides = {
        "stamp": HandlerOverride(priority=-7, timeout=0, fail_closed=True),
        "observe": HandlerOverride(enabled=False),
        "no_such_handler": HandlerOverride(priority=1),
    }
    report = await MountedBundle(coordinator).load(Bundle(hooks=[echo("a", handlers=overrides)]))
    info = {h.name: h for h in coordinator.hooks.handler_info()}
    assert set(info) == {"stamp"}  # observe was never registered
    stamp = info["stamp"]
    assert (stamp.priority, stamp.timeout, stamp.fail_closed, stamp.owner) == (-7, None, True, "a")
    assert report.unused_overrides == {"a": ["no_such_handler"]}
    warning = next(r for r in logs if r["event"].startswith("bundle overrides handlers"))
    assert warning["handlers"] == ["no_such_handler"]
    assert warning["registered"] == ["observe", "stamp"]


async def test_overrides_from_a_bundle_file_change_the_run_order() -> None:
    bundle = Bundle(
        hooks=[
            echo("first", handlers={"stamp": HandlerOverride(priority=50)}),
            echo("second"),
        ]
    )
    coord = await build_coordinator(bundle)
    assert await seen(coord) == ["second", "first"]
    await coord.cleanup()


async def test_cleanup_removes_everything_a_module_registered(
    coordinator: Coordinator, journal: list[Any]
) -> None:
    session = MountedBundle(coordinator)
    await session.load(Bundle(hooks=[echo("a"), echo("b")]))
    proxy = session.modules[0].proxy
    proxy.register_contributor("status", "a", lambda: "a-status")
    late_cleanup: list[str] = []
    proxy.register_cleanup(lambda: late_cleanup.append("ran"))
    assert coordinator.get_capability("echo.a") == "a"
    assert await coordinator.collect_contributions("status") == ["a-status"]

    await session.unload()

    assert coordinator.hooks.handler_info() == []
    assert coordinator.get_capability("echo.a") is None
    assert await coordinator.collect_contributions("status") == []
    assert late_cleanup == ["ran"]
    assert journal[-2:] == [("cleanup", "b"), ("cleanup", "a")]  # newest first
    with pytest.raises(RuntimeError, match="'a' is unloaded"):
        proxy.hooks.register("tool:pre", lambda e, d: None)


async def test_a_failing_cleanup_is_logged_and_the_others_still_run(
    coordinator: Coordinator, journal: list[Any], logs: list[dict[str, Any]]
) -> None:
    session = MountedBundle(coordinator)
    await session.load(Bundle(hooks=[echo("a"), broken("cleanup_raises", "b")]))
    await session.unload()
    failure = next(r for r in logs if r["event"] == "hook module cleanup failed")
    assert (failure["module"], failure["error"]) == ("b", "OSError: disk gone")
    assert journal[-1] == ("cleanup", "a")


async def test_coordinator_cleanup_unmounts_the_bundle(journal: list[Any]) -> None:
    coord = await build_coordinator(Bundle(hooks=[echo("a")]))
    assert owners(coord) == {"tool:pre/stamp": "a", "tool:post/observe": "a"}
    await coord.cleanup()
    assert coord.hooks.handler_info() == []


async def test_handlers_registered_outside_the_bundle_survive_reload_and_unload(
    coordinator: Coordinator,
) -> None:
    def runtime_guard(event: str, data: dict[str, Any]) -> None:
        return None

    coordinator.hooks.register("tool:pre", runtime_guard, 100, name="runtime_guard")
    session = MountedBundle(coordinator)
    await session.load(Bundle(hooks=[echo("a")]))
    await session.reload(Bundle(hooks=[echo("b")]))
    assert coordinator.hooks.list_handlers("tool:pre") == {"tool:pre": ["stamp", "runtime_guard"]}
    await session.unload()
    assert coordinator.hooks.list_handlers("tool:pre") == {"tool:pre": ["runtime_guard"]}


async def test_scoped_view_passes_emit_and_listing_through(coordinator: Coordinator) -> None:
    session = MountedBundle(coordinator)
    await session.load(Bundle(hooks=[echo("a")]))
    hooks = session.modules[0].proxy.hooks
    resolution = await hooks.emit("tool:pre", {"x": 1})
    assert resolution.data["seen"] == ["a"]
    assert hooks.list_handlers("tool:pre") == {"tool:pre": ["stamp"]}
