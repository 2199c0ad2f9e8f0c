"""What the real Claude Code binary does with hooks: the facts our Claude Code host relies on.

Each test drives Claude Code 2.1.331 (pinned in tools/claude-code) against the scripted model
with plain hooks -- a shell script printing fixed JSON, or a tiny HTTP endpoint -- so a change
in a new Claude Code release shows up here, apart from any of our own code.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from amplifier_hooks.testing.claude_code import ClaudeCode
from amplifier_hooks.testing.messages_api import Turn, bash

from .conftest import Drive
from .hooks import HookEndpoint, ScriptHook, decision, pre_tool_use

RM = Turn("Removing the build directory.", bash("rm -rf build"))
DONE = Turn("Finished.")
ALLOWED_BY_CLAUDE = ["--allowedTools", "Bash"]
"""Claude Code's own permission allows Bash, so only a hook can stop it."""


def kept(directory: Path) -> bool:
    """Whether the scripted ``rm -rf`` left ``directory`` alone."""
    return directory.is_dir()


@pytest.fixture
def build(claude: ClaudeCode) -> Path:
    """A directory the scripted model tries to delete."""
    path = claude.project / "build"
    path.mkdir()
    (path / "out.o").write_text("object")
    return path


async def test_a_deny_stops_bash_and_its_reason_reaches_the_model(
    drive: Drive, build: Path, tmp_path: Path
) -> None:
    hook = ScriptHook(tmp_path / "hooks", "deny", decision("deny", "rm -rf is not allowed here"))
    run, model = await drive(RM, DONE, settings=pre_tool_use(hook.handler()))

    assert kept(build)
    [result] = run.tool_results()
    assert result["is_error"] is True
    assert result["content"] == "PreToolUse:Bash hook error: rm -rf is not allowed here"
    assert "rm -rf is not allowed here" in model.conversation[1].new_text()
    assert [d["tool_input"]["command"] for d in run.result["permission_denials"]] == [
        "rm -rf build"
    ]
    [given] = hook.inputs()
    assert given["hook_event_name"] == "PreToolUse"
    assert given["tool_name"] == "Bash"
    assert given["tool_input"]["command"] == "rm -rf build"
    assert given["permission_mode"] == "default"
    assert given["session_id"] == run.session_id
    assert given["tool_use_id"] == run.tool_uses()[0]["id"]


async def test_without_a_hook_print_mode_refuses_rm_by_itself(drive: Drive, build: Path) -> None:
    run, _ = await drive(RM, DONE)

    assert kept(build)
    [result] = run.tool_results()
    assert result["is_error"] is True
    assert "needs approval" in result["content"]


async def test_an_allow_runs_bash_without_claude_codes_own_prompt(
    drive: Drive, build: Path, tmp_path: Path
) -> None:
    hook = ScriptHook(tmp_path / "hooks", "allow", decision("allow", "fine"))
    run, model = await drive(RM, DONE, settings=pre_tool_use(hook.handler()))

    assert not kept(build)
    [result] = run.tool_results()
    assert result["is_error"] is False
    assert run.result["permission_denials"] == []
    assert model.answered == 2 and model.overran == 0


async def test_an_allow_does_not_override_a_deny_rule_of_the_settings(
    drive: Drive, build: Path, tmp_path: Path
) -> None:
    hook = ScriptHook(tmp_path / "hooks", "allow", decision("allow"))
    settings = {"permissions": {"deny": ["Bash(rm:*)"]}, **pre_tool_use(hook.handler())}
    run, _ = await drive(RM, DONE, settings=settings)

    assert kept(build)
    assert run.tool_results()[0]["content"] == (
        "Permission to use Bash with command rm -rf build has been denied."
    )


async def test_an_ask_in_print_mode_is_a_deny_with_the_bare_reason(
    drive: Drive, build: Path, tmp_path: Path
) -> None:
    """Nobody can answer Claude Code's prompt under ``-p``: a hook must settle an ask itself."""
    hook = ScriptHook(tmp_path / "hooks", "ask", decision("ask", "a person must confirm"))
    run, _ = await drive(RM, DONE, settings=pre_tool_use(hook.handler()), args=ALLOWED_BY_CLAUDE)

    assert kept(build)
    [result] = run.tool_results()
    assert (result["is_error"], result["content"]) == (True, "a person must confirm")
    [denied] = [e for e in run.events if e.get("subtype") == "permission_denied"]
    assert denied["decision_reason_type"] == "hook"


async def test_post_tool_use_context_reaches_the_next_request_as_a_system_message(
    drive: Drive, tmp_path: Path
) -> None:
    hook = ScriptHook(
        tmp_path / "hooks",
        "context",
        {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "CTX-7"}},
    )
    settings = {"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [hook.handler()]}]}}
    run, model = await drive(Turn(bash("echo hello")), DONE, settings=settings)

    assert run.tool_results()[0]["content"] == "hello"
    after = model.conversation[1].messages[-1]
    assert after["role"] == "system"
    assert after["content"][0]["text"] == "PostToolUse:Bash hook additional context: CTX-7"
    [given] = hook.inputs()
    assert given["tool_response"]["stdout"] == "hello"


async def test_an_http_hook_gets_the_same_input_and_only_allowed_env_vars_in_headers(
    drive: Drive, build: Path
) -> None:
    async def deny(body: dict[str, Any]) -> web.StreamResponse:
        return web.json_response(decision("deny", "denied over HTTP"))

    async with HookEndpoint(deny) as endpoint:
        handler = {
            "type": "http",
            "url": endpoint.url,
            "headers": {"Authorization": "Bearer $HOOK_TOKEN", "X-Leak": "$NOT_LISTED"},
            "allowedEnvVars": ["HOOK_TOKEN"],
            "timeout": 30,
        }
        env = {"HOOK_TOKEN": "t0ken", "NOT_LISTED": "secret"}
        run, _ = await drive(RM, DONE, settings=pre_tool_use(handler), env=env)

    assert kept(build)
    assert run.tool_results()[0]["content"] == "PreToolUse:Bash hook error: denied over HTTP"
    [(headers, body)] = endpoint.received
    assert headers["Authorization"] == "Bearer t0ken"
    assert headers["X-Leak"] == ""
    assert headers["Content-Type"] == "application/json"
    assert body["hook_event_name"] == "PreToolUse"
    assert body["tool_input"]["command"] == "rm -rf build"
    assert body["transcript_path"] == str(run.transcript_path)


async def test_the_transcript_is_written_where_the_hook_input_says(
    drive: Drive, tmp_path: Path
) -> None:
    hook = ScriptHook(tmp_path / "hooks", "log", decision("allow"))
    run, _ = await drive(Turn(bash("echo hi")), DONE, settings=pre_tool_use(hook.handler()))

    [given] = hook.inputs()
    assert run.transcript_path is not None
    assert given["transcript_path"] == str(run.transcript_path)
    lines = run.transcript()
    uses = [
        block
        for line in lines
        if line.get("type") == "assistant"
        for block in line["message"]["content"]
        if block.get("type") == "tool_use"
    ]
    assert [u["input"]["command"] for u in uses] == ["echo hi"]


async def test_pre_tool_use_hooks_of_one_turn_run_at_the_same_time(
    drive: Drive, tmp_path: Path
) -> None:
    """Two tool calls in one answer: both hooks are running before either finishes (each
    waits for the other to start), so state shared across calls must tolerate concurrency."""
    marks = tmp_path / "marks"
    marks.mkdir()
    script = tmp_path / "together.sh"
    script.write_text(
        "#!/bin/sh\n"
        f"touch {marks}/$$\n"
        "i=0\n"
        f'while [ "$(ls {marks} | wc -l)" -lt 2 ] && [ $i -lt 200 ]; do\n'
        "  sleep 0.1; i=$((i+1))\n"
        "done\n"
        f"if [ \"$(ls {marks} | wc -l)\" -ge 2 ]; then echo '{json.dumps(decision('allow'))}'; "
        f"else echo 'alone' >&2; exit 2; fi\n"
    )
    script.chmod(0o755)
    turn = Turn(bash("echo one"), bash("echo two"))
    settings = pre_tool_use({"type": "command", "command": str(script)})
    run, _ = await drive(turn, DONE, settings=settings)

    assert sorted(r["content"] for r in run.tool_results()) == ["one", "two"]


FAIL_OPEN = "runs"
BLOCKED = "blocked"


@pytest.mark.parametrize(
    ("handler", "outcome", "shown"),
    [
        (
            {"type": "command", "command": "echo 'no entry' >&2; exit 2"},
            BLOCKED,
            "PreToolUse:Bash hook error: [echo 'no entry' >&2; exit 2]: no entry\n",
        ),
        ({"type": "command", "command": "echo broken >&2; exit 1"}, FAIL_OPEN, None),
        ({"type": "command", "command": "echo not json"}, FAIL_OPEN, None),
        ({"type": "command", "command": "sleep 60", "timeout": 1}, FAIL_OPEN, None),
        (
            {"type": "command", "command": "sleep 60", "timeout": 1, "onFailure": "block"},
            BLOCKED,
            "PreToolUse:Bash hook error: [sleep 60]: timed out; "
            'blocking because onFailure is "block"',
        ),
        (
            {"type": "command", "command": "exit 1", "onFailure": "block"},
            BLOCKED,
            'PreToolUse:Bash hook error: [exit 1]: failed; blocking because onFailure is "block"\n'
            "No stderr output",
        ),
        ({"type": "http", "url": "http://127.0.0.1:9/hook", "timeout": 5}, FAIL_OPEN, None),
        (
            {"type": "http", "url": "http://127.0.0.1:9/hook", "timeout": 5, "onFailure": "block"},
            BLOCKED,
            "PreToolUse:Bash hook error: [http://127.0.0.1:9/hook]: failed; blocking because "
            'onFailure is "block"\nconnect ECONNREFUSED 127.0.0.1:9',
        ),
    ],
    ids=[
        "exit-2",
        "exit-1",
        "not-json",
        "command-timeout",
        "command-timeout-onFailure-block",
        "exit-1-onFailure-block",
        "http-down",
        "http-down-onFailure-block",
    ],
)
async def test_a_failing_hook_fails_open_unless_it_says_on_failure_block(
    drive: Drive, build: Path, handler: dict[str, Any], outcome: str, shown: str | None
) -> None:
    run, _ = await drive(RM, DONE, settings=pre_tool_use(handler), args=ALLOWED_BY_CLAUDE)

    [result] = run.tool_results()
    if outcome == BLOCKED:
        assert kept(build)
        assert (result["is_error"], result["content"]) == (True, shown)
    else:
        assert not kept(build), result
        assert result["is_error"] is False


@pytest.mark.parametrize("on_failure", [None, "block"])
@pytest.mark.parametrize("answer", ["status-500", "not-json", "too-slow"])
async def test_an_http_hook_that_answers_badly_fails_open_unless_on_failure_block(
    drive: Drive, build: Path, answer: str, on_failure: str | None
) -> None:
    never = asyncio.Event()

    async def respond(body: dict[str, Any]) -> web.StreamResponse:
        if answer == "status-500":
            return web.json_response(decision("deny", "ignored"), status=500)
        if answer == "not-json":
            return web.Response(text="not json")
        await never.wait()
        raise AssertionError("unreachable")

    async with HookEndpoint(respond) as endpoint:
        handler: dict[str, Any] = {"type": "http", "url": endpoint.url, "timeout": 1}
        if on_failure:
            handler["onFailure"] = on_failure
        run, _ = await drive(RM, DONE, settings=pre_tool_use(handler), args=ALLOWED_BY_CLAUDE)
        never.set()

    [result] = run.tool_results()
    no_verdict = [e for e in run.events if e.get("tag") == "hook_no_verdict"]
    if on_failure == "block":
        assert kept(build)
        assert result["content"].startswith(f"PreToolUse:Bash hook error: [{endpoint.url}]: "), (
            result
        )
        assert 'blocking because onFailure is "block"' in result["content"]
    else:
        assert not kept(build)
        assert no_verdict[0]["hook_no_verdict"]["timed_out"] is (answer == "too-slow")


@pytest.mark.parametrize(
    ("args", "runs"), [(ALLOWED_BY_CLAUDE, True), ([], False)], ids=["bash-allowed", "default"]
)
async def test_updated_input_without_a_decision_is_applied_and_claude_codes_rules_decide(
    drive: Drive, claude: ClaudeCode, tmp_path: Path, args: list[str], runs: bool
) -> None:
    """Our mapping of a plain modify: the new input, no decision (an "ask" would be a deny
    under -p). Where Claude Code's own rules allow the call, the rewritten command runs;
    where they would ask, it is refused as the original would have been."""
    rewrite = {"hookEventName": "PreToolUse", "updatedInput": {"command": "echo new > out.txt"}}
    hook = ScriptHook(tmp_path / "hooks", "rewrite", {"hookSpecificOutput": rewrite})
    turn = Turn("Writing.", bash("echo old > out.txt"))
    run, _ = await drive(turn, DONE, settings=pre_tool_use(hook.handler()), args=args)

    written = claude.project / "out.txt"
    if runs:
        assert written.read_text() == "new\n"
    else:
        assert not written.exists()
        [result] = run.tool_results()
        assert result["is_error"] is True and "needs approval" in result["content"]


async def test_print_mode_tells_its_hooks_its_entrypoint_in_both_transports(
    drive: Drive, tmp_path: Path
) -> None:
    """Under ``-p`` a command hook's environment has ``CLAUDE_CODE_ENTRYPOINT=sdk-cli``,
    and an HTTP hook may send it in a header (``allowedEnvVars``): what provider auto
    reads to know that nobody can answer Claude Code's prompt (hosts/asking.py). The
    interactive side (``cli``) is pinned in test_interactive.py."""
    seen = tmp_path / "entrypoint.txt"
    script = tmp_path / "entrypoint.sh"
    script.write_text(
        "#!/bin/sh\ncat >/dev/null\n"
        f'printf "%s|%s\\n" "$CLAUDE_CODE_ENTRYPOINT" "$CLAUDE_CODE_SESSION_ATTENDED" >> {seen}\n'
    )
    script.chmod(0o755)

    async def allow(body: dict[str, Any]) -> web.StreamResponse:
        return web.json_response(decision("allow"))

    async with HookEndpoint(allow) as endpoint:
        http = {
            "type": "http",
            "url": endpoint.url,
            "headers": {"X-Claude-Code-Entrypoint": "$CLAUDE_CODE_ENTRYPOINT"},
            "allowedEnvVars": ["CLAUDE_CODE_ENTRYPOINT"],
            "timeout": 30,
        }
        command = {"type": "command", "command": str(script)}
        await drive(Turn(bash("echo hi")), DONE, settings=pre_tool_use(command, http))

    assert seen.read_text() == "sdk-cli|0\n"
    [(headers, _)] = endpoint.received
    assert headers["X-Claude-Code-Entrypoint"] == "sdk-cli"
