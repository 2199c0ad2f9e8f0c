"""The default bundle's guard in front of the real Claude Code (``claude -p``, command
hooks): a deny reaches the model with its rule's reason, an allowed command runs with no
prompt, and a question goes to the queue and is answered there.

What the guard says is not written here: ``amplifier-hooks test`` says it for the same
call, workspace and home, and the test checks that Claude Code's model was told that."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

from amplifier_hooks.testing.claude_code import ClaudeCode
from amplifier_hooks.testing.messages_api import ScriptedModel, ToolUse, Turn, bash

from .conftest import Drive
from .guards import ROOT, cli, hook_env, install, next_pending

DEFAULT = ROOT / "bundles" / "default.md"
DONE = Turn("Finished.")
__all__ = ["hook_env"]  # the fixture: this module's hooks run with servers of their own


def verdict(claude: ClaudeCode, *args: str) -> dict[str, Any]:
    """``amplifier-hooks test --json`` of a call in Claude Code's project, with its HOME."""
    env = {**os.environ, "HOME": str(claude.home)}
    done = cli("test", str(DEFAULT), "--json", "--cwd", str(claude.project), *args, env=env)
    assert done.returncode in (0, 3, 4), done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


async def test_a_denied_command_reaches_the_model_with_its_rules_reason(
    claude: ClaudeCode, drive: Drive
) -> None:
    keep = claude.home / "keep.txt"
    keep.write_text("still here\n")
    expected = verdict(claude, "--", "rm -rf ~")
    assert expected["decision"] == "deny" and expected["rule"], expected
    assert expected["rule"] in expected["reason"]  # a rule names itself
    install(DEFAULT, claude.settings_path())

    run, model = await drive(Turn("Freeing space.", bash("rm -rf ~")), DONE)

    assert keep.read_text() == "still here\n"
    [result] = run.tool_results()
    assert result["is_error"] is True
    assert expected["reason"] in result["content"]
    assert expected["reason"] in model.conversation[1].new_text()


async def test_an_allowed_command_runs_with_no_prompt(claude: ClaudeCode, drive: Drive) -> None:
    expected = verdict(claude, "--", "touch allowed.txt")
    assert expected["decision"] == "allow" and expected["granted"] is True, expected
    install(DEFAULT, claude.settings_path())

    run, model = await drive(Turn(bash("touch allowed.txt")), Turn(bash("ls")), DONE)

    assert (claude.project / "allowed.txt").exists()
    touched, listed = run.tool_results()
    assert touched["is_error"] is False and listed["is_error"] is False
    assert "allowed.txt" in str(listed["content"])
    assert run.result["permission_denials"] == []  # -p refuses what needs a prompt
    assert model.answered == 3


QUEUED = """\
bundle: {{name: default-queued, version: "0.1"}}
includes: ["{default}"]
session:
  approvals: {{provider: queue, store: "{store}"}}
"""


async def test_a_question_goes_to_the_queue_and_is_answered_there(
    claude: ClaudeCode, tmp_path: Path, hook_env: dict[str, str]
) -> None:
    """Reading a secrets manifest in the workspace is a question; with an approver on the queue,
    ``amplifier-hooks approve ID --allow`` lets the read happen."""
    secrets = claude.project / "deploy" / "secrets.yaml"
    secrets.parent.mkdir()
    secrets.write_text("database_url: postgres://localhost/dev\n")
    expected = verdict(claude, "--tool", "read", "--path", str(secrets))
    assert expected["decision"] == "ask", expected
    store = str(tmp_path / "approvals.sqlite")
    bundle = tmp_path / "queued.yaml"
    bundle.write_text(QUEUED.format(default=DEFAULT, store=store))
    install(bundle, claude.settings_path())
    read = ToolUse("Read", {"file_path": str(secrets)})
    seen: set[int] = set()

    async with ScriptedModel(Turn(read), DONE) as model:
        running = asyncio.ensure_future(claude.run("Check the settings.", model, env=hook_env))
        pending = await next_pending(store, seen)
        answered = await asyncio.to_thread(
            cli, "approve", str(pending.id), "--allow", "--store", store
        )
        run = await running

    assert answered.returncode == 0, answered.stderr
    assert "secrets.yaml" in pending.prompt
    assert pending.session_id == run.session_id
    [result] = run.tool_results()
    assert not result.get("is_error")  # a Read that worked has no is_error at all
    assert "database_url" in str(result["content"])
    assert model.answered == 2
