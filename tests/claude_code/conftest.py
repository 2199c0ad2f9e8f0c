"""Fixtures that run the real Claude Code CLI against a scripted model on loopback.

The binary is the one pinned in tools/claude-code (``make claude-code`` installs it into
.cache/claude-code). Without it these tests skip and say why -- except under ``CI``, where a
missing binary fails them: CI must run them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.testing.claude_code import ClaudeCode, ClaudeCodeRun
from amplifier_hooks.testing.messages_api import ScriptedModel, Turn
from tests.unavailable import agent_cli

Drive = Callable[..., Awaitable[tuple[ClaudeCodeRun, ScriptedModel]]]


@pytest.fixture(scope="session")
def claude_binary() -> Path:
    return agent_cli("Claude Code", "claude-code", "claude")


@pytest.fixture
def claude(claude_binary: Path, tmp_path: Path) -> ClaudeCode:
    """A sandbox of the real binary: its own project dir and HOME under ``tmp_path``."""
    return ClaudeCode(claude_binary, tmp_path / "claude", timeout=45.0)


@pytest.fixture
def hook_env() -> dict[str, str]:
    """Extra environment for Claude Code and so its hooks (overridden where our servers
    run, to give them a runtime directory of their own)."""
    return {}


@pytest.fixture
def drive(claude: ClaudeCode, hook_env: dict[str, str]) -> Drive:
    """Run one ``claude -p`` session: ``await drive(*turns, settings=..., prompt=...)``.

    Writes ``settings`` (if given) as the project's .claude/settings.json, serves ``turns``
    from a fresh `ScriptedModel` and returns the run with the model (its recorded requests).
    """

    async def run(
        *turns: Turn,
        settings: Mapping[str, Any] | None = None,
        prompt: str = "Go ahead.",
        args: Sequence[str] = (),
        env: Mapping[str, str] = {},
    ) -> tuple[ClaudeCodeRun, ScriptedModel]:
        if settings is not None:
            claude.write_settings(settings)
        async with ScriptedModel(*turns) as model:
            done = await claude.run(prompt, model, args=args, env={**hook_env, **env})
        assert done.returncode == 0, done.describe()
        return done, model

    return run
