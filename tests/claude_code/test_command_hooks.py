"""Our bundles guarding the real Claude Code through command hooks
(``amplifier-hooks claude-code install`` then ``claude -p``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from amplifier_hooks.testing.claude_code import ClaudeCode
from amplifier_hooks.testing.messages_api import ScriptedModel, ToolUse, Turn, bash

from .conftest import Drive
from .guards import (
    ASK_QUEUE,
    ASK_RULES,
    DENY_RM,
    POLICY_SESSION,
    cli,
    hook_env,
    install,
    next_pending,
    settings_of,
    write_bundle,
)
from .hooks import ScriptHook

DONE = Turn("Finished.")
__all__ = ["hook_env"]  # the fixture: this module's hooks run with servers of their own


def present(path: Path) -> bool:
    return path.exists()


@pytest.fixture
def build(claude: ClaudeCode) -> Path:
    path = claude.project / "build"
    path.mkdir()
    return path


async def test_install_keeps_the_users_hooks_and_both_run_with_our_deny(
    claude: ClaudeCode, drive: Drive, build: Path, tmp_path: Path
) -> None:
    users = ScriptHook(tmp_path / "user-hooks", "audit")
    settings = claude.write_settings(
        {
            "permissions": {"allow": ["Bash(ls:*)"]},
            "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [users.handler()]}]},
        }
    )
    bundle = write_bundle(tmp_path / "guard.yaml", POLICY_SESSION, DENY_RM)
    said = install(bundle, settings)

    assert f"installed amplifier-hooks in {settings} (command hooks)" in said
    merged = settings_of(settings)
    assert merged["permissions"] == {"allow": ["Bash(ls:*)"]}
    assert merged["hooks"]["PreToolUse"][0]["hooks"] == [users.handler()]

    run, model = await drive(Turn("Cleaning up.", bash("rm -rf build")), DONE)

    assert present(build)
    [result] = run.tool_results()
    assert result["is_error"] is True
    reason = "no recursive deletes: rm -rf build (ah-approval rule rules[0])"
    assert result["content"] == f"PreToolUse:Bash hook error: {reason}"
    assert reason in model.conversation[1].new_text()
    [seen] = users.inputs()
    assert seen["tool_input"]["command"] == "rm -rf build"

    # (a status line may follow: install says WILL NOT RUN where `claude` is not on PATH)
    assert f"already installed in {settings}; nothing changed\n" in install(bundle, settings)


async def test_an_ask_waits_for_the_approver_on_the_queue(
    claude: ClaudeCode, build: Path, tmp_path: Path, hook_env: dict[str, str]
) -> None:
    """Claude Code waits in its PreToolUse hook while the question is on the shared queue;
    ``amplifier-hooks approve ID --allow`` lets the command run, ``--deny`` stops the next."""
    store = str(tmp_path / "approvals.sqlite")
    dist = claude.project / "dist"
    dist.mkdir()
    bundle = write_bundle(tmp_path / "guard.yaml", ASK_QUEUE.replace("{store}", store), ASK_RULES)
    install(bundle, claude.settings_path())
    turns = (Turn(bash("rm -rf build")), Turn(bash("rm -rf dist")), DONE)
    seen: set[int] = set()

    async with ScriptedModel(*turns) as model:
        running = asyncio.ensure_future(claude.run("Clean up.", model, env=hook_env))
        first = await next_pending(store, seen)
        assert first.prompt == "Allow bash: rm -rf build?"
        allowed = await asyncio.to_thread(
            cli, "approve", str(first.id), "--allow", "--store", store
        )
        second = await next_pending(store, seen)
        denied = await asyncio.to_thread(cli, "approve", str(second.id), "--deny", "--store", store)
        run = await running

    assert allowed.returncode == 0 and denied.returncode == 0, (allowed.stderr, denied.stderr)
    assert second.prompt == "Allow bash: rm -rf dist?"
    assert first.workspace == second.workspace == str(claude.project)
    assert first.session_id == second.session_id == run.session_id  # Claude Code's own
    assert (first.event, first.details) == ("tool:pre", {"tool": "bash", "command": "rm -rf build"})
    assert not present(build)
    assert present(dist)
    ran, refused = run.tool_results()
    assert ran["is_error"] is False
    assert refused["is_error"] is True
    reason = "denied by the user (Deny): approval rule rules[0] matched rm -rf dist"
    assert refused["content"] == f"PreToolUse:Bash hook error: {reason}"
    assert reason in model.conversation[2].new_text()


POLICY_ALLOWS = """
session:
  approvals:
    provider: policy
    store: ":memory:"
    policy:
      default: deny
      rules:
        - {{decision: allow, tool: bash, command: "rm -rf build"}}
"""
NUDGE = """
hooks:
  - module: ah-approval
    source: {modules}/ah-approval
    config:
      defaults: false
      rules:
        - {{tool: bash, command: "rm -rf *", decision: ask}}
  - module: ah-progress-monitor
    source: {modules}/ah-progress-monitor
    config:
      thresholds: [1]
      messages: ["NUDGE: {{count}} read(s) in a row; time to act."]
"""


async def test_a_policy_approval_is_an_allow_and_injected_context_reaches_the_model(
    claude: ClaudeCode, drive: Drive, build: Path, tmp_path: Path
) -> None:
    """An ask the policy approves runs without Claude Code's own prompt (which ``-p``
    would refuse); a module's injection after a read reaches the next model request."""
    (claude.project / "notes.txt").write_text("remember the milk\n")
    bundle = write_bundle(tmp_path / "guard.yaml", POLICY_ALLOWS, NUDGE)
    said = install(bundle, claude.settings_path())
    assert "PostToolUse" in said and "PreToolUse" in said

    read = ToolUse("Read", {"file_path": str(claude.project / "notes.txt")})
    run, model = await drive(Turn(read), Turn(bash("rm -rf build")), DONE)

    assert not present(build)
    notes, removed = run.tool_results()
    assert "remember the milk" in str(notes["content"])
    assert removed["is_error"] is False
    assert "NUDGE: 1 read(s) in a row; time to act." in model.conversation[1].new_text()
    assert "NUDGE" not in model.conversation[2].new_text()


ALLOW_RM_BUILD = """
hooks:
  - module: ah-approval
    source: {modules}/ah-approval
    config:
      defaults: false
      rules:
        - {{tool: bash, command: "rm -rf build", decision: allow, reason: "disposable output"}}
"""


async def test_an_allow_rule_grants_what_print_mode_would_refuse(
    claude: ClaudeCode, drive: Drive, build: Path, tmp_path: Path
) -> None:
    """``rm -rf build`` is refused by ``claude -p`` on its own (it needs approval); a bundle
    rule that allows it grants it, so it runs with no prompt and no denial."""
    bundle = write_bundle(tmp_path / "guard.yaml", POLICY_SESSION, ALLOW_RM_BUILD)
    install(bundle, claude.settings_path())

    run, model = await drive(Turn(bash("rm -rf build")), DONE)

    assert not present(build)
    [removed] = run.tool_results()
    assert removed["is_error"] is False
    assert run.result["permission_denials"] == []
    assert model.answered == 2
