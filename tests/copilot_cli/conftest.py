"""Fixtures that run the real GitHub Copilot CLI against a scripted Responses API on
loopback.

The binary is the one pinned in tools/copilot (``make copilot`` installs it into
.cache/copilot). Without it these tests skip and say why -- except under ``CI``, where a
missing binary fails them: CI must run them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from amplifier_hooks.testing.copilot_cli import CopilotCli
from tests.claude_code.guards import hook_env
from tests.unavailable import unavailable

ROOT = Path(__file__).resolve().parents[2]
BINARY = ROOT / ".cache" / "copilot" / "node_modules" / ".bin" / "copilot"

__all__ = ["hook_env"]  # the fixture: hooks run with hook servers of their own


@pytest.fixture(scope="session")
def copilot_binary() -> Path:
    if not os.access(BINARY, os.X_OK):
        message = f"Copilot CLI is not installed at {BINARY} (run `make copilot`)"
        unavailable(message)
    return BINARY


@pytest.fixture
def copilot(copilot_binary: Path, tmp_path: Path) -> CopilotCli:
    """A sandbox of the real binary: its own project dir and HOME under ``tmp_path``."""
    return CopilotCli(copilot_binary, tmp_path / "copilot", timeout=90.0)
