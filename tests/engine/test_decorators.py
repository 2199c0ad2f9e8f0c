"""@hook marks without registering; register_all takes every marked function at once."""

from __future__ import annotations

import types
from typing import Any

import pytest

from amplifier_hooks import HookOptions, HookRegistry, HookResult, hook
from amplifier_hooks.engine.decorators import HOOK_MARKS_ATTR, marked_handlers

MODULE_SOURCE = """
from amplifier_hooks import HookResult, hook

@hook("tool:pre", priority=5, name="guard", timeout=2.0, fail_closed=True)
async def check(event, data):
    return HookResult(action="deny", reason="guarded")

@hook("tool:post")
@hook("tool:error", priority=-1)
def audit(event, data):
    CALLS.append(event)

def helper(event, data):
    raise AssertionError("not a hook")

CALLS = []
"""


def make_module() -> types.ModuleType:
    module = types.ModuleType("fake_hooks")
    exec(compile(MODULE_SOURCE, "fake_hooks.py", "exec"), module.__dict__)
    return module


def test_hook_is_annotation_only() -> None:
    async def handler(event: str, data: dict[str, Any]) -> None:
        return None

    marked = hook("tool:pre", priority=3)(handler)
    assert marked is handler  # the function itself, unchanged
    assert getattr(handler, HOOK_MARKS_ATTR) == (("tool:pre", HookOptions(priority=3)),)


def test_importing_a_module_of_hooks_changes_no_registry() -> None:
    registry = HookRegistry()
    make_module()
    assert registry.list_handlers() == {}


def test_hook_rejects_a_bad_event_name_at_decoration() -> None:
    with pytest.raises(ValueError, match="event name"):
        hook("ToolPre")


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"priority": 1.5}, TypeError),
        ({"timeout": -1}, ValueError),
        ({"rate_limit": (0, 1.0)}, ValueError),
    ],
)
def test_hook_rejects_bad_options_at_decoration(
    options: dict[str, Any], error: type[Exception]
) -> None:
    # The same record, checked the same way, as `register` builds: a bad option fails when
    # the module is imported, not when a registry takes the function.
    with pytest.raises(error):
        hook("tool:pre", **options)


async def test_register_all_takes_every_marked_function_of_a_module() -> None:
    module = make_module()
    registry = HookRegistry()
    undo = registry.register_all(module, owner="fake")
    assert registry.list_handlers() == {
        "tool:error": ["audit"],
        "tool:post": ["audit"],
        "tool:pre": ["guard"],
    }
    info = {(i.event, i.name): i for i in registry.handler_info()}
    guard = info[("tool:pre", "guard")]
    assert (guard.priority, guard.timeout, guard.fail_closed, guard.owner) == (
        5,
        2.0,
        True,
        "fake",
    )
    assert info[("tool:error", "audit")].priority == -1
    resolution = await registry.emit("tool:pre", {})
    assert (resolution.action, resolution.denied_by) == ("deny", "guard")
    await registry.emit("tool:post", {})
    await registry.emit("tool:error", {})
    assert module.CALLS == ["tool:post", "tool:error"]
    undo()
    assert registry.list_handlers() == {}
    undo()  # idempotent like single unregisters


class Plugin:
    """Hooks as methods, with state on the instance."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.not_a_hook = "plain attribute"

    @hook("tool:pre")
    async def remember(self, event: str, data: dict[str, Any]) -> None:
        self.seen.append(data["tool_name"])

    @hook("tool:post", priority=1)
    def annotate(self, event: str, data: dict[str, Any]) -> HookResult:
        return HookResult(action="inject_context", context_injection=f"{len(self.seen)} seen")

    @staticmethod
    @hook("session:start")
    def started(event: str, data: dict[str, Any]) -> None:
        return None

    def undecorated(self, event: str, data: dict[str, Any]) -> None:
        raise AssertionError("not a hook")


class SubPlugin(Plugin):
    @hook("tool:error")
    def on_error(self, event: str, data: dict[str, Any]) -> None:
        return None


async def test_register_all_binds_methods_of_an_instance() -> None:
    plugin = Plugin()
    registry = HookRegistry()
    registry.register_all(plugin)
    assert registry.list_handlers() == {
        "session:start": ["started"],
        "tool:post": ["annotate"],
        "tool:pre": ["remember"],
    }
    await registry.emit("tool:pre", {"tool_name": "bash"})
    resolution = await registry.emit("tool:post", {})
    assert plugin.seen == ["bash"]
    assert resolution.context_injection == "1 seen"


def test_register_all_includes_inherited_methods() -> None:
    registry = HookRegistry()
    registry.register_all(SubPlugin())
    assert set(registry.list_handlers()) == {"session:start", "tool:post", "tool:pre", "tool:error"}


def test_instances_do_not_share_handlers() -> None:
    first = Plugin()
    bound = [func for func, _, _ in marked_handlers(first) if hasattr(func, "__self__")]
    assert len(bound) == 2
    assert all(func.__self__ is first for func in bound)  # type: ignore[attr-defined]


def test_register_all_of_something_without_hooks_registers_nothing() -> None:
    registry = HookRegistry()
    registry.register_all(types.ModuleType("empty"))
    registry.register_all(object())
    assert registry.list_handlers() == {}


def test_a_marked_non_callable_is_ignored() -> None:
    holder = types.SimpleNamespace(value=3)
    holder.flag = types.SimpleNamespace()
    setattr(holder.flag, HOOK_MARKS_ATTR, (("tool:pre", HookOptions()),))
    assert list(marked_handlers(holder)) == []


class WithProperty:
    @property
    def connection(self) -> None:
        raise RuntimeError("must not be read by register_all")

    @hook("tool:pre")
    def check(self, event: str, data: dict[str, Any]) -> None:
        return None


def test_register_all_does_not_read_properties() -> None:
    registry = HookRegistry()
    registry.register_all(WithProperty())
    assert registry.list_handlers() == {"tool:pre": ["check"]}
