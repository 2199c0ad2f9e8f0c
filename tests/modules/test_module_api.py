"""The module-author API (`amplifier_hooks.modules`): `Mounting` and `Mounts`, the config
field types, and the `CoordinatorView` a module's ``mount`` receives — checked at run time through a
real bundle load."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

import amplifier_hooks.modules as module_api
from amplifier_hooks import Coordinator, toolcalls
from amplifier_hooks.bundles.loading import MountedBundle, build_coordinator
from amplifier_hooks.engine.options import HookOptions
from amplifier_hooks.modules import (
    ChannelName,
    EventName,
    EventPattern,
    ModuleConfigError,
    Mounting,
    Mounts,
    PathText,
    ToolName,
    parse_module_config,
)


def noop(event: str, data: dict[str, Any]) -> None:
    return None


# -- Mounting ---------------------------------------------------------------------------------


async def test_cleanup_undoes_everything_newest_first_once() -> None:
    coordinator = Coordinator()
    order: list[str] = []
    mounting = Mounting(coordinator, "mine")
    mounting.at_cleanup(lambda: order.append("first"))
    mounting.register("tool:pre", noop, name="guard")
    mounting.contribute("mine.status", lambda: "ok")
    mounting.offer("mine.tool", len)
    mounting.observe(lambda event, outcome: None)
    mounting.at_cleanup(lambda: order.append("last"))
    assert [(i.name, i.owner) for i in coordinator.hooks.handler_info()] == [("guard", "mine")]
    assert await coordinator.collect_contributions("mine.status") == ["ok"]
    assert coordinator.get_capability("mine.tool") is len

    mounting.cleanup()
    mounting.cleanup()  # idempotent
    assert order == ["last", "first"]
    assert coordinator.hooks.events() == []
    assert await coordinator.collect_contributions("mine.status") == []
    assert coordinator.get_capability("mine.tool") is None
    assert len(coordinator.observers) == 0
    assert mounting.closed
    with pytest.raises(RuntimeError, match="cleaned up"):
        mounting.register("tool:pre", noop)
    with pytest.raises(RuntimeError, match="cleaned up"):
        mounting.offer("mine.tool", len)
    assert coordinator.hooks.events() == [] and coordinator.get_capability("mine.tool") is None


def test_one_failing_undo_does_not_keep_the_rest() -> None:
    coordinator = Coordinator()
    mounting = Mounting(coordinator, "mine")
    mounting.register("tool:pre", noop, name="guard")

    def broken() -> None:
        raise OSError("disk gone")

    mounting.at_cleanup(broken)  # undone first, fails; the handler is still taken out
    mounting.cleanup()
    assert coordinator.hooks.events() == []


async def test_a_failing_mount_takes_back_what_it_registered() -> None:
    coordinator = Coordinator()
    with pytest.raises(ValueError, match="bad"), Mounting(coordinator, "mine") as mounting:
        await mounting.subscribe(noop, HookOptions(name="all"), include=["tool:*"])
        mounting.register("session:start", noop, name="start")
        raise ValueError("bad")
    assert coordinator.hooks.events() == []
    assert mounting.closed


async def test_subscriptions_follow_contributed_events_at_refresh() -> None:
    coordinator = Coordinator()
    mounting = Mounting(coordinator, "mine")
    subscriptions = await mounting.subscribe(
        noop, HookOptions(name="deploys"), include=["deploy:*"]
    )
    assert subscriptions.events == []
    coordinator.register_contributor("observability.events", "deployer", lambda: ["deploy:done"])
    assert await mounting.refresh() == ["deploy:done"]
    assert await mounting.refresh() == []  # idempotent
    assert coordinator.hooks.list_handlers("deploy:done") == {"deploy:done": ["deploys"]}
    mounting.cleanup()
    assert coordinator.hooks.events() == []


async def test_mounts_refresh_each_hosts_live_mountings() -> None:
    mounts = Mounts()
    first, second = Coordinator(), Coordinator()
    a = mounts.start(first, "mine")
    await a.subscribe(noop, HookOptions(name="deploys"), include=["deploy:*"])
    b = mounts.start(second, "mine")
    await b.subscribe(noop, HookOptions(name="deploys"), include=["deploy:*"])
    assert mounts.count(first) == mounts.count(second) == 1

    first.register_contributor("observability.events", "x", lambda: ["deploy:done"])
    assert await mounts.refresh(first) == ["deploy:done"]
    assert await mounts.refresh(second) == []
    assert second.hooks.events() == []

    a.cleanup()
    assert mounts.count(first) == 0
    first.register_contributor("observability.events", "y", lambda: ["deploy:failed"])
    assert await mounts.refresh(first) == []
    assert first.hooks.events() == []


async def test_mounts_hold_hosts_weakly() -> None:
    mounts = Mounts()
    coordinator = Coordinator()
    mounting = mounts.start(coordinator, "mine")
    await mounting.subscribe(noop, HookOptions(name="all"))
    mounting.observe(lambda event, outcome: None)  # its undo holds the coordinator
    mounting.offer("mine.tool", len)
    assert len(mounts._by_coordinator) == 1
    del coordinator, mounting
    gc.collect()
    assert len(mounts._by_coordinator) == 0


def test_hosts_without_weak_references_are_kept_until_cleanup() -> None:
    class Slotted:
        __slots__ = ("hooks",)

        def __init__(self) -> None:
            self.hooks = Coordinator().hooks

    mounts = Mounts()
    coordinator: Any = Slotted()
    mounting = mounts.start(coordinator, "mine")
    mounting.register("tool:pre", noop)
    assert mounts.count(coordinator) == 1
    mounting.cleanup()
    assert mounts.count(coordinator) == 0 and mounts._by_id == {}


# -- config field types ---------------------------------------------------------------------


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    events: list[EventPattern] = []
    on: list[EventName] = []
    tools: list[ToolName] = []
    channel: ChannelName | None = None
    path: PathText | None = None


@pytest.mark.parametrize(
    ("raw", "path", "fragment"),
    [
        ({"events": ["tool:*", "Tool:Pre"]}, ("events", 1), "invalid event name"),
        ({"events": ["tool:*$"]}, ("events", 0), "unexpected characters"),
        ({"on": ["tool:*"]}, ("on", 0), "invalid event name"),
        ({"tools": ["bash", " "]}, ("tools", 1), "tool names must not be blank"),
        ({"channel": " status"}, ("channel",), "channel must be a non-empty name"),
        ({"path": "logs/\x00.jsonl"}, ("path",), "non-empty path"),
        ({"path": "  "}, ("path",), "non-empty path"),
    ],
)
def test_field_types_name_the_bad_item(
    raw: dict[str, Any], path: tuple[Any, ...], fragment: str
) -> None:
    with pytest.raises(ModuleConfigError) as info:
        parse_module_config(Settings, raw, "mine")
    [problem] = info.value.problems
    assert problem.path == path
    assert fragment in str(info.value)


def test_field_types_accept_good_values() -> None:
    raw = {
        "events": ["tool:*", "todo:updated"],
        "on": ["session:start"],
        "tools": ["bash", "write_*"],
        "channel": "mine.status",
        "path": "~/.amplifier/events.jsonl",
    }
    assert parse_module_config(Settings, raw, "mine").model_dump() == raw


def test_the_module_api_exports_what_modules_use() -> None:
    for name in module_api.__all__:
        assert getattr(module_api, name) is not None
    assert "toolcalls" not in module_api.__all__  # its one home is amplifier_hooks.toolcalls
    assert toolcalls.command_of({"tool_input": {"command": "ls"}}) == "ls"


# -- the CoordinatorView a bundle-loaded module receives --------------------------------

HOST_MODULE = """
from amplifier_hooks import HookResult

seen = {}


async def mount(coordinator, config):
    hooks = coordinator.config.get("hooks") or [{}]
    seen["session"] = (coordinator.session_id, coordinator.parent_id, hooks[0].get("config"))
    seen["dispatching"] = []
    seen["outcomes"] = []

    def guard(event, data):
        seen["dispatching"].append(coordinator.dispatching())
        return HookResult(action="deny", reason="no") if data.get("bad") else None

    coordinator.hooks.register("tool:pre", guard, name="guard")
    coordinator.register_contributor("observability.events", "host-probe", lambda: ["probe:ping"])
    coordinator.register_capability("probe.answer", lambda: 42)
    coordinator.add_observer(lambda e, outcome: seen["outcomes"].append((e, outcome.allowed)))
    coordinator.register_cleanup(lambda: seen.setdefault("cleaned", True))
    seen["known"] = "probe:ping" in await coordinator.known_events()
    seen["contributions"] = await coordinator.collect_contributions("observability.events")
    seen["answer"] = coordinator.get_capability("probe.answer")()
    coordinator.probe_state = {"count": 1}  # shared with the session's other modules
    for name in ("dispatch", "approvals", "injector", "cleanup"):
        seen.setdefault("hidden", []).append(hasattr(coordinator, name))
"""

READER_MODULE = """
seen = {}


async def mount(coordinator, config):
    seen["shared"] = coordinator.probe_state
"""


@pytest.fixture
def host_modules(tmp_path: Path) -> Iterator[Path]:
    for name, text in (("host_probe", HOST_MODULE), ("host_reader", READER_MODULE)):
        package = tmp_path / name.replace("_", "-") / f"amplifier_module_{name}"
        package.mkdir(parents=True)
        (package / "__init__.py").write_text(text, encoding="utf-8")
    yield tmp_path
    for name in ("amplifier_module_host_probe", "amplifier_module_host_reader"):
        sys.modules.pop(name, None)


def write_bundle(root: Path) -> Path:
    path = root / "bundle.yaml"
    path.write_text(
        "hooks:\n"
        f"  - {{module: host-probe, source: {root / 'host-probe'}, config: {{level: 2}}}}\n"
        f"  - {{module: host-reader, source: {root / 'host-reader'}}}\n",
        encoding="utf-8",
    )
    return path


async def test_a_bundle_module_gets_the_whole_host_and_nothing_else(host_modules: Path) -> None:
    coordinator = await build_coordinator(
        write_bundle(host_modules), session_id="s-1", parent_id="p-1"
    )
    probe = sys.modules["amplifier_module_host_probe"].seen
    reader = sys.modules["amplifier_module_host_reader"].seen
    assert probe["session"] == ("s-1", "p-1", {"level": 2})
    assert probe["known"] and probe["contributions"] == [["probe:ping"]]
    assert probe["answer"] == 42
    assert probe["hidden"] == [False, False, False, False]  # no forwarding of the coordinator
    assert reader["shared"] == {"count": 1}  # shared attributes read through another view
    assert coordinator.shared == {"probe_state": {"count": 1}}

    assert not (await coordinator.dispatch("tool:pre", {"bad": True})).allowed
    await coordinator.hooks.emit("tool:pre", {})
    assert probe["dispatching"] == ["tool:pre", None]
    assert probe["outcomes"] == [("tool:pre", False)]

    await coordinator.cleanup()
    assert probe["cleaned"] is True
    assert coordinator.get_capability("probe.answer") is None
    await coordinator.dispatch("tool:pre", {})
    assert probe["outcomes"] == [("tool:pre", False)]  # the observer left with the module


async def test_a_reload_takes_the_old_modules_observer_away(host_modules: Path) -> None:
    coordinator = Coordinator()
    session = MountedBundle(coordinator)
    path = write_bundle(host_modules)
    assert (await session.load(path)).ok
    assert len(coordinator.observers) == 1
    assert (await session.reload(path)).ok
    assert len(coordinator.observers) == 1  # the new mount's only
    outcome = await coordinator.dispatch("tool:pre", {})
    assert outcome.allowed
    await coordinator.cleanup()
