"""The real Claude Code in an interactive session (on a pseudo-terminal), where a person
answers its own permission prompt: what a hook is told, and what provider ``auto`` of a
bundle built on bundles/default.md does there -- it leaves the question to that prompt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amplifier_hooks.approvals import open_store
from amplifier_hooks.testing.claude_code import ClaudeCode
from amplifier_hooks.testing.claude_code_terminal import ClaudeCodeTerminal
from amplifier_hooks.testing.messages_api import ScriptedModel, Turn, bash

from .guards import hook_env, install
from .hooks import decision, pre_tool_use
from .test_who_asks import DONE, TOUCH, bundle, log_env, store

__all__ = ["bundle", "hook_env", "store"]  # fixtures

# A session in a terminal takes longer to start than `claude -p`; each wait is bounded.
pytestmark = pytest.mark.timeout(180)


async def test_a_hook_of_an_interactive_session_is_told_cli_and_its_ask_is_a_prompt(
    claude: ClaudeCode, tmp_path: Path
) -> None:
    """The facts provider auto relies on: an interactive session's hooks see
    ``CLAUDE_CODE_ENTRYPOINT=cli`` (``-p``: ``sdk-cli``, see test_binary.py), and a
    PreToolUse "ask" shows Claude Code's prompt with the hook's reason; "1" (Yes) runs
    the tool."""
    seen = tmp_path / "entrypoint.txt"
    answer = tmp_path / "ask.json"
    answer.write_text(json.dumps(decision("ask", "CONFIRM-7 please")))
    script = tmp_path / "ask.sh"
    script.write_text(
        "#!/bin/sh\ncat >/dev/null\n"
        f'printf "%s|%s\\n" "$CLAUDE_CODE_ENTRYPOINT" "$CLAUDE_CODE_SESSION_ATTENDED" >> {seen}\n'
        f"cat {answer}\n"
    )
    script.chmod(0o755)
    claude.write_settings(pre_tool_use({"type": "command", "command": str(script)}))
    made = claude.project / "made.txt"

    async with (
        ScriptedModel(Turn(bash("touch made.txt")), Turn("FINISHED-9")) as model,
        ClaudeCodeTerminal(claude, model, "Make the file.") as terminal,
    ):
        await terminal.wait_for("Hook PreToolUse:Bash requires confirmation for this command:")
        await terminal.wait_for("CONFIRM-7 please")
        assert not made.exists()
        terminal.press("1")
        await terminal.wait_for("FINISHED-9")

    assert made.exists()
    assert seen.read_text() == "cli|1\n"


async def test_auto_leaves_the_question_to_claude_codes_own_prompt(
    claude: ClaudeCode,
    bundle: Path,
    store: Path,
    tmp_path: Path,
    hook_env: dict[str, str],
) -> None:
    install(bundle, claude.settings_path())
    async with (
        ScriptedModel(TOUCH, DONE) as model,
        ClaudeCodeTerminal(claude, model, "Deploy.", env={**hook_env, **log_env(tmp_path)}) as tty,
    ):
        await tty.wait_for("Hook PreToolUse:Bash requires confirmation for this command:")
        await tty.wait_for("Allow bash: touch deployed.txt?")
        assert not (claude.project / "deployed.txt").exists()
        tty.press("1")
        await tty.wait_for("Finished.")

    assert (claude.project / "deployed.txt").exists()
    backend = open_store(store)
    try:
        assert await backend.list_pending(include_done=True) == []  # not the queue
        # The question is recorded as the host's, then completed by its PostToolUse: the
        # tool call ran, so the person at Claude Code's prompt allowed it.
        deferred, completed = await backend.audit_log()
        assert deferred.via == "deferred"
        assert "host's own permission prompt" in (deferred.reason or "")
        assert (completed.via, completed.allowed, completed.key) == ("host", True, deferred.key)
    finally:
        await backend.aclose()
