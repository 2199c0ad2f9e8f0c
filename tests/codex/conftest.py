"""Fixtures that run the real Codex CLI against a scripted Responses API on loopback.

The binary is the one pinned in tools/codex (``make test`` installs it into .cache/codex).
Without it these tests skip and say why -- except under ``CI``, where a missing binary
fails them: CI must run them.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.testing.codex import Codex, CodexRun
from amplifier_hooks.testing.responses_api import ScriptedResponses
from amplifier_hooks.testing.turns import Turn
from tests.unavailable import agent_cli

Drive = Callable[..., Awaitable[tuple[CodexRun, ScriptedResponses]]]


@pytest.fixture(scope="session")
def codex_binary() -> Path:
    return agent_cli("Codex", "codex", "codex")


@pytest.fixture
def codex(codex_binary: Path, tmp_path: Path) -> Codex:
    """A sandbox of the real binary: its own project, HOME and CODEX_HOME."""
    return Codex(codex_binary, tmp_path / "codex", timeout=90.0)


@pytest.fixture
def install(codex: Codex) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run ``amplifier-hooks codex ARGS...`` against the sandbox's CODEX_HOME."""

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "amplifier_hooks.cli", "codex", *args],
            env=codex.install_env(),
            cwd=codex.project,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    return run


@pytest.fixture
def drive(codex: Codex) -> Drive:
    """Run one ``codex exec`` session: ``await drive(*turns, prompt=..., env=...)``;
    the run and the model (its recorded requests)."""

    async def run(
        *turns: Turn,
        prompt: str = "Go ahead.",
        args: Sequence[str] = (),
        env: Mapping[str, str] = {},
        expect_ok: bool = True,
        **model_options: Any,
    ) -> tuple[CodexRun, ScriptedResponses]:
        async with ScriptedResponses(*turns, **model_options) as model:
            codex.configure(model)
            done = await codex.run(prompt, model, args=args, env=env)
        if expect_ok:
            assert done.returncode == 0, done.describe()
        return done, model

    return run
