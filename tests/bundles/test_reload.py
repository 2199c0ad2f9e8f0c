"""Atomic reload: the old hook set runs until the new one is complete, or stays."""

from __future__ import annotations

import asyncio
import textwrap
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.bundles import Bundle, BundleError
from amplifier_hooks.bundles.loading import MountedBundle, build_coordinator, reload_bundle
from amplifier_hooks.session.coordinator import Coordinator

from .conftest import (
    ECHO,
    LOGGING,
    Gate,
    at,
    broken,
    echo,
    gate_entry,
    owners,
    seen,
    write_bundle,
)


async def test_a_dispatch_already_running_finishes_on_the_old_set(
    coordinator: Coordinator, journal: list[Any]
) -> None:
    gate = Gate()
    coordinator.register_capability("gate", gate)
    session = MountedBundle(coordinator)
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
    session = MountedBundle(coordinator, module_timeout=0.05)
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
    session = MountedBundle(coordinator)
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
    session = MountedBundle(coordinator)
    await session.load(Bundle(hooks=[echo("old")]))
    with pytest.raises(BundleError, match="module 'fixture-broken' failed to mount"):
        await session.reload(Bundle(hooks=[echo("new"), broken("raise")]))
    assert await seen(coordinator) == ["old"]
    assert ("cleanup", "new") in journal and ("cleanup", "old") not in journal
    assert [m.key for m in session.modules] == ["old"]


async def test_reload_failing_in_on_session_ready_restores_the_old_set(
    coordinator: Coordinator, journal: list[Any]
) -> None:
    session = MountedBundle(coordinator)
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
    session = MountedBundle.of(coord)
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
        await MountedBundle(coordinator).reload()


async def test_concurrent_reloads_apply_one_after_the_other(coordinator: Coordinator) -> None:
    session = MountedBundle(coordinator)
    await session.load(Bundle(hooks=[echo("v0")]))
    await asyncio.gather(*(session.reload(Bundle(hooks=[echo(f"v{i}")])) for i in (1, 2, 3)))
    assert await seen(coordinator) == ["v3"]
    assert len(coordinator.hooks.handler_info("tool:pre")) == 1
