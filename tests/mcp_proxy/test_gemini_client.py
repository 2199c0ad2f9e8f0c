"""A real MCP client: Gemini CLI (its model a scripted stand-in on loopback), its
filesystem server wrapped by ``amplifier-hooks mcp wrap``, calling MCP tools through the
proxy. What its model reads: a deny's reason, and a result with its secret scrubbed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amplifier_hooks.testing.gemini_api import ScriptedGemini
from amplifier_hooks.testing.gemini_cli import GeminiCli
from amplifier_hooks.testing.turns import ToolUse, Turn
from tests.mcp_proxy.conftest import Sandbox, write_bundle
from tests.mcp_proxy.test_filesystem import GUARD, SECRET
from tests.mcp_proxy.test_wrap import mcp
from tests.unavailable import agent_cli


@pytest.fixture
def gemini(tmp_path: Path) -> GeminiCli:
    binary = agent_cli("Gemini CLI", "gemini-cli", "gemini")
    return GeminiCli(binary, tmp_path / "gemini", timeout=120.0)


async def test_gemini_cli_calls_a_wrapped_server_and_its_model_reads_the_deny(
    gemini: GeminiCli, sandbox: Sandbox, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path / "guard.yaml", GUARD)
    fs = {"command": str(sandbox.server), "args": [str(gemini.project), str(gemini.home)]}
    gemini.write_settings({**gemini.settings(), "mcpServers": {"fs": fs}})
    wrapped = mcp(gemini.home, gemini.project, "wrap", "--bundle", str(bundle))
    assert wrapped.returncode == 0, wrapped.stderr
    assert gemini.settings()["mcpServers"]["fs"]["args"][:2] == ["mcp", "--bundle"]

    notes = gemini.project / "notes.txt"
    notes.write_text(f"deploy key {SECRET}\n")
    key = gemini.home / ".ssh" / "id_rsa"
    key.parent.mkdir()
    key.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n")
    turns = (
        Turn(ToolUse("mcp_fs_read_text_file", {"path": str(notes)})),
        Turn(ToolUse("mcp_fs_read_text_file", {"path": str(key)})),
        Turn("Done."),
    )
    env = {"XDG_STATE_HOME": str(tmp_path / "state"), "AMPLIFIER_HOOKS_LOG": str(tmp_path / "log")}
    async with ScriptedGemini(*turns) as model:
        run = await gemini.run("Read the notes, then the key.", model, env=env)

    assert run.returncode == 0, run.describe()
    first, second, last = model.conversation[-3:]
    assert "mcp_fs_read_text_file" in first.function_names
    read = json.dumps(second.function_responses())
    assert "deploy key [REDACTED:aws_access_key_id]" in read
    assert SECRET not in json.dumps([r.body for r in model.conversation])
    denied = json.dumps(last.function_responses())
    assert f"guard rule credential-read: {key} holds credentials" in denied
    assert "secret" not in denied.replace("credentials", "")
