"""The loader: resolving, mounting, isolating failures, overrides, cleanup, atomic reload."""

from __future__ import annotations

import asyncio
import textwrap
from collections.abc import AsyncIterator
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks import HookResult
from amplifier_hooks.bundles import Bundle, BundleError, HandlerOverride, HookEntry, load_bundle
from amplifier_hooks.bundles.loading import BundleSession, build_coordinator, reload_bundle
from amplifier_hooks.bundles.reading import display_path
from amplifier_hooks.coordinator import Coordinator
from amplifier_hooks.testing import ScriptedApprovalProvider

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "bundles"
MODULES = ROOT / "tests" / "fixtures" / "modules"
ECHO = str(MODULES / "fixture-echo")
BROKEN = str(MODULES / "fixture-broken")
GATE = str(MODULES / "fixture-gate")


def echo(key: str, tag: str | None = None, **fields: Any) -> HookEntry:
    return HookEntry(
        id=key, module="fixture-echo", source=ECHO, config={"tag": tag or key}, **fields
    )


def broken(mode: str, key: str = "fixture-broken", *, optional: bool | None = None) -> HookEntry:
    return HookEntry(
        id=key, module="fixture-broken", source=BROKEN, config={"mode": mode}, optional=optional
    )


def gate_entry(tag: str, **config: Any) -> HookEntry:
    return HookEntry(
        id=f"gate-{tag}", module="fixture-gate", source=GATE, config={"tag": tag, **config}
    )


class Gate:
    """What fixture-gate waits on (registered as the capability "gate")."""

    def __init__(self) -> None:
        self.entered = asyncio.Event()
        self.release = asyncio.Event()
        self.mount_entered = asyncio.Event()
        self.mount_release = asyncio.Event()


@pytest.fixture
async def coordinator() -> AsyncIterator[Coordinator]:
    coord = Coordinator()
    yield coord
    await coord.cleanup()


@pytest.fixture
def journal(coordinator: Coordinator) -> list[Any]:
    entries: list[Any] = []
    coordinator.register_capability("journal", entries)
    return entries


async def seen(coord: Coordinator) -> list[str]:
    """The tags of the echo/gate handlers that ran on one tool:pre, in order."""
    outcome = await coord.dispatch("tool:pre", {"tool_name": "read_file"})
    return list(outcome.data.get("seen", []))


def owners(coord: Coordinator) -> dict[str, str | None]:
    return {f"{h.event}/{h.name}": h.owner for h in coord.hooks.handler_info()}


# -- resolution ----------------------------------------------------------------------------


async def test_source_directory_is_imported_in_place(coordinator: Coordinator) -> None:
    report = await BundleSession(coordinator).load(Bundle(hooks=[echo("a")]))
    assert report.ok
    assert report.mounted[0].found_by == f"source {ECHO}"
    assert report.mounted[0].handlers == [("tool:pre", "stamp"), ("tool:post", "observe")]
    assert await seen(coordinator) == ["a"]


async def test_source_single_file(coordinator: Coordinator) -> None:
    entry = HookEntry(module="single-file", source=str(MODULES / "single_file_hook.py"))
    await BundleSession(coordinator).load(Bundle(hooks=[entry]))
    outcome = await coordinator.dispatch("tool:pre", {"tool_input": {"command": "rm -rf x"}})
    assert (outcome.allowed, outcome.reason) == (False, "rm is not allowed here")


async def test_relative_source_in_a_bundle_built_in_code_uses_its_path(
    coordinator: Coordinator,
) -> None:
    bundle = Bundle(
        path=FIXTURES / "virtual.yaml",
        hooks=[HookEntry(module="fixture-echo", source="../modules/fixture-echo")],
    )
    report = await BundleSession(coordinator).load(bundle)
    assert report.mounted[0].found_by == f"source {ECHO}"


async def test_import_name_when_no_source_and_no_entry_point(
    coordinator: Coordinator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(ECHO)
    report = await BundleSession(coordinator).load(Bundle(hooks=[HookEntry(module="fixture-echo")]))
    assert report.mounted[0].found_by == "import amplifier_module_fixture_echo"


async def test_entry_point_comes_before_the_import_name(
    coordinator: Coordinator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(ECHO)
    points = [
        EntryPoint("fixture-echo", "amplifier_module_fixture_echo", "amplifier_hooks.modules"),
        EntryPoint("only-mount", "amplifier_module_fixture_echo:mount", "amplifier_hooks.modules"),
    ]
    monkeypatch.setattr(
        "amplifier_hooks.bundles.finding.entry_points",
        lambda group: [p for p in points if p.group == group],
    )
    bundle = Bundle(
        hooks=[
            HookEntry(module="fixture-echo", config={"tag": "ep"}),
            HookEntry(module="only-mount", config={"tag": "fn"}),
            HookEntry(id="src", module="fixture-echo", source=ECHO, config={"tag": "src"}),
        ]
    )
    report = await BundleSession(coordinator).load(bundle)
    assert [m.found_by for m in report.mounted] == [
        "entry point fixture-echo = amplifier_module_fixture_echo",
        "entry point only-mount = amplifier_module_fixture_echo:mount",
        f"source {ECHO}",  # source wins over the entry point of the same name
    ]
    assert report.mounted[1].on_session_ready is None  # a bare mount function has none
    assert await seen(coordinator) == ["ep", "fn", "src"]


# -- failures: fatal unless the entry is optional ------------------------------------------

MISSING_MODULE = (
    "module 'hooks-does-not-exist' could not be loaded: not found: no source given, no entry "
    "point 'hooks-does-not-exist' in group 'amplifier_hooks.modules' or 'amplifier.modules', "
    "and no importable package 'amplifier_module_hooks_does_not_exist' (install the module, "
    "or give its directory as source:)"
)


def recording_factory(built: list[Coordinator]) -> Any:
    def factory(**kwargs: Any) -> Coordinator:
        built.append(Coordinator(**kwargs))
        return built[-1]

    return factory


async def test_a_missing_module_fails_the_load_naming_file_line_key_and_cause() -> None:
    path = FIXTURES / "missing_module.yaml"
    built: list[Coordinator] = []
    with pytest.raises(BundleError) as info:
        await build_coordinator(path, factory=recording_factory(built))
    assert str(info.value) == f"{display_path(path)}:5: hooks[1]: {MISSING_MODULE}"
    assert (info.value.file, info.value.line, info.value.key_path) == (path, 5, "hooks[1]")
    # the module that did mount was unmounted again: nothing of the bundle is left running
    assert built[0].hooks.handler_info() == []


async def test_an_optional_missing_module_is_reported_and_the_rest_load(
    tmp_path: Path, logs: list[dict[str, Any]]
) -> None:
    path = write_bundle(
        tmp_path,
        "optional.yaml",
        f"""
        includes: [{FIXTURES / "missing_module.yaml"}]
        hooks:
          - module: hooks-does-not-exist
            optional: true
        """,
    )
    coord = await build_coordinator(path)
    session = BundleSession.of(coord)
    assert session is not None and session.report is not None
    assert [m.key for m in session.modules] == ["fixture-echo"]
    [failure] = session.report.failures
    # reported where the entry was last written: the file that made it optional
    assert str(failure) == f"{at(path, 3)}: hooks[0]: {MISSING_MODULE}"
    record = next(r for r in logs if r["event"] == "hook module failed")
    assert (record["module"], record["stage"]) == ("hooks-does-not-exist", "load")
    assert f"{record['where']}: {MISSING_MODULE}".endswith(record["error"])
    assert await seen(coord) == ["echo"]
    await coord.cleanup()


async def test_a_typo_in_the_approval_config_fails_the_load_instead_of_allowing_rm(
    tmp_path: Path,
) -> None:
    """The bug this rule exists for: the guard was skipped and the command allowed."""
    path = write_bundle(
        tmp_path,
        "guarded.yaml",
        f"""
        hooks:
          - module: ah-approval
            source: {APPROVAL}
            config:
              ask_befor_shell: true
        """,
    )
    built: list[Coordinator] = []
    with pytest.raises(BundleError) as info:
        await build_coordinator(path, factory=recording_factory(built))
    assert str(info.value).startswith(
        f"{at(path, 5)}: hooks[0].config.ask_befor_shell: module 'ah-approval' rejected "
        "its config: unknown key 'ask_befor_shell'"
    )
    assert info.value.key_path == "hooks[0].config.ask_befor_shell"
    assert built[0].hooks.handler_info() == []  # no coordinator is handed out at all


async def test_every_required_failure_is_named_in_one_error(tmp_path: Path) -> None:
    path = write_bundle(
        tmp_path,
        "two.yaml",
        f"""
        hooks:
          - module: hooks-does-not-exist
          - module: fixture-echo
            source: {ECHO}
          - module: fixture-broken
            source: {BROKEN}
            config: {{mode: raise}}
        """,
    )
    with pytest.raises(BundleError) as info:
        await build_coordinator(path)
    assert str(info.value).splitlines() == [
        f"{at(path, 2)}: hooks[0]: {MISSING_MODULE}",
        f"{at(path, 5)}: hooks[2]: module 'fixture-broken' failed to mount: "
        "RuntimeError: database unreachable",
    ]
    assert [p.line for p in info.value.problems] == [2, 5]


async def test_module_raising_in_mount_is_isolated_when_optional(
    coordinator: Coordinator,
) -> None:
    report = await BundleSession(coordinator).load(load_bundle(FIXTURES / "raising_module.yaml"))
    assert [m.key for m in report.mounted] == ["fixture-echo"]
    assert [str(f) for f in report.failures] == [
        f"{display_path(FIXTURES / 'raising_module.yaml')}:3: hooks[0]: module 'fixture-broken' "
        "failed to mount: RuntimeError: database unreachable"
    ]
    # the handler it registered before raising never went live
    assert "tool:pre/broken_guard" not in owners(coordinator)
    assert await seen(coordinator) == ["echo"]


async def test_strict_makes_optional_entries_required() -> None:
    built: list[Coordinator] = []
    with pytest.raises(BundleError) as info:
        await build_coordinator(FIXTURES / "strict_raising.yaml", factory=recording_factory(built))
    assert str(info.value) == (
        f"{display_path(FIXTURES / 'raising_module.yaml')}:3: hooks[0]: module 'fixture-broken' "
        "failed to mount: RuntimeError: database unreachable"
    )
    assert built[0].hooks.handler_info() == []
    # strict=False from the caller overrides the bundle: optional means optional again
    coord = await build_coordinator(FIXTURES / "strict_raising.yaml", strict=False)
    assert await seen(coord) == ["echo"]
    await coord.cleanup()
    # ...but never makes a required entry optional
    with pytest.raises(BundleError, match="could not be loaded"):
        await build_coordinator(FIXTURES / "missing_module.yaml", strict=False)


@pytest.mark.parametrize(
    ("mode", "error"),
    [
        ("bad_return", "TypeError: mount returned int; expected a cleanup function or None"),
        ("exit", "SystemExit: 3"),
        ("hang", "did not finish within 0.05s"),
        ("own_timeout", "TimeoutError: upstream slow"),
    ],
)
async def test_mount_failures_are_described(
    coordinator: Coordinator, mode: str, error: str
) -> None:
    session = BundleSession(coordinator, module_timeout=0.05)
    message = f"hooks[0]: module 'fixture-broken' failed to mount: {error}"
    with pytest.raises(BundleError) as info:
        await session.load(Bundle(hooks=[broken(mode), echo("ok")]))
    assert str(info.value) == message
    assert coordinator.hooks.handler_info() == []
    report = await session.load(Bundle(hooks=[broken(mode, optional=True), echo("ok")]))
    assert [m.key for m in report.mounted] == ["ok"]
    assert str(report.failures[0]) == message
    assert "tool:pre/broken_guard" not in owners(coordinator)


async def test_on_session_ready_runs_after_every_mount_with_handlers_live(
    coordinator: Coordinator, journal: list[Any]
) -> None:
    await BundleSession(coordinator).load(Bundle(hooks=[echo("a"), echo("b")]))
    assert journal == [
        ("mount", "a"),
        ("mount", "b"),
        ("ready", "a", ["stamp", "stamp"]),
        ("ready", "b", ["stamp", "stamp"]),
    ]


async def test_failing_on_session_ready_fails_the_load_and_unmounts_everything(
    coordinator: Coordinator, journal: list[Any]
) -> None:
    coordinator.register_capability("broken.not_ready", True)
    session = BundleSession(coordinator)
    with pytest.raises(BundleError) as info:
        await session.load(Bundle(hooks=[echo("a"), broken("none", "b")]))
    assert str(info.value) == (
        "hooks[1]: module 'b' failed in on_session_ready: RuntimeError: not ready today"
    )
    assert session.modules == [] and coordinator.hooks.handler_info() == []
    assert ("cleanup", "a") in journal


async def test_an_optional_module_failing_on_session_ready_unloads_only_that_module(
    coordinator: Coordinator, journal: list[Any]
) -> None:
    coordinator.register_capability("broken.not_ready", True)
    session = BundleSession(coordinator)
    report = await session.load(Bundle(hooks=[echo("a"), broken("none", "b", optional=True)]))
    assert str(report.failures[0]) == (
        "hooks[1]: module 'b' failed in on_session_ready: RuntimeError: not ready today"
    )
    assert [m.key for m in session.modules] == ["a"]
    assert set(owners(coordinator).values()) == {"a"}


# -- overrides and the scoped view ---------------------------------------------------------


async def test_handler_overrides_apply_by_name(
    coordinator: Coordinator, logs: list[dict[str, Any]]
) -> None:
    overrides = {
        "stamp": HandlerOverride(priority=-7, timeout=0, fail_closed=True),
        "observe": HandlerOverride(enabled=False),
        "no_such_handler": HandlerOverride(priority=1),
    }
    report = await BundleSession(coordinator).load(Bundle(hooks=[echo("a", handlers=overrides)]))
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
    session = BundleSession(coordinator)
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
    session = BundleSession(coordinator)
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
    session = BundleSession(coordinator)
    await session.load(Bundle(hooks=[echo("a")]))
    await session.reload(Bundle(hooks=[echo("b")]))
    assert coordinator.hooks.list_handlers("tool:pre") == {"tool:pre": ["stamp", "runtime_guard"]}
    await session.unload()
    assert coordinator.hooks.list_handlers("tool:pre") == {"tool:pre": ["runtime_guard"]}


async def test_scoped_view_passes_emit_and_listing_through(coordinator: Coordinator) -> None:
    session = BundleSession(coordinator)
    await session.load(Bundle(hooks=[echo("a")]))
    hooks = session.modules[0].proxy.hooks
    resolution = await hooks.emit("tool:pre", {"x": 1})
    assert resolution.data["seen"] == ["a"]
    assert hooks.list_handlers("tool:pre") == {"tool:pre": ["stamp"]}
    assert hooks.timeout_for("tool:pre") == coordinator.hooks.timeout_for("tool:pre")


# -- atomic reload ------------------------------------------------------------------------


async def test_a_dispatch_already_running_finishes_on_the_old_set(
    coordinator: Coordinator, journal: list[Any]
) -> None:
    gate = Gate()
    coordinator.register_capability("gate", gate)
    session = BundleSession(coordinator)
    await session.load(Bundle(hooks=[gate_entry("old", block_dispatch=True), echo("old-echo")]))

    running = asyncio.create_task(coordinator.dispatch("tool:pre", {}))
    await gate.entered.wait()  # the old gate handler is mid-dispatch
    reload = asyncio.create_task(session.reload(Bundle(hooks=[echo("new-a"), echo("new-b")])))
    for _ in range(1000):  # let the reload run up to the swap
        if "new-b" in owners(coordinator).values():
            break
        await asyncio.sleep(0)
    assert await seen(coordinator) == ["new-a", "new-b"]  # new dispatches see the new set...
    # ...while the old modules wait, uncleaned, for the dispatch still inside them
    assert ("cleanup", "old-echo") not in journal and not reload.done()
    gate.release.set()
    outcome = await running
    assert outcome.data["seen"] == ["old", "old-echo"]  # it finished on the old set
    report = await reload
    assert report.ok and ("cleanup", "old-echo") in journal


async def test_cleanup_waits_for_running_handlers_only_up_to_the_module_timeout(
    coordinator: Coordinator, journal: list[Any], logs: list[dict[str, Any]]
) -> None:
    gate = Gate()
    coordinator.register_capability("gate", gate)
    session = BundleSession(coordinator, module_timeout=0.05)
    await session.load(Bundle(hooks=[gate_entry("stuck", block_dispatch=True), echo("e")]))
    running = asyncio.create_task(coordinator.dispatch("tool:pre", {}))
    await gate.entered.wait()
    await session.unload()
    warning = next(r for r in logs if r["event"].startswith("hook modules still running"))
    assert warning["modules"] == ["gate-stuck"]
    assert ("cleanup", "e") in journal
    gate.release.set()
    await running


async def test_dispatch_during_a_reload_sees_the_whole_old_set_until_the_swap(
    coordinator: Coordinator,
) -> None:
    gate = Gate()
    coordinator.register_capability("gate", gate)
    session = BundleSession(coordinator)
    await session.load(Bundle(hooks=[echo("old-1"), echo("old-2")]))

    reload = asyncio.create_task(
        session.reload(Bundle(hooks=[echo("new-1"), gate_entry("new-2", block_mount=True)]))
    )
    await gate.mount_entered.wait()  # new-1 is mounted, new-2 is still mounting
    assert await seen(coordinator) == ["old-1", "old-2"]
    gate.mount_release.set()
    await reload
    assert await seen(coordinator) == ["new-1", "new-2"]


async def test_reload_failure_keeps_the_old_set_running(
    coordinator: Coordinator, journal: list[Any]
) -> None:
    session = BundleSession(coordinator)
    await session.load(Bundle(hooks=[echo("old")]))
    with pytest.raises(BundleError, match="module 'fixture-broken' failed to mount"):
        await session.reload(Bundle(hooks=[echo("new"), broken("raise")]))
    assert await seen(coordinator) == ["old"]
    assert ("cleanup", "new") in journal and ("cleanup", "old") not in journal
    assert [m.key for m in session.modules] == ["old"]


async def test_reload_failing_in_on_session_ready_restores_the_old_set(
    coordinator: Coordinator, journal: list[Any]
) -> None:
    session = BundleSession(coordinator)
    await session.load(Bundle(hooks=[echo("old")]))
    coordinator.register_capability("broken.not_ready", True)
    with pytest.raises(BundleError, match="failed in on_session_ready"):
        await session.reload(Bundle(hooks=[echo("new"), broken("none")]))
    assert await seen(coordinator) == ["old"]
    assert ("cleanup", "old") not in journal and ("cleanup", "new") in journal


async def test_reload_reads_the_file_again_and_applies_session_settings(tmp_path: Path) -> None:
    path = tmp_path / "live.yaml"

    def write(tag: str, budget: int) -> None:
        path.write_text(
            textwrap.dedent(
                f"""
                session: {{injection_budget_per_turn: {budget}}}
                hooks:
                  - module: fixture-echo
                    source: {ECHO}
                    config: {{tag: {tag}}}
                """
            ),
            encoding="utf-8",
        )

    write("v1", 100)
    coord = await build_coordinator(path)
    assert (await seen(coord), coord.injector.budget_per_turn) == (["v1"], 100)
    write("v2", 200)
    report = await reload_bundle(coord)
    assert report.ok and report.bundle.path == path
    assert (await seen(coord), coord.injector.budget_per_turn) == (["v2"], 200)
    await coord.cleanup()


async def test_reload_of_a_bad_bundle_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "live.yaml"
    path.write_text(f"hooks: [{{module: fixture-echo, source: {ECHO}}}]\n", encoding="utf-8")
    coord = await build_coordinator(path)
    path.write_text("hooks: [{module: fixture-echo, sorce: x}]\n", encoding="utf-8")
    with pytest.raises(BundleError, match="unknown key 'sorce'"):
        await reload_bundle(coord)
    assert await seen(coord) == ["echo"]
    await coord.cleanup()


async def test_reload_of_a_file_whose_module_now_fails_keeps_the_old_hooks(
    tmp_path: Path,
) -> None:
    path = write_bundle(
        tmp_path,
        "live.yaml",
        f"""
        hooks:
          - module: fixture-echo
            source: {ECHO}
            config: {{tag: v1}}
        """,
    )
    coord = await build_coordinator(path)
    session = BundleSession.of(coord)
    assert session is not None
    before = session.report
    write_bundle(
        tmp_path,
        "live.yaml",
        f"""
        hooks:
          - module: fixture-echo
            source: {ECHO}
            config: {{tag: v2}}
          - module: ah-logging
            source: {LOGGING}
            config: {{paht: x.jsonl}}
        """,
    )
    with pytest.raises(BundleError) as info:
        await reload_bundle(coord)
    assert str(info.value).startswith(
        f"{at(path, 7)}: hooks[1].config.paht: module 'ah-logging' rejected its config: "
        "unknown key 'paht'"
    )
    assert await seen(coord) == ["v1"]  # the old hooks, not the new ones, nor none
    assert set(owners(coord).values()) == {"fixture-echo"}
    assert session.report is before and session.bundle is not None
    assert session.bundle.hook("ah-logging") is None
    await coord.cleanup()


async def test_reload_requires_a_bundle_coordinator(coordinator: Coordinator) -> None:
    with pytest.raises(RuntimeError, match="not built from a bundle"):
        await reload_bundle(coordinator)
    with pytest.raises(RuntimeError, match="nothing to reload"):
        await BundleSession(coordinator).reload()


async def test_concurrent_reloads_apply_one_after_the_other(coordinator: Coordinator) -> None:
    session = BundleSession(coordinator)
    await session.load(Bundle(hooks=[echo("v0")]))
    await asyncio.gather(*(session.reload(Bundle(hooks=[echo(f"v{i}")])) for i in (1, 2, 3)))
    assert await seen(coordinator) == ["v3"]
    assert len(coordinator.hooks.handler_info("tool:pre")) == 1


# -- session settings ----------------------------------------------------------------------


async def test_session_settings_feed_the_injector_and_the_approvals() -> None:
    coord = await build_coordinator(FIXTURES / "child.md")
    assert (coord.injector.size_limit, coord.injector.budget_per_turn) == (4096, 2000)
    assert getattr(coord.approvals.provider, "via", None) == "policy"

    async def ask(event: str, data: dict[str, Any]) -> HookResult:
        return HookResult(action="ask_user", approval_prompt="Go?")

    coord.hooks.register("tool:pre", ask, -100, name="ask")
    allowed = await coord.dispatch("tool:pre", {"tool_name": "read_file"})
    denied = await coord.dispatch("tool:pre", {"tool_name": "write_file"})
    assert (allowed.allowed, denied.allowed) == (True, False)
    assert [d.via for d in allowed.approvals] == ["policy"]
    await coord.cleanup()


async def test_caller_arguments_win_over_the_bundle() -> None:
    from amplifier_hooks.injection import ContextInjector

    injector = ContextInjector(size_limit=1, budget_per_turn=1)
    person = ScriptedApprovalProvider.always("Allow")
    coord = await build_coordinator(
        FIXTURES / "child.md", injector=injector, approval_provider=person
    )
    assert coord.injector is injector and injector.size_limit == 1
    assert coord.approvals.provider is person
    await coord.cleanup()


async def test_factory_builds_a_coordinator_subclass() -> None:
    class MyCoordinator(Coordinator):
        pass

    coord = await build_coordinator(Bundle(hooks=[echo("a")]), factory=MyCoordinator)
    assert isinstance(coord, MyCoordinator)
    assert BundleSession.of(coord) is not None
    await coord.cleanup()


@pytest.mark.parametrize("name", ["default.md", "strict.yaml", "minimal.yaml"])
async def test_shipped_bundles_mount_strictly(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AMPLIFIER_HOOKS_LOG", str(tmp_path / "events.jsonl"))
    coord = await build_coordinator(ROOT / "bundles" / name, strict=True, approval_store=":memory:")
    session = BundleSession.of(coord)
    assert session is not None and session.bundle is not None
    assert [m.key for m in session.modules] == [e.key for e in session.bundle.hooks]
    outcome = await coord.dispatch(
        "tool:pre", {"tool_name": "bash", "tool_input": {"command": "rm -rf /"}}
    )
    assert outcome.allowed is (name == "minimal.yaml")  # approvals deny where mounted
    await coord.cleanup()
    assert coord.hooks.handler_info() == []


# -- a module rejecting its config: reported at the line of the bad key ------------------

LOGGING = str(ROOT / "modules" / "ah-logging")
SHELL = str(ROOT / "modules" / "ah-shell")
APPROVAL = str(ROOT / "modules" / "ah-approval")


def write_bundle(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def at(path: Path, line: int) -> str:
    return f"{display_path(path)}:{line}"


async def test_bad_module_config_is_reported_at_the_key_line_strict(tmp_path: Path) -> None:
    path = write_bundle(
        tmp_path,
        "bad.yaml",
        f"""
        hooks:
          - module: ah-logging
            source: {LOGGING}
            config:
              path: {tmp_path / "x.jsonl"}
              max_value_chars: lots
        """,
    )
    with pytest.raises(BundleError) as info:
        await build_coordinator(path, strict=True)
    assert str(info.value) == (
        f"{at(path, 6)}: hooks[0].config.max_value_chars: module 'ah-logging' rejected "
        "its config: expected a whole number, got 'lots'"
    )
    assert (info.value.file, info.value.line) == (path, 6)
    assert info.value.key_path == "hooks[0].config.max_value_chars"


async def test_bad_config_of_an_optional_module_skips_it_with_the_same_message(
    tmp_path: Path, logs: list[dict[str, Any]]
) -> None:
    path = write_bundle(
        tmp_path,
        "bad.yaml",
        f"""
        hooks:
          - module: ah-logging
            source: {LOGGING}
            config:
              max_value_chars: 3
              paht: x.jsonl
            optional: true
          - module: fixture-echo
            source: {ECHO}
        """,
    )
    coord = await build_coordinator(path)
    session = BundleSession.of(coord)
    assert session is not None and session.report is not None
    assert [m.key for m in session.modules] == ["fixture-echo"]
    [failure] = session.report.failures
    lines = [
        f"{at(path, 5)}: hooks[0].config.max_value_chars: module 'ah-logging' rejected its "
        "config: expected a number greater than or equal to 16, got 3",
        f"{at(path, 6)}: hooks[0].config.paht: module 'ah-logging' rejected its config: "
        "unknown key 'paht' (did you mean 'path'?); expected one of: events, exclude_events, "
        "max_value_chars, path, priority, redact_keys, scrub_secrets",
    ]
    assert str(failure).splitlines() == lines
    assert (failure.stage, failure.problem().line) == ("mount", 5)
    record = next(r for r in logs if r["event"] == "hook module failed")
    assert record["where"] == f"{at(path, 5)}: hooks[0].config.max_value_chars"
    assert record["problems"] == lines
    assert record["error"].startswith("ModuleConfigError: invalid ah-logging config: ")
    assert await seen(coord) == ["echo"]
    await coord.cleanup()


async def test_config_key_from_an_include_is_reported_in_the_include(tmp_path: Path) -> None:
    base = write_bundle(
        tmp_path,
        "base.yaml",
        f"""
        bundle: {{name: base}}
        hooks:
          - module: ah-logging
            source: {LOGGING}
            config:
              max_value_chars: lots
              events: [tool:pre]
        """,
    )
    top = write_bundle(
        tmp_path,
        "top.yaml",
        """
        includes: [base.yaml]
        hooks:
          - module: ah-logging
            config:
              events: []
        """,
    )
    with pytest.raises(BundleError) as info:
        await build_coordinator(top, strict=True)
    assert str(info.value).splitlines() == [
        f"{at(base, 6)}: hooks[0].config.max_value_chars: module 'ah-logging' rejected its "
        "config: expected a whole number, got 'lots'",
        # written in both files: the including file's value is the one that was used
        f"{at(top, 5)}: hooks[0].config.events: module 'ah-logging' rejected its config: "
        "events must name at least one event or glob (omit it to log all)",
    ]


async def test_a_missing_config_key_is_reported_at_its_nearest_written_parent(
    tmp_path: Path,
) -> None:
    path = write_bundle(
        tmp_path,
        "shell.yaml",
        f"""
        hooks:
          - module: ah-shell
            source: {SHELL}
            config:
              hooks:
                - event: tool:pre
                  name: check
        """,
    )
    with pytest.raises(BundleError) as info:
        await build_coordinator(path, strict=True)
    assert str(info.value) == (
        f"{at(path, 6)}: hooks[0].config.hooks[0].command: module 'ah-shell' rejected its "
        "config: missing required key 'command'"
    )


async def test_bad_config_of_a_bundle_built_in_code_names_the_key_path(
    coordinator: Coordinator,
) -> None:
    bundle = Bundle(
        hooks=[
            echo("a"),
            HookEntry(module="ah-logging", source=LOGGING, config={"priority": "high"}),
        ]
    )
    with pytest.raises(BundleError) as info:
        await BundleSession(coordinator).load(bundle)
    assert str(info.value) == (
        "hooks[1].config.priority: module 'ah-logging' rejected its config: "
        "expected a whole number, got 'high'"
    )
    bundle.hooks[1].optional = True
    report = await BundleSession(coordinator).load(bundle)
    assert [m.key for m in report.mounted] == ["a"]
    assert str(report.failures[0]) == (
        "hooks[1].config.priority: module 'ah-logging' rejected its config: "
        "expected a whole number, got 'high'"
    )


async def test_a_config_error_raised_as_the_cause_of_another_is_still_located(
    tmp_path: Path,
) -> None:
    module = tmp_path / "wrapping.py"
    module.write_text(
        textwrap.dedent(
            """
            from amplifier_hooks.module_config import ConfigProblem, ModuleConfigError

            def mount(coordinator, config):
                problem = ConfigProblem(("limits", "depth"), "expected at most 3, got 9")
                error = ModuleConfigError("loader-wrapping-module", [problem])
                raise RuntimeError("setup failed") from error
            """
        ),
        encoding="utf-8",
    )
    path = write_bundle(
        tmp_path,
        "b.yaml",
        """
        hooks:
          - module: loader-wrapping-module
            source: wrapping.py
            config:
              limits:
                depth: 9
        """,
    )
    with pytest.raises(BundleError) as info:
        await build_coordinator(path, strict=True)
    assert str(info.value) == (
        f"{at(path, 6)}: hooks[0].config.limits.depth: module 'loader-wrapping-module' "
        "rejected its config: expected at most 3, got 9"
    )


def test_module_config_error_keeps_its_text_and_carries_the_problems() -> None:
    from pydantic import BaseModel, ConfigDict, Field

    from amplifier_hooks.module_config import (
        ConfigProblem,
        ModuleConfigError,
        parse_module_config,
    )

    class Limits(BaseModel):
        model_config = ConfigDict(extra="forbid")
        depth: int = 1

    class Settings(BaseModel):
        model_config = ConfigDict(extra="forbid")
        limits: Limits = Limits()
        name: str = "x"
        tags: list[str] = Field(default_factory=lambda: ["t"], min_length=1)

    raw = {"limits": {"depth": "deep"}, "nmae": "y", "tags": []}
    with pytest.raises(ModuleConfigError) as info:
        parse_module_config(Settings, raw, "m")
    error = info.value
    assert isinstance(error, ValueError) and error.module_id == "m"
    assert str(error) == (
        "invalid m config: limits.depth: Input should be a valid integer, unable to parse "
        "string as an integer; tags: List should have at least 1 item after validation, not 0; "
        "nmae: Extra inputs are not permitted"
    )
    assert error.problems == [
        ConfigProblem(("limits", "depth"), "expected a whole number, got 'deep'"),
        ConfigProblem(("tags",), "expected at least 1 item, got 0"),
        ConfigProblem(
            ("nmae",),
            "unknown key 'nmae' (did you mean 'name'?); expected one of: limits, name, tags",
        ),
    ]
    with pytest.raises(ModuleConfigError) as info:
        parse_module_config(Settings, ["not", "a", "mapping"], "m")  # type: ignore[arg-type]
    assert str(info.value) == "m config must be a mapping, got list"
    assert info.value.problems == [
        ConfigProblem((), "expected a mapping (key: value lines), got a list")
    ]
    assert parse_module_config(Settings, None, "m") == Settings()


async def test_policy_rules_on_top_of_an_auto_provider_answer_without_a_terminal(
    tmp_path: Path,
) -> None:
    """The first thing a user of default.md tries: add rules for unattended runs."""
    root = PROJECT_ROOT
    bundle = tmp_path / "mine.yaml"
    bundle.write_text(
        f"includes: [{root / 'bundles' / 'default.md'}]\n"
        "session:\n"
        "  approvals:\n"
        "    store: ':memory:'\n"
        "    policy:\n"
        "      rules:\n"
        "        - {decision: allow, tool: bash, command: 'git status*'}\n"
        "hooks:\n"
        "  - module: ah-logging\n"
        f"    config: {{path: {tmp_path / 'log.jsonl'}}}\n",
        encoding="utf-8",
    )
    coordinator = await build_coordinator(bundle)  # pytest's stdin is not a terminal
    try:
        allowed = await coordinator.dispatch(
            "tool:pre", {"tool_name": "bash", "tool_input": {"command": "git status"}}
        )
        denied = await coordinator.dispatch(
            "tool:pre", {"tool_name": "bash", "tool_input": {"command": "git push"}}
        )
    finally:
        await coordinator.cleanup()
    assert allowed.allowed and allowed.approvals[0].via == "policy"
    assert not denied.allowed and denied.approvals[0].via == "policy"


async def test_the_main_example_in_the_bundle_docs_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/bundles.md's first example, placed in a folder beside bundles/ and modules/."""
    root = PROJECT_ROOT
    example = first_yaml_example(root / "docs" / "bundles.md")
    for name in ("bundles", "modules"):
        (tmp_path / name).symlink_to(root / name)
    (tmp_path / "mine").mkdir()
    path = tmp_path / "mine" / "my-agent.yaml"
    path.write_text(example, encoding="utf-8")
    monkeypatch.setenv("AGENT_LOG", str(tmp_path / "agent.jsonl"))
    coordinator = await build_coordinator(path, strict=True, approval_store=":memory:")
    try:
        handlers = coordinator.hooks.handler_info()
    finally:
        await coordinator.cleanup()
    owners = {info.owner for info in handlers}
    assert "ah-shell" in owners and "ah-progress-monitor" not in owners
    [log_event] = [i for i in handlers if i.name == "log_event" and i.event == "tool:pre"]
    assert (log_event.priority, log_event.timeout) == (2000, 5.0)


PROJECT_ROOT = Path(__file__).resolve().parent.parent


def first_yaml_example(doc: Path) -> str:
    """The first fenced YAML block of a Markdown file."""
    return doc.read_text(encoding="utf-8").split("```yaml\n", 1)[1].split("```", 1)[0]
