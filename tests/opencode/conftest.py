"""Fixtures that run the real OpenCode against a scripted Chat Completions API on loopback.

The binary is the one pinned in tools/opencode (``make opencode`` installs it into
.cache/opencode). Without it these tests skip and say why -- except under ``CI``, where a
missing binary fails them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from amplifier_hooks.testing.opencode_cli import OpenCodeCli
from tests.claude_code.guards import hook_env
from tests.unavailable import agent_cli

__all__ = ["hook_env"]  # the fixture: hooks run with hook servers of their own


@pytest.fixture(scope="session")
def opencode_binary() -> Path:
    return agent_cli("OpenCode", "opencode", "opencode")


@pytest.fixture
def opencode(opencode_binary: Path, tmp_path: Path) -> OpenCodeCli:
    """A sandbox of the real binary: its own project dir and HOME under ``tmp_path``."""
    return OpenCodeCli(opencode_binary, tmp_path / "opencode", timeout=300.0)
