"""The harness itself: the sandbox's environment, a missing binary, a run that hangs."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest

from amplifier_hooks.testing.claude_code import ClaudeCode, ClaudeCodeTimeout
from amplifier_hooks.testing.messages_api import ScriptedModel, Turn, bash

from .hooks import pre_tool_use


async def test_the_agent_sees_only_the_sandbox_and_the_scripted_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in {
        "ANTHROPIC_API_KEY": "a-real-key",
        "ANTHROPIC_BASE_URL": "https://api.anthropic.com",
        "HTTPS_PROXY": "http://proxy.example:3128",
        "CLAUDE_CODE_USE_BEDROCK": "1",
    }.items():
        monkeypatch.setenv(name, value)
    sandbox = ClaudeCode("/bin/true", tmp_path)
    async with ScriptedModel() as model:
        env = sandbox.environment(model, {"EXTRA": "1"})

    assert env["ANTHROPIC_BASE_URL"] == model.base_url
    assert env["ANTHROPIC_API_KEY"] == model.api_key
    assert env["HOME"] == str(tmp_path / "home")
    assert env["CLAUDE_CONFIG_DIR"] == str(tmp_path / "home" / ".claude")
    assert env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] == "1"
    assert env["EXTRA"] == "1"
    assert "HTTPS_PROXY" not in env and "CLAUDE_CODE_USE_BEDROCK" not in env
    assert env["PATH"] == os.environ["PATH"]


def test_settings_go_where_claude_code_reads_them(tmp_path: Path) -> None:
    sandbox = ClaudeCode("/bin/true", tmp_path)
    written = {
        scope: sandbox.write_settings({"scope": scope}, scope)
        for scope in ("project", "local", "user")
    }

    assert written == {
        "project": tmp_path / "project" / ".claude" / "settings.json",
        "local": tmp_path / "project" / ".claude" / "settings.local.json",
        "user": tmp_path / "home" / ".claude" / "settings.json",
    }
    assert json.loads(written["local"].read_text()) == {"scope": "local"}


def test_a_missing_binary_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no Claude Code binary at /nowhere/claude"):
        ClaudeCode("/nowhere/claude", tmp_path)


async def test_a_run_that_hangs_is_killed_with_its_hooks_and_reported(
    claude: ClaudeCode, tmp_path: Path
) -> None:
    """A hook that never answers (within its 600 s) holds Claude Code; the run's own
    timeout stops Claude Code, which ends the hook, and hands back the events so far."""
    pid_file = tmp_path / "hook.pid"
    hook = f"echo $$ > {pid_file}; exec sleep 600"
    claude.write_settings(pre_tool_use({"type": "command", "command": hook, "timeout": 600}))
    async with ScriptedModel(Turn(bash("echo hi"))) as model:
        with pytest.raises(ClaudeCodeTimeout, match=r"Claude Code ran over 5\.0s") as caught:
            await claude.run("go", model, timeout=5.0)

    run = caught.value.run
    assert run.returncode == -1
    assert run.events[0]["subtype"] == "init"
    assert run.tool_uses()[0]["input"]["command"] == "echo hi"
    assert await gone(int(pid_file.read_text())), "the hanging hook outlived the run"


async def gone(pid: int, within: float = 10.0) -> bool:
    """Whether process ``pid`` ends within ``within`` seconds (its SIGTERM may still be
    on its way, or init not yet have reaped it)."""
    deadline = asyncio.get_running_loop().time() + within
    while asyncio.get_running_loop().time() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        await asyncio.sleep(0.05)
    return False
