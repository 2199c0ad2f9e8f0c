"""ah-shell with real bash scripts: answers, failures, matchers, stdin, configuration."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ah_shell_scripts import BASH_CALL, failures, run_hook, script
from amplifier_module_ah_shell import REGISTRY_GRACE, mount

from amplifier_hooks.session.coordinator import Coordinator
from amplifier_hooks.testing import ScriptedApprovalProvider

# -- answers ----------------------------------------------------------------------------


async def test_exit_2_denies_with_stderr_as_reason(tmp_path: Path) -> None:
    command = script(tmp_path, "guard.sh", 'echo "rm -rf is not allowed here" >&2\nexit 2')
    outcome = await run_hook({"command": command, "matcher": "^bash$", "name": "guard"})
    assert not outcome.allowed
    assert outcome.reason == "rm -rf is not allowed here"
    assert outcome.denied_by == "guard"


async def test_exit_2_without_stderr_still_names_the_hook(tmp_path: Path) -> None:
    outcome = await run_hook({"command": script(tmp_path, "quiet.sh", "exit 2")})
    assert not outcome.allowed
    assert outcome.reason == "blocked by shell hook 'shell:0:quiet.sh' (exit 2)"


async def test_json_decision_block_denies(tmp_path: Path) -> None:
    body = """cat >/dev/null
echo '{"decision": "block", "reason": "policy: no deletes"}'"""
    outcome = await run_hook({"command": script(tmp_path, "block.sh", body)})
    assert (outcome.allowed, outcome.reason) == (False, "policy: no deletes")


async def test_continue_false_denies_with_stop_reason(tmp_path: Path) -> None:
    body = """echo '{"continue": false, "stopReason": "budget exhausted"}'"""
    outcome = await run_hook({"command": script(tmp_path, "stop.sh", body)})
    assert (outcome.allowed, outcome.reason) == (False, "budget exhausted")


@pytest.mark.parametrize(("answer", "allowed"), [("Allow", True), ("Deny", False)])
async def test_permission_ask_becomes_an_approval(
    tmp_path: Path, answer: str, allowed: bool
) -> None:
    body = """echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse",
 "permissionDecision": "ask", "permissionDecisionReason": "Delete the build directory?"}}'"""
    approver = ScriptedApprovalProvider.always(answer)
    coord = Coordinator(approval_provider=approver)
    outcome = await run_hook({"command": script(tmp_path, "ask.sh", body)}, coord=coord)
    assert outcome.allowed is allowed
    (request,) = approver.asked
    assert request.prompt == "Delete the build directory?"
    assert request.source == "shell:0:ask.sh"
    assert outcome.resolution is not None and outcome.resolution.action == "ask_user"


async def test_permission_deny_in_hook_specific_output(tmp_path: Path) -> None:
    body = """echo '{"hookSpecificOutput": {"permissionDecision": "deny",
 "permissionDecisionReason": "outside the sandbox"}, "additionalContext": "ignored"}'"""
    outcome = await run_hook({"command": script(tmp_path, "deny.sh", body)})
    assert (outcome.allowed, outcome.reason) == (False, "outside the sandbox")
    assert outcome.injected == [] and outcome.ephemeral == []  # deny wins over context


async def test_updated_input_modifies_the_tool_input(tmp_path: Path) -> None:
    body = """echo '{"hookSpecificOutput": {"permissionDecision": "allow",
 "updatedInput": {"command": "rm -rf build --dry-run"}}}'"""
    outcome = await run_hook({"command": script(tmp_path, "rewrite.sh", body)})
    assert outcome.allowed and outcome.action == "modify"
    assert outcome.data["tool_input"] == {"command": "rm -rf build --dry-run"}
    assert outcome.data["tool_name"] == "bash"


async def test_updated_input_outranks_context_in_one_answer(
    tmp_path: Path, logs: list[dict[str, Any]]
) -> None:
    body = """echo '{"updatedInput": {"command": "ls"}, "additionalContext": "changed it"}'"""
    outcome = await run_hook({"command": script(tmp_path, "both.sh", body)})
    assert outcome.action == "modify" and outcome.data["tool_input"] == {"command": "ls"}
    assert outcome.injected == []
    (warning,) = [r for r in logs if r["event"].startswith("shell hook answer")]
    assert warning["ignored"] == ["additionalContext"]


@pytest.mark.parametrize("ephemeral", [False, True])
async def test_additional_context_is_injected(tmp_path: Path, ephemeral: bool) -> None:
    body = """echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse",
 "additionalContext": "lint: 2 warnings in build.py"}}'"""
    outcome = await run_hook(
        {
            "command": script(tmp_path, "lint.sh", body),
            "event": "tool:post",
            "ephemeral": ephemeral,
        },
        data={**BASH_CALL, "tool_result": "done"},
    )
    assert outcome.action == "inject_context"
    (message,) = outcome.ephemeral if ephemeral else outcome.injected
    assert message["content"] == "lint: 2 warnings in build.py"
    assert message["role"] == "system"
    assert message["metadata"]["source"] == "shell:0:lint.sh"


async def test_system_message_reaches_the_user(tmp_path: Path) -> None:
    body = """echo '{"systemMessage": "formatter ran on 3 files", "suppressOutput": true}'"""
    outcome = await run_hook({"command": script(tmp_path, "fmt.sh", body)})
    assert outcome.allowed and outcome.action == "continue"
    (message,) = outcome.messages
    assert (message.text, message.source) == ("formatter ran on 3 files", "shell:0:fmt.sh")
    assert outcome.suppress_output


async def test_plain_stdout_is_context_on_prompt_submit_only(tmp_path: Path) -> None:
    command = script(tmp_path, "say.sh", "echo 'Branch: main, 2 uncommitted files'")
    on_prompt = await run_hook(
        {"command": command, "event": "prompt:submit"}, data={"prompt": "hi"}
    )
    assert [m["content"] for m in on_prompt.injected] == ["Branch: main, 2 uncommitted files"]
    on_tool = await run_hook({"command": command})
    assert on_tool.action == "continue" and on_tool.injected == []
    forced = await run_hook({"command": command, "plain_stdout": "context"})
    assert forced.action == "inject_context"


async def test_empty_output_and_exit_0_continue(tmp_path: Path) -> None:
    outcome = await run_hook({"command": script(tmp_path, "ok.sh", "cat >/dev/null\nexit 0")})
    assert outcome.allowed and outcome.action == "continue" and outcome.messages == []


# -- failures ----------------------------------------------------------------------------


GARBAGE = {
    "not utf-8": (r"printf '\xff\xfe garbage'", "stdout is not UTF-8 text"),
    "binary": (r"printf '\x00\x01ELF'", "stdout holds binary data"),
    "broken json": ('echo \'{"decision": "block"\'', "stdout looks like JSON but does not parse"),
    "json array": ("echo '[1, 2]'", "the JSON answer must be an object, got list"),
    "wrong type": ("echo '{\"decision\": 5}'", "decision must be a string, got int"),
    "unknown decision": ('echo \'{"decision": "maybe"}\'', "decision must be one of"),
    "bad permission": (
        'echo \'{"hookSpecificOutput": {"permissionDecision": "perhaps"}}\'',
        "permissionDecision must be one of allow, deny, ask, defer",
    ),
    "bad updated input": (
        'echo \'{"updatedInput": "rm"}\'',
        "updatedInput must be an object, got str",
    ),
    "plain text where forbidden": ("echo 'hello'", "plain text on stdout"),
}


@pytest.mark.parametrize("case", sorted(GARBAGE))
async def test_garbage_output_fails_open_and_is_logged(
    tmp_path: Path, logs: list[dict[str, Any]], case: str
) -> None:
    body, fragment = GARBAGE[case]
    hook = {"command": script(tmp_path, "garbage.sh", body), "plain_stdout": "error"}
    outcome = await run_hook(hook)
    assert outcome.allowed and outcome.action == "continue"
    (record,) = failures(logs)
    assert record["handler"] == "shell:0:garbage.sh"
    assert fragment in record["error"]


async def test_garbage_output_fails_closed_when_configured(tmp_path: Path) -> None:
    body = "echo '{{{ not json at all'"
    outcome = await run_hook({"command": script(tmp_path, "g.sh", body), "fail_closed": True})
    assert not outcome.allowed
    assert outcome.denied_by == "shell:0:g.sh"
    assert outcome.reason is not None
    assert "failing closed" in outcome.reason and "does not parse" in outcome.reason


async def test_other_exit_codes_are_failures(tmp_path: Path, logs: list[dict[str, Any]]) -> None:
    command = script(tmp_path, "crash.sh", "echo 'jq: command not found' >&2\nexit 1")
    opened = await run_hook({"command": command})
    assert opened.allowed
    (record,) = failures(logs)
    assert "exited with status 1: jq: command not found" in record["error"]
    closed = await run_hook({"command": command, "fail_closed": True})
    assert not closed.allowed and "exited with status 1" in (closed.reason or "")


async def test_missing_script_and_missing_cwd_are_failures(
    tmp_path: Path, logs: list[dict[str, Any]]
) -> None:
    assert (await run_hook({"command": str(tmp_path / "nope.sh")})).allowed
    assert "exited with status 127" in failures(logs)[0]["error"]
    closed = await run_hook(
        {"command": "true", "cwd": str(tmp_path / "missing"), "fail_closed": True}
    )
    assert not closed.allowed and "could not start" in (closed.reason or "")


async def test_runaway_output_is_cut_off(tmp_path: Path, logs: list[dict[str, Any]]) -> None:
    command = script(tmp_path, "flood.sh", "yes garbage")
    outcome = await run_hook({"command": command, "timeout": 20}, max_output_bytes=4096)
    assert outcome.allowed
    assert "stdout exceeded 4096 bytes" in failures(logs)[0]["error"]


async def test_registration_timeout_and_names(tmp_path: Path) -> None:
    coord = Coordinator()
    cleanup = await mount(
        coord,
        {
            "hooks": [
                {"event": "tool:pre", "command": "./checks/guard.sh --strict", "timeout": 3},
                {"event": "tool:post", "command": "true", "name": "noop", "fail_closed": True},
            ]
        },
    )
    info = {i.name: i for i in coord.hooks.handler_info()}
    assert set(info) == {"shell:0:guard.sh", "noop", "shell:session-info"}
    assert info["shell:0:guard.sh"].timeout == 3 + REGISTRY_GRACE
    assert not info["shell:0:guard.sh"].fail_closed and info["noop"].fail_closed
    assert info["noop"].owner == "ah-shell"
    cleanup()
    assert coord.hooks.list_handlers() == {}


# -- matcher and stdin -------------------------------------------------------------------


async def test_a_matcher_that_does_not_match_does_not_run_the_script(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    command = script(tmp_path, "mark.sh", f'touch "{marker}"\nexit 2')
    coord = Coordinator()
    await mount(
        coord,
        {"hooks": [{"event": "tool:pre", "matcher": "^(write|edit)_file$", "command": command}]},
    )
    assert (await coord.dispatch("tool:pre", BASH_CALL)).allowed
    assert (await coord.dispatch("tool:pre", {"tool_input": {}})).allowed  # no tool name
    assert not marker.exists()
    outcome = await coord.dispatch("tool:pre", {"tool_name": "edit_file", "tool_input": {}})
    assert not outcome.allowed and marker.exists()


async def test_stdin_carries_the_event_in_claude_code_fields(tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    env_file = tmp_path / "env.txt"
    command = script(
        tmp_path,
        "record.sh",
        f'cat > "{seen}"\n'
        f'echo "$AMPLIFIER_HOOK_EVENT|$AMPLIFIER_HOOK_NAME|$AMPLIFIER_TOOL_NAME|'
        f'$AMPLIFIER_SESSION_ID|$CLAUDE_PROJECT_DIR|$PWD|$EXTRA" > "{env_file}"',
    )
    coord = Coordinator(session_id="sess-42")
    await mount(
        coord,
        {"hooks": [{"event": "tool:post", "command": command, "env": {"EXTRA": "x1"}}]},
    )
    await coord.dispatch("session:start", {"session_id": "sess-42", "workspace": str(tmp_path)})
    result = {"exit_code": 0, "stdout": "ok", "obj": object()}
    await coord.dispatch("tool:post", {**BASH_CALL, "tool_result": result, "tool_use_id": "t1"})

    payload = json.loads(seen.read_text())
    assert payload["hook_event_name"] == "PostToolUse"
    assert payload["amplifier_event"] == "tool:post"
    assert payload["session_id"] == "sess-42"
    assert payload["cwd"] == str(tmp_path)
    assert payload["tool_name"] == "bash"
    assert payload["tool_input"] == {"command": "rm -rf build"}
    assert payload["tool_response"]["stdout"] == "ok"
    assert payload["tool_response"]["obj"].startswith("<object object")  # not JSON: repr
    assert payload["tool_use_id"] == "t1"
    assert payload["data"]["tool_name"] == "bash" and "timestamp" in payload["data"]
    assert env_file.read_text().strip() == (
        f"tool:post|shell:0:record.sh|bash|sess-42|{tmp_path}|{tmp_path}|x1"
    )


async def test_amplifier_event_names_on_request(tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    command = f'cat > "{seen}"'
    await run_hook({"command": command}, event_names="amplifier")
    assert json.loads(seen.read_text())["hook_event_name"] == "tool:pre"


async def test_a_script_that_ignores_a_large_stdin_still_answers(tmp_path: Path) -> None:
    data = {"tool_name": "write_file", "tool_input": {"content": "x" * 2_000_000}}
    command = script(tmp_path, "ignore.sh", 'echo \'{"systemMessage": "seen"}\'')
    outcome = await run_hook({"command": command}, data=data)
    assert [m.text for m in outcome.messages] == ["seen"]


# -- configuration -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "fragment"),
    [
        ({"hooks": [{"event": "tool:pre", "command": "x", "matcher": "("}]}, "regular expression"),
        ({"hooks": [{"event": "PreToolUse", "command": "x"}]}, "invalid event name"),
        ({"hooks": [{"event": "tool:pre", "command": " "}]}, "command must not be blank"),
        ({"hooks": [{"event": "tool:pre", "command": "x", "timeout": 0}]}, "greater than 0"),
        ({"hooks": [{"event": "tool:pre"}]}, "hooks.0.command: Field required"),
        (
            {
                "hooks": [
                    {"event": "tool:pre", "command": "a", "name": "n"},
                    {"event": "tool:post", "command": "b", "name": "n"},
                ]
            },
            "hook names must be unique",
        ),
        ({"hooks": [{"event": "tool:pre", "command": "x", "when": 1}]}, "Extra inputs"),
        ({"max_output_bytes": 10}, "max_output_bytes"),
    ],
)
async def test_bad_config_is_a_clear_value_error(config: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValueError, match="invalid ah-shell config") as info:
        await mount(Coordinator(), config)
    assert fragment in str(info.value)


async def test_no_hooks_registers_nothing() -> None:
    coord = Coordinator()
    await mount(coord, None)
    assert coord.hooks.list_handlers() == {}


def _ran(folder: Path) -> bool:
    return (folder / "ran.txt").exists()


@pytest.mark.parametrize("live", [False, True])
async def test_in_a_replay_the_command_is_shown_not_run(tmp_path: Path, live: bool) -> None:
    from amplifier_hooks.modules import REPLAY_CAPABILITY, Replay

    coord = Coordinator()
    coord.register_capability(REPLAY_CAPABILITY, Replay(live=live))
    command = "printf ran > ran.txt; exit 2"  # would deny, and leave a file behind
    await mount(coord, {"cwd": str(tmp_path), "hooks": [{"event": "tool:pre", "command": command}]})
    outcome = await coord.dispatch("tool:pre", {"tool_name": "bash"})
    if live:
        assert not outcome.allowed
        assert _ran(tmp_path)
    else:
        assert outcome.allowed
        assert [(m.level, m.source, m.text) for m in outcome.messages] == [
            ("info", "shell:0:printf", f"replay: not run (in {tmp_path}): {command}")
        ]
        assert not _ran(tmp_path)
    await coord.cleanup()
