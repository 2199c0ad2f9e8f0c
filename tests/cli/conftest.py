"""What every command-line test needs: its own event log and approval memory."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No command may write the event log or approval memory outside the test's directory."""
    monkeypatch.setenv("AMPLIFIER_HOOKS_LOG", str(tmp_path / "events.jsonl"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


@pytest.fixture
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Output as a 200-column terminal shows it, so no name is cut."""
    monkeypatch.setenv("COLUMNS", "200")
