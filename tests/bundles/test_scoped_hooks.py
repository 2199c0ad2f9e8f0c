"""The registry a mounted module receives (`ModuleHooks`): what it offers, and nothing more.

A module may call the members of `amplifier_hooks.modules.HooksView` plus what the reference's
registry offers a published Amplifier module (`on`, `set_default_fields`); the rest of
`HookRegistry` is the runtime's, and the lifecycle of its registrations (`ScopedHooks`) the
loader's: neither is reachable.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.bundles import Bundle, BundleError, HookEntry
from amplifier_hooks.bundles.loading import MountedBundle, build_coordinator
from amplifier_hooks.engine.result import HookResult
from amplifier_hooks.modules import HooksView
from amplifier_hooks.modules.module_hooks import ModuleHooks
from amplifier_hooks.modules.scoped import ScopedHooks
from amplifier_hooks.session.coordinator import Coordinator

from .conftest import echo

# -- the surface matches the protocol -------------------------------------------------------


def protocol_members(protocol: type) -> set[str]:
    """The public methods a protocol class declares, itself or in the protocols it extends
    (`HooksView` takes ``register`` and ``add`` from `Registrar`)."""
    return {
        name
        for klass in protocol.__mro__
        if getattr(klass, "_is_protocol", False) and klass.__module__.startswith("amplifier_hooks")
        for name, value in vars(klass).items()
        if not name.startswith("_") and callable(value)
    }


def surface_mismatches(cls: type, protocol: type) -> list[str]:
    """Each protocol member ``cls`` lacks, or offers with other parameters (names, kinds,
    defaults; the types are mypy's to check)."""
    problems: list[str] = []
    for name in sorted(protocol_members(protocol)):
        mine = inspect.getattr_static(cls, name, None)
        if mine is None:
            problems.append(f"{name}: missing")
            continue
        wanted = [
            (p.name, p.kind, p.default)
            for p in inspect.signature(getattr(protocol, name)).parameters.values()
        ]
        got = [
            (p.name, p.kind, p.default)
            for p in inspect.signature(getattr(cls, name)).parameters.values()
        ]
        if got != wanted:
            problems.append(f"{name}: {got} instead of {wanted}")
        if inspect.iscoroutinefunction(getattr(protocol, name)) != inspect.iscoroutinefunction(
            getattr(cls, name)
        ):
            problems.append(f"{name}: async differs")
    return problems


def test_module_hooks_has_every_host_hooks_member_with_its_parameters() -> None:
    assert protocol_members(HooksView) >= {"register", "add", "emit", "list_handlers"}
    assert surface_mismatches(ModuleHooks, HooksView) == []


def test_the_surface_check_reports_a_missing_or_changed_member() -> None:
    """The check above can fail: a class short of one member, or with one changed."""

    class Short(ModuleHooks):
        list_handlers = None  # type: ignore[assignment]

        async def emit_and_collect(
            self, event: str, data: Any = None, timeout: float = 2.0
        ) -> list[Any]:
            return []

    problems = surface_mismatches(Short, HooksView)
    assert problems[0].startswith("emit_and_collect: ")
    assert problems[1] == "list_handlers: missing"
    assert len(problems) == 2


# -- a module uses every allowed member through the scoped host ---------------------------------

SCOPED_MODULE = """
from amplifier_hooks import HookOptions, HookResult, hook

seen = {}


class Marked:
    @hook("tool:post", name="marked")
    def marked(self, event, data):
        seen.setdefault("marked", []).append(data["tool_name"])


async def mount(host, config):
    hooks = host.hooks

    def stamp(event, data):
        seen["agent"] = data.get("agent")
        return HookResult(action="modify", data={**data, "stamped": True})

    async def relay(event, data):
        # Emits from a handler reach every module's handlers, not only this module's.
        seen["relayed"] = (await hooks.emit("scoped:ping", {"n": 1})).data["n"]
        seen["collected"] = await hooks.emit_and_collect("scoped:ask", {})

    seen["unregister"] = [
        hooks.register("tool:pre", stamp, 5, name="stamp"),
        hooks.on("tool:pre", lambda event, data: None, name="watch"),
        hooks.add("tool:pre", relay, HookOptions(priority=20, name="relay")),
        hooks.register_all(Marked()),
    ]
    hooks.set_default_fields(agent="builder")


async def on_session_ready(host):
    seen["listed"] = host.hooks.list_handlers()
"""


@pytest.fixture
def scoped_module(tmp_path: Path) -> Iterator[dict[str, Any]]:
    package = tmp_path / "scoped-probe" / "amplifier_module_scoped_probe"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(SCOPED_MODULE, encoding="utf-8")
    (tmp_path / "bundle.yaml").write_text(
        "hooks:\n"
        f"  - module: scoped-probe\n"
        f"    source: {package.parent}\n"
        "    handlers: {watch: {priority: 10}}\n",
        encoding="utf-8",
    )
    yield {"bundle": tmp_path / "bundle.yaml"}
    sys.modules.pop("amplifier_module_scoped_probe", None)


async def test_a_module_uses_every_allowed_member_through_the_scoped_host(
    scoped_module: dict[str, Any],
) -> None:
    coordinator = await build_coordinator(scoped_module["bundle"])
    seen = sys.modules["amplifier_module_scoped_probe"].seen
    coordinator.hooks.register("scoped:ping", lambda e, d: None, name="runtime_ping")
    coordinator.hooks.register(
        "scoped:ask", lambda e, d: HookResult(action="continue", data={"answer": 42})
    )

    # register / on / add / register_all: each the module's, overrides applied by name.
    owned = {(h.event, h.name): (h.owner, h.priority) for h in coordinator.hooks.handler_info()}
    assert owned[("tool:pre", "stamp")] == ("scoped-probe", 5)
    assert owned[("tool:pre", "watch")] == ("scoped-probe", 10)  # the bundle's override
    assert owned[("tool:pre", "relay")] == ("scoped-probe", 20)
    assert owned[("tool:post", "marked")] == ("scoped-probe", 0)
    assert seen["listed"] == {"tool:post": ["marked"], "tool:pre": ["stamp", "watch", "relay"]}

    outcome = await coordinator.dispatch("tool:pre", {"tool_name": "bash"})
    assert outcome.data["stamped"] is True
    assert seen["agent"] == "builder"  # set_default_fields reached the session's emits
    assert seen["relayed"] == 1  # emit, through the real registry
    assert seen["collected"] == [{"answer": 42}]  # emit_and_collect, the runtime's handler
    await coordinator.dispatch("tool:post", {"tool_name": "bash"})
    assert seen["marked"] == ["bash"]

    seen["unregister"][1]()  # an unregister function the scoped host returned works
    assert coordinator.hooks.list_handlers("tool:pre") == {"tool:pre": ["stamp", "relay"]}

    await coordinator.cleanup()
    assert not [h for h in coordinator.hooks.handler_info() if h.owner == "scoped-probe"]


# -- nothing else of the registry is reachable -------------------------------------------------

RUNTIME_ONLY = [
    "handler_info",
    "events",
    "timeout_for",
    "max_depth",
    "max_concurrency",
    "_handlers",
    "_defaults",
    "_prepare",
]


@pytest.fixture
async def loaded(coordinator: Coordinator) -> MountedBundle:
    session = MountedBundle(coordinator)
    assert (await session.load(Bundle(hooks=[echo("a")]))).ok
    return session


@pytest.mark.parametrize("name", RUNTIME_ONLY)
async def test_registry_internals_are_not_reachable_through_the_scoped_host(
    loaded: MountedBundle, coordinator: Coordinator, name: str
) -> None:
    hooks = loaded.modules[0].proxy.hooks
    assert hasattr(coordinator.hooks, name)  # the real registry has it ...
    with pytest.raises(AttributeError):
        getattr(hooks, name)  # ... a module does not get it
    assert not hasattr(hooks, name)


async def test_an_unloaded_module_cannot_set_default_fields(
    loaded: MountedBundle, coordinator: Coordinator
) -> None:
    hooks = loaded.modules[0].proxy.hooks
    hooks.set_default_fields(agent="builder")
    await loaded.unload()
    with pytest.raises(RuntimeError, match="'a' is unloaded"):
        hooks.set_default_fields(agent="ghost")
    seen: list[dict[str, Any]] = []
    coordinator.hooks.register("tool:pre", lambda e, d: seen.append(d))
    await coordinator.dispatch("tool:pre", {})
    assert seen[0]["agent"] == "builder"  # session-wide, as in the reference: fields stay


# -- the loader's controls are not the module's ------------------------------------------------

LIFECYCLE = [
    "activate",
    "deactivate",
    "close",
    "make_approving",
    "registered",
    "state",
    "running",
    "idle",
    "approving",
    "names_seen",
    "owner",
]

LIFECYCLE_PROBE = """
from amplifier_hooks import HookResult

seen = {"during_mount": []}


async def mount(host, config):
    views = {
        "hooks": host.hooks,
        "get": host.get("hooks"),
        "mount_points": host.mount_points["hooks"],
    }
    seen["reached"] = {}
    for where, hooks in views.items():
        for name in config["names"]:
            try:
                getattr(hooks, name)
            except AttributeError:
                continue
            seen["reached"].setdefault(where, []).append(name)

    def mine(event, data):
        seen["during_mount"].append(event)
        return HookResult(action="deny", reason="probe")

    host.hooks.register("tool:pre", mine, name="mine")
    if config.get("go_live"):
        host.hooks.activate()  # a module trying to go live before the rest of its bundle
    # Staged, not live: the module's own emit during mount does not reach its handler.
    seen["emitted"] = (await host.hooks.emit("tool:pre", {})).action
"""


@pytest.fixture
def lifecycle_probe(tmp_path: Path) -> Iterator[Path]:
    package = tmp_path / "lifecycle-probe" / "amplifier_module_lifecycle_probe"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(LIFECYCLE_PROBE, encoding="utf-8")
    yield package.parent
    sys.modules.pop("amplifier_module_lifecycle_probe", None)


def probe_entry(source: Path, **config: Any) -> HookEntry:
    return HookEntry(module="lifecycle-probe", source=str(source), config=config)


async def test_a_module_reaches_none_of_the_lifecycle_through_its_hooks(
    lifecycle_probe: Path, coordinator: Coordinator
) -> None:
    session = MountedBundle(coordinator)
    report = await session.load(
        Bundle(hooks=[probe_entry(lifecycle_probe, names=LIFECYCLE), echo("a")])
    )
    assert report.ok
    seen = sys.modules["amplifier_module_lifecycle_probe"].seen
    assert seen["reached"] == {}  # through host.hooks, get("hooks") and mount_points alike
    assert seen["emitted"] == "continue" and seen["during_mount"] == []
    # The loader, holding the lifecycle, put it live with the rest of the bundle.
    assert coordinator.hooks.list_handlers("tool:pre") == {"tool:pre": ["mine", "stamp"]}
    assert not (await coordinator.dispatch("tool:pre", {})).allowed
    await session.unload()
    assert coordinator.hooks.handler_info() == []


async def test_the_lifecycle_probe_can_see_a_member_it_looks_for(
    lifecycle_probe: Path, coordinator: Coordinator
) -> None:
    """The probe above can fail: a name the view does have is reported as reached."""
    session = MountedBundle(coordinator)
    assert (await session.load(Bundle(hooks=[probe_entry(lifecycle_probe, names=["emit"])]))).ok
    reached = sys.modules["amplifier_module_lifecycle_probe"].seen["reached"]
    assert reached == {"hooks": ["emit"], "get": ["emit"], "mount_points": ["emit"]}
    await session.unload()


async def test_a_module_that_tries_to_go_live_during_mount_fails_its_load(
    lifecycle_probe: Path, coordinator: Coordinator
) -> None:
    session = MountedBundle(coordinator)
    probe = probe_entry(lifecycle_probe, names=[], go_live=True)
    with pytest.raises(
        BundleError, match=r"hooks\[0\]: .*'ModuleHooks' .* no attribute 'activate'"
    ):
        await session.load(Bundle(hooks=[probe, echo("a")]))
    assert coordinator.hooks.handler_info() == []  # nothing of the bundle went live

    # Optional, it is left out and the rest of the bundle goes live without it.
    report = await session.load(
        Bundle(hooks=[probe.model_copy(update={"optional": True}), echo("a")])
    )
    [failure] = report.failures
    assert (failure.key, failure.stage) == ("lifecycle-probe", "mount")
    assert coordinator.hooks.list_handlers("tool:pre") == {"tool:pre": ["stamp"]}
    assert (await coordinator.dispatch("tool:pre", {})).allowed
    await session.unload()


@pytest.mark.parametrize("name", LIFECYCLE)
async def test_lifecycle_controls_are_not_attributes_of_the_module_view(
    loaded: MountedBundle, name: str
) -> None:
    mounted = loaded.modules[0]
    assert hasattr(mounted.scope, name)  # the loader's object has it ...
    with pytest.raises(AttributeError):
        getattr(mounted.proxy.hooks, name)  # ... the module's view does not


async def test_no_public_attribute_of_the_view_leads_to_the_scoped_hooks(
    loaded: MountedBundle,
) -> None:
    view = loaded.modules[0].proxy.hooks
    assert not isinstance(view, ScopedHooks)
    assert not hasattr(view, "__dict__")  # nothing can be hung on it either
    with pytest.raises(AttributeError):
        view.extra = 1  # type: ignore[attr-defined]
    for name in dir(view):
        if name.startswith("_"):
            continue
        value = getattr(view, name)
        assert not isinstance(value, ScopedHooks), name
        # A method is the view's own, not one bound to the object behind it.
        assert getattr(value, "__self__", view) is view, name
    assert repr(view) == "<ModuleHooks of hook module 'a'>"


async def test_a_module_cannot_withdraw_itself_through_its_coordinator(
    loaded: MountedBundle, coordinator: Coordinator
) -> None:
    proxy = loaded.modules[0].proxy
    with pytest.raises(AttributeError, match="'withdraw'"):
        proxy.withdraw  # type: ignore[attr-defined]  # noqa: B018
    assert coordinator.hooks.list_handlers("tool:pre") == {"tool:pre": ["stamp"]}
    await loaded.unload()  # the loader still withdraws it
    assert coordinator.hooks.handler_info() == []
