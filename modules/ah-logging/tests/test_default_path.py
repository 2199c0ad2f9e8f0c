"""Where the event log goes when the bundle names no path: ``$AMPLIFIER_HOOKS_LOG``, else
the user's state directory -- never a ``.amplifier/`` folder in their project."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from amplifier_module_ah_logging import mount

from amplifier_hooks.session.coordinator import Coordinator

ROOT = Path(__file__).resolve().parents[3]


async def _log_one_event() -> None:
    coordinator = Coordinator()
    coordinator.register_cleanup(await mount(coordinator, {}))
    await coordinator.dispatch("tool:pre", {"tool_name": "bash"})
    await coordinator.cleanup()


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The working directory, a project with nothing in it; no log path in the
    environment, and the state directory under the test's own."""
    folder = tmp_path / "project"
    folder.mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.delenv("AMPLIFIER_HOOKS_LOG", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return folder


async def test_without_a_path_the_log_is_in_the_state_directory(
    tmp_path: Path, project: Path
) -> None:
    await _log_one_event()
    log = tmp_path / "state" / "amplifier-hooks" / "hooks-events.jsonl"
    assert [json.loads(line)["event"] for line in log.read_text().splitlines()] == ["tool:pre"]
    assert os.listdir(project) == []  # nothing in the project for git to show


async def test_the_environment_variable_comes_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AMPLIFIER_HOOKS_LOG", str(tmp_path / "mine.jsonl"))
    await _log_one_event()
    assert (tmp_path / "mine.jsonl").exists()


async def test_the_shipped_bundles_write_nothing_into_the_project(
    tmp_path: Path, project: Path
) -> None:
    for name in ("default.md", "minimal.yaml"):
        coordinator = await Coordinator.from_bundle(
            ROOT / "bundles" / name, approval_store=":memory:"
        )
        await coordinator.dispatch("tool:pre", {"tool_name": "read_file"})
        await coordinator.cleanup()
    assert os.listdir(project) == []
    assert (tmp_path / "state" / "amplifier-hooks" / "hooks-events.jsonl").exists()
