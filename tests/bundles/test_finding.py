"""Finding a module: a source directory or file, an entry point, an import name."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

from amplifier_hooks.bundles import Bundle, HookEntry
from amplifier_hooks.bundles.loading import BundleSession
from amplifier_hooks.session.coordinator import Coordinator

from .conftest import (
    ECHO,
    FIXTURES,
    MODULES,
    echo,
    seen,
)


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
