"""Both transports of our Claude Code host, end to end with the real binary: command hooks
(relayed to the workspace's server) and HTTP hooks (``amplifier-hooks serve``). Module
state lasts across hook calls, denies reach the model, and an HTTP guard that cannot be
reached blocks instead of letting the call through."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from amplifier_hooks.testing.claude_code import ClaudeCode
from amplifier_hooks.testing.messages_api import ToolUse, Turn, bash

from .conftest import Drive
from .guards import (
    DENY_RM,
    POLICY_SESSION,
    PROGRESS_MONITOR,
    hook_env,
    install,
    serving,
    settings_of,
    write_bundle,
)

__all__ = ["hook_env"]  # the fixture: command hooks here run with servers of their own

SESSION = POLICY_SESSION
GUARD = DENY_RM + PROGRESS_MONITOR
NUDGE = "NUDGE: 2 reads in a row; time to act."
DENIED = "no recursive deletes: rm -rf build (ah-approval rule rules[0])"


def present(path: Path) -> bool:
    return path.exists()


@pytest.fixture
def project(claude: ClaudeCode) -> ClaudeCode:
    (claude.project / "build").mkdir()
    for name in ("a.txt", "b.txt"):
        (claude.project / name).write_text(f"contents of {name}\n")
    return claude


def reading(claude: ClaudeCode, name: str) -> Turn:
    return Turn(ToolUse("Read", {"file_path": str(claude.project / name)}))


@pytest.mark.parametrize("transport", ["command", "http"])
async def test_state_lasts_across_calls_and_a_deny_reaches_the_model(
    project: ClaudeCode, drive: Drive, tmp_path: Path, transport: str
) -> None:
    """Two reads in separate turns: the progress monitor's streak (kept by the server
    between hook calls) nudges after the second only; then ``rm -rf build`` is denied."""
    bundle = write_bundle(tmp_path / "guard.yaml", SESSION, GUARD)
    turns = (
        reading(project, "a.txt"),
        reading(project, "b.txt"),
        Turn(bash("rm -rf build")),
        Turn("Finished."),
    )
    if transport == "http":
        token = secrets.token_urlsafe(24)
        async with serving(bundle, token) as url:
            install(bundle, project.settings_path(), "--url", url)
            run, model = await drive(*turns, env={"AMPLIFIER_HOOKS_TOKEN": token})
        [handler] = settings_of(project.settings_path())["hooks"]["PreToolUse"][0]["hooks"]
        assert (handler["type"], handler["url"], handler["onFailure"]) == ("http", url, "block")
    else:
        install(bundle, project.settings_path())
        run, model = await drive(*turns)

    _, after_a, after_b, after_rm = model.conversation
    assert "contents of a.txt" in after_a.new_text()
    assert "NUDGE" not in after_a.new_text()
    assert NUDGE in after_b.new_text()
    assert present(project.project / "build")
    assert f"PreToolUse:Bash hook error: {DENIED}" in after_rm.new_text()
    assert [r.get("is_error", False) for r in run.tool_results()] == [False, False, True]


APPROVAL_ONLY = DENY_RM


@pytest.mark.parametrize(
    ("fault", "bundle_hooks"),
    [("server-down", APPROVAL_ONLY), ("wrong-token", APPROVAL_ONLY), ("server-down", GUARD)],
    ids=["server-down", "wrong-token", "server-down-prompt-guarded"],
)
async def test_an_http_guard_that_cannot_answer_blocks(
    project: ClaudeCode, drive: Drive, tmp_path: Path, fault: str, bundle_hooks: str
) -> None:
    """Our HTTP hooks carry ``onFailure: block``: with the server down or refusing the
    token, the tool call is blocked -- or, when the bundle also guards UserPromptSubmit
    (the progress monitor listens to it), the prompt never reaches the model at all."""
    bundle = write_bundle(tmp_path / "guard.yaml", SESSION, bundle_hooks)
    token = secrets.token_urlsafe(24)
    turns = (Turn(bash("rm -rf build")), Turn("Finished."))
    if fault == "server-down":
        url = "http://127.0.0.1:9/claude-code"
        install(bundle, project.settings_path(), "--url", url)
        run, model = await drive(*turns, env={"AMPLIFIER_HOOKS_TOKEN": token})
        failure = "connect ECONNREFUSED 127.0.0.1:9"
    else:
        async with serving(bundle, token) as url:
            install(bundle, project.settings_path(), "--url", url)
            run, model = await drive(*turns, env={"AMPLIFIER_HOOKS_TOKEN": "not-" + token})
        failure = f"HTTP 401 from {url}"

    assert present(project.project / "build")
    blocked = f'[{url}]: failed; blocking because onFailure is "block"\n{failure}'
    if bundle_hooks is GUARD:
        assert model.conversation == []
        [said] = [e for e in run.events if e.get("subtype") == "informational"]
        assert said["content"] == f"UserPromptSubmit operation blocked by hook:\n{blocked}"
    else:
        [result] = run.tool_results()
        assert (result["is_error"], result["content"]) == (
            True,
            f"PreToolUse:Bash hook error: {blocked}",
        )
