"""Who is asked, by default: a bundle built on bundles/default.md (``provider: auto``) in
front of the real Claude Code under ``claude -p``, where nobody can answer Claude Code's
own prompt. With no approver the question is denied and the model reads how a person can
answer; with an approver console running on the session's store (the real ``amplifier-hooks
approve --web``), the question waits on the queue and ``approve ID --allow`` lets it run.
The interactive side (Claude Code's own prompt) is in test_interactive.py."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from amplifier_hooks.approvals import open_store
from amplifier_hooks.approvals.store import PRESENCE_WINDOW
from amplifier_hooks.testing.claude_code import ClaudeCode
from amplifier_hooks.testing.messages_api import ScriptedModel, Turn, bash

from .conftest import Drive
from .guards import ROOT, cli, hook_env, install, next_pending, serving, settings_of

__all__ = ["hook_env"]  # the fixture: this module's hooks run with servers of their own

DONE = Turn("Finished.")
TOUCH = Turn("Deploying.", bash("touch deployed.txt"))
DEFAULT_LIKE = """\
bundle: {{name: default-like, version: "0.1"}}
includes: [{root}/bundles/default.md]
session:
  approvals: {{store: "{store}"}}
hooks:
  - module: ah-approval
    source: {root}/modules/ah-approval
    config:
      defaults: false
      rules:
        - {{tool: bash, command: "touch *", decision: ask, timeout: 120}}
"""
"""bundles/default.md as it is (provider auto, its modules), with one rule that asks and
the store in the test's directory."""


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "approvals.db"


@pytest.fixture
def bundle(tmp_path: Path, store: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # The default bundle's event log goes where the test says, not into the checkout.
    monkeypatch.setenv("AMPLIFIER_HOOKS_LOG", str(tmp_path / "events.jsonl"))
    path = tmp_path / "default-like.yaml"
    path.write_text(DEFAULT_LIKE.format(root=ROOT, store=store))
    return path


def log_env(tmp_path: Path) -> dict[str, str]:
    return {"AMPLIFIER_HOOKS_LOG": str(tmp_path / "events.jsonl")}


def how_to(store: Path, entrypoint: str) -> str:
    return (
        "Allow bash: touch deployed.txt? -- needs a person's answer and nobody could be "
        "asked: Claude Code cannot show its permission prompt in this session (entrypoint "
        f"{entrypoint}, as under claude -p), and no approver console is watching the queue. "
        f"To go on, run `amplifier-hooks approve --store {store}` in a terminal to answer "
        "questions like this (then try again), or allow it in the bundle (approval rule "
        "rules[0] matched touch deployed.txt)."
    )


@pytest.mark.parametrize("transport", ["command", "http"])
async def test_with_nobody_to_ask_the_model_reads_how_a_person_can_answer(
    claude: ClaudeCode,
    drive: Drive,
    bundle: Path,
    store: Path,
    tmp_path: Path,
    transport: str,
) -> None:
    if transport == "http":
        token = secrets.token_urlsafe(24)
        async with serving(bundle, token) as url:
            install(bundle, claude.settings_path(), "--url", url)
            env = {"AMPLIFIER_HOOKS_TOKEN": token, **log_env(tmp_path)}
            run, model = await drive(TOUCH, DONE, env=env)
        [handler] = settings_of(claude.settings_path())["hooks"]["PreToolUse"][0]["hooks"]
        assert handler["headers"]["X-Claude-Code-Entrypoint"] == "$CLAUDE_CODE_ENTRYPOINT"
    else:
        install(bundle, claude.settings_path())
        run, model = await drive(TOUCH, DONE, env=log_env(tmp_path))

    assert not (claude.project / "deployed.txt").exists()
    [result] = run.tool_results()
    reason = how_to(store, "sdk-cli")
    assert (result["is_error"], result["content"]) == (
        True,
        f"PreToolUse:Bash hook error: {reason}",
    )
    assert reason in model.conversation[1].new_text()
    backend = open_store(store)
    try:
        assert await backend.list_pending(include_done=True) == []
        [audited] = await backend.audit_log()
        assert (audited.via, audited.allowed) == ("policy", False)
    finally:
        await backend.aclose()


@contextlib.asynccontextmanager
async def approver_console(store: Path, within: float = 60.0) -> AsyncIterator[None]:
    """``amplifier-hooks approve --web --port 0 --store S`` running, its heartbeat in the
    store; stopped with SIGTERM afterwards."""
    env = {**os.environ, "AMPLIFIER_HOOKS_TOKEN": secrets.token_urlsafe(24)}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "amplifier_hooks.cli", "approve", "--web", "--port", "0", "--store", str(store)),
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    backend = open_store(store)
    try:
        async with asyncio.timeout(within):
            while not await backend.approvers(PRESENCE_WINDOW):
                assert process.returncode is None, "approve --web exited"
                await asyncio.sleep(0.05)  # SQLite has no notifications: polled
        yield
    finally:
        if process.returncode is None:
            process.terminate()
        await process.wait()
        await backend.aclose()


async def test_with_an_approver_console_running_the_question_waits_on_the_queue(
    claude: ClaudeCode, bundle: Path, store: Path, tmp_path: Path, hook_env: dict[str, str]
) -> None:
    install(bundle, claude.settings_path())
    async with approver_console(store), ScriptedModel(TOUCH, DONE) as model:
        env = {**hook_env, **log_env(tmp_path)}
        running = asyncio.ensure_future(claude.run("Deploy.", model, env=env))
        row = await next_pending(str(store), set())
        allowed = await asyncio.to_thread(
            cli, "approve", str(row.id), "--allow", "--store", str(store)
        )
        run = await running

    assert allowed.returncode == 0, allowed.stderr
    assert (row.prompt, row.session_id) == ("Allow bash: touch deployed.txt?", run.session_id)
    assert (claude.project / "deployed.txt").exists()
    [result] = run.tool_results()
    assert result["is_error"] is False
    assert run.result["permission_denials"] == []
    backend = open_store(store)
    try:
        assert await backend.approvers(PRESENCE_WINDOW) == []  # the console left on exit
    finally:
        await backend.aclose()
