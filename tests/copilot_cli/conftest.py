"""Fixtures that run the real GitHub Copilot CLI against a scripted Responses API on
loopback.

The binary is the one pinned in tools/copilot (``make copilot`` installs it into
.cache/copilot). Without it these tests skip and say why -- except under ``CI``, where a
missing binary fails them: CI must run them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.testing.copilot_cli import CopilotCli
from tests.claude_code.guards import hook_env
from tests.unavailable import agent_cli

__all__ = ["hook_env"]  # the fixture: hooks run with hook servers of their own


@pytest.fixture(scope="session")
def copilot_binary() -> Path:
    return agent_cli("Copilot CLI", "copilot", "copilot")


@pytest.fixture
def copilot(copilot_binary: Path, tmp_path: Path) -> CopilotCli:
    """A sandbox of the real binary: its own project dir and HOME under ``tmp_path``."""
    return CopilotCli(copilot_binary, tmp_path / "copilot", timeout=90.0)
