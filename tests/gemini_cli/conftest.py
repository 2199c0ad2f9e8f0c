"""Fixtures that run the real Gemini CLI against a scripted Gemini API on loopback.

The binary is the one pinned in tools/gemini-cli (``make gemini-cli`` installs it into
.cache/gemini-cli). Without it these tests skip and say why -- except under ``CI``, where a
missing binary fails them: CI must run them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.testing.gemini_cli import GeminiCli
from tests.claude_code.guards import hook_env
from tests.unavailable import agent_cli

__all__ = ["hook_env"]  # the fixture: hooks run with hook servers of their own


@pytest.fixture(scope="session")
def gemini_binary() -> Path:
    return agent_cli("Gemini CLI", "gemini-cli", "gemini")


@pytest.fixture
def gemini(gemini_binary: Path, tmp_path: Path) -> GeminiCli:
    """A sandbox of the real binary: its own project dir and HOME under ``tmp_path``."""
    return GeminiCli(gemini_binary, tmp_path / "gemini", timeout=90.0)
