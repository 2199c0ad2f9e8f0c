"""A module that cannot load or mount fails the load, unless its entry is optional."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.bundles import Bundle, BundleError, HookEntry, load_bundle
from amplifier_hooks.bundles.loading import MountedBundle, build_coordinator
from amplifier_hooks.bundles.reading import display_path
from amplifier_hooks.session.coordinator import Coordinator

from .conftest import (
    APPROVAL,
    BROKEN,
    ECHO,
    FIXTURES,
    METADATA,
    MISSING_MODULE,
    at,
    broken,
    echo,
    owners,
    recording_factory,
    seen,
    write_bundle,
)


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
    session = MountedBundle.of(coord)
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
    report = await MountedBundle(coordinator).load(load_bundle(FIXTURES / "raising_module.yaml"))
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
        ("exit", "SystemExit: 3"),
        ("hang", "did not finish within 0.05s"),
        ("own_timeout", "TimeoutError: upstream slow"),
    ],
)
async def test_mount_failures_are_described(
    coordinator: Coordinator, mode: str, error: str
) -> None:
    session = MountedBundle(coordinator, module_timeout=0.05)
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
    await MountedBundle(coordinator).load(Bundle(hooks=[echo("a"), echo("b")]))
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
    session = MountedBundle(coordinator)
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
    session = MountedBundle(coordinator)
    report = await session.load(Bundle(hooks=[echo("a"), broken("none", "b", optional=True)]))
    assert str(report.failures[0]) == (
        "hooks[1]: module 'b' failed in on_session_ready: RuntimeError: not ready today"
    )
    assert [m.key for m in session.modules] == ["a"]
    assert set(owners(coordinator).values()) == {"a"}


async def test_a_mount_that_returns_metadata_loads_and_its_dict_is_ignored(
    coordinator: Coordinator, logs: list[dict[str, Any]]
) -> None:
    # Foundation's hooks-todo-display returns a dict from mount; Amplifier's kernel only
    # registers a callable as the cleanup, so the module loads there and must load here.
    entry = HookEntry(module="fixture-metadata", source=METADATA)
    session = MountedBundle(coordinator)
    report = await session.load(Bundle(hooks=[entry]))
    assert [m.key for m in report.mounted] == ["fixture-metadata"]
    assert report.failures == []
    assert report.mounted[0].cleanup is None
    outcome = await coordinator.dispatch("tool:pre", {"tool_name": "read_file"})
    assert outcome.data["seen_by"] == "fixture-metadata"
    [note] = [r for r in logs if r["event"].startswith("hook module mount returned")]
    assert note == {
        "event": "hook module mount returned a non-callable; no cleanup registered",
        "module": "fixture-metadata",
        "returned": "dict",
        "log_level": "debug",
    }
    await session.unload()  # unmounting has no cleanup to call, and fails on nothing
    assert "tool:pre/metadata_mark" not in owners(coordinator)
