"""Fixtures that run the real Cline CLI against a scripted Chat Completions API on
loopback.

The binary is the one pinned in tools/cline (``make cline`` installs it into .cache/cline).
Without it these tests skip and say why -- except under ``CI``, where a missing binary
fails them. Every sandbox's hub daemon (Cline leaves one running) is stopped by its pid
when the test ends.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from amplifier_hooks.testing.cline_cli import ClineCli
from tests.claude_code.guards import hook_env
from tests.unavailable import agent_cli

__all__ = ["hook_env"]  # the fixture: hooks run with hook servers of their own


@pytest.fixture(scope="session")
def cline_binary() -> Path:
    return agent_cli("Cline", "cline", "cline")


@pytest.fixture
def cline(cline_binary: Path, tmp_path: Path) -> Iterator[ClineCli]:
    """A sandbox of the real binary: its own workspace, HOME and hub port under
    ``tmp_path``; its hub daemon is stopped afterwards."""
    sandbox = ClineCli(cline_binary, tmp_path / "cline", timeout=150.0)
    try:
        yield sandbox
    finally:
        sandbox.stop_hub()
        assert sandbox.hub_pids() == [], "a Cline hub daemon outlived its test"
