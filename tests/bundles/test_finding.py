"""Finding a module: a source directory or file, an entry point, an import name."""

from __future__ import annotations

from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.bundles import Bundle, HookEntry
from amplifier_hooks.bundles.loading import MountedBundle
from amplifier_hooks.session.coordinator import Coordinator

from .conftest import (
    ECHO,
    FIXTURES,
    MODULES,
    echo,
    seen,
)


async def test_source_directory_is_imported_in_place(coordinator: Coordinator) -> None:
    report = await MountedBundle(coordinator).load(Bundle(hooks=[echo("a")]))
    assert report.ok
    assert report.mounted[0].found_by == f"source {ECHO}"
    assert report.mounted[0].handlers == [("tool:pre", "stamp"), ("tool:post", "observe")]
    assert await seen(coordinator) == ["a"]


async def test_source_single_file(coordinator: Coordinator) -> None:
    entry = HookEntry(module="single-file", source=str(MODULES / "single_file_hook.py"))
    await MountedBundle(coordinator).load(Bundle(hooks=[entry]))
    outcome = await coordinator.dispatch("tool:pre", {"tool_input": {"command": "rm -rf x"}})
    assert (outcome.allowed, outcome.reason) == (False, "rm is not allowed here")


async def test_relative_source_in_a_bundle_built_in_code_uses_its_path(
    coordinator: Coordinator,
) -> None:
    bundle = Bundle(
        path=FIXTURES / "virtual.yaml",
        hooks=[HookEntry(module="fixture-echo", source="../modules/fixture-echo")],
    )
    report = await MountedBundle(coordinator).load(bundle)
    assert report.mounted[0].found_by == f"source {ECHO}"


async def test_import_name_when_no_source_and_no_entry_point(
    coordinator: Coordinator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(ECHO)
    report = await MountedBundle(coordinator).load(Bundle(hooks=[HookEntry(module="fixture-echo")]))
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
    report = await MountedBundle(coordinator).load(bundle)
    assert [m.found_by for m in report.mounted] == [
        "entry point fixture-echo = amplifier_module_fixture_echo",
        "entry point only-mount = amplifier_module_fixture_echo:mount",
        f"source {ECHO}",  # source wins over the entry point of the same name
    ]
    assert report.mounted[1].on_session_ready is None  # a bare mount function has none
    assert await seen(coordinator) == ["ep", "fn", "src"]


async def test_a_misspelt_module_name_gets_the_closest_installed_one() -> None:
    from amplifier_hooks.bundles import BundleError

    with pytest.raises(BundleError) as raised:
        await Coordinator.from_bundle(
            Bundle(hooks=[HookEntry(module="ah-loging")]), approval_store=":memory:"
        )
    assert str(raised.value).endswith(
        "(install the module, or give its directory as source:); did you mean 'ah-logging'?"
    )


async def test_each_module_of_a_bundle_is_found_once_for_all_its_sessions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A server opens a session per agent session from one loaded bundle: the modules are
    # found (paths resolved, packages checked) for the first only. A module that could
    # not be found is looked for again by the next session, so it is not stuck broken.
    from amplifier_hooks.bundles import finding, lifecycle

    source = tmp_path / "later_hook.py"
    entry = HookEntry(module="later-hook", source=str(source), optional=True)
    bundle = Bundle(hooks=[entry])
    looked: list[str] = []

    def counting(module_id: str, *args: Any) -> finding.ResolvedModule:
        looked.append(module_id)
        return finding.resolve_module(module_id, *args)

    monkeypatch.setattr(lifecycle, "resolve_module", counting)
    first = Coordinator()
    report = await MountedBundle(first).load(bundle)
    assert [f.key for f in report.failures] == ["later-hook"]
    await first.cleanup()
    source.write_text((MODULES / "single_file_hook.py").read_text())
    for _ in range(3):
        coordinator = Coordinator()
        report = await MountedBundle(coordinator).load(bundle)
        assert report.ok and report.mounted[0].found_by == f"source {source}"
        outcome = await coordinator.dispatch("tool:pre", {"tool_input": {"command": "rm x"}})
        assert outcome.allowed is False
        await coordinator.cleanup()
    assert looked == ["later-hook", "later-hook"]
