"""Claude Code's hook inputs -> our events, and our outcomes -> its answers, on recorded
payloads of every event (tests/hosts/fixtures/claude-code, shapes from
agent-cli-hooks.md §1.6)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from amplifier_hooks import HookResult
from amplifier_hooks.approvals import PolicyApprovalProvider
from amplifier_hooks.approvals.host_prompt import HostApprovalProvider
from amplifier_hooks.hosts import CLAUDE_CODE, OUTPUT_LIMIT, HostInputError
from amplifier_hooks.hosts.claude_code import CLAUDE_CODE_DIALECT
from tests.hosts.support import answer_with, fixture, fixture_names, modifying, returning

NAMES = fixture_names("claude-code")

EXPECTED_EVENTS = {
    "SessionStart": "session:start",
    "UserPromptSubmit": "prompt:submit",
    "PreToolUse": "tool:pre",
    "PostToolUse": "tool:post",
    "PostToolUseFailure": "tool:error",
    "Stop": "prompt:complete",
    "PreCompact": "context:compaction",
    "SessionEnd": "session:end",
    "Notification": "claude-code:notification",
    "PermissionRequest": "claude-code:permission_request",
    "SubagentStop": "claude-code:subagent_stop",
}


def test_every_fixture_is_a_known_event() -> None:
    assert set(NAMES) <= CLAUDE_CODE_DIALECT.known_events
    assert len(NAMES) >= 20


@pytest.mark.parametrize("name", NAMES)
def test_every_event_parses_with_its_payload_kept(name: str) -> None:
    payload = fixture("claude-code", name)
    call = CLAUDE_CODE.parse(payload)
    assert call.host == "claude-code"
    assert call.host_event == name
    assert call.event == EXPECTED_EVENTS.get(name, call.event)
    assert call.event.startswith("claude-code:") or name in EXPECTED_EVENTS
    assert call.session_id == payload["session_id"]
    assert call.workspace == payload.get("cwd")
    assert call.data["host"]["payload"] == payload
    assert call.data["host"]["event"] == name
    # Every field of the payload is there under its own name (tool_name/tool_input are
    # ours, their originals are in data["host"]).
    for key, value in payload.items():
        if key not in ("tool_name", "tool_input"):
            assert call.data[key] == value


@pytest.mark.parametrize("name", NAMES)
async def test_a_plain_continue_answers_nothing(name: str) -> None:
    answer = await answer_with(CLAUDE_CODE, fixture("claude-code", name))
    assert (answer.output, answer.exit_code, answer.stderr) == (None, 0, "")


def test_tools_are_canonical_with_the_original_kept() -> None:
    call = CLAUDE_CODE.parse(fixture("claude-code", "PreToolUse"))
    assert call.data["tool_name"] == "bash"
    assert call.data["host"]["tool_name"] == "Bash"
    assert call.data["tool_input"]["command"] == "npm test"
    assert call.data["tool_call_id"] == "toolu_01ABC123"
    post = CLAUDE_CODE.parse(fixture("claude-code", "PostToolUse"))
    assert post.data["tool_name"] == "write_file"
    assert post.data["tool_input"]["path"] == post.data["tool_input"]["file_path"]
    assert post.data["result"] == post.data["tool_result"] == post.data["tool_response"]


@pytest.mark.parametrize(
    ("theirs", "ours"),
    [
        ("Bash", "bash"),
        ("Read", "read_file"),
        ("Write", "write_file"),
        ("Edit", "edit_file"),
        ("MultiEdit", "multi_edit"),
        ("Glob", "glob"),
        ("Grep", "grep"),
        ("WebFetch", "web_fetch"),
        ("WebSearch", "web_search"),
        ("NotebookEdit", "notebook_edit"),
        ("mcp__github__search_repositories", "mcp__github__search_repositories"),
        ("Agent", "Agent"),
    ],
)
def test_tool_names(theirs: str, ours: str) -> None:
    payload = {**fixture("claude-code", "PreToolUse"), "tool_name": theirs}
    assert CLAUDE_CODE.parse(payload).data["tool_name"] == ours


def test_glob_keeps_its_own_path() -> None:
    payload = {
        **fixture("claude-code", "PreToolUse"),
        "tool_name": "Glob",
        "tool_input": {"pattern": "*.py", "path": "/src"},
    }
    assert CLAUDE_CODE.parse(payload).data["tool_input"] == {"pattern": "*.py", "path": "/src"}


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ([1, 2], "hook input must be a JSON object, got an array"),
        ({"session_id": "s"}, "'hook_event_name' must be a non-empty string, got missing"),
        (
            {"hook_event_name": "PreToolUse", "tool_name": "Bash"},
            "'session_id' must be a non-empty string, got missing",
        ),
        (
            {"hook_event_name": "pre tool", "session_id": "s"},
            "'hook_event_name' is not an event name: 'pre tool'",
        ),
        (
            {"hook_event_name": "PreToolUse", "session_id": "s", "tool_input": {}},
            "'tool_name' must be a non-empty string, got missing",
        ),
        (
            {
                "hook_event_name": "PreToolUse",
                "session_id": "s",
                "tool_name": "Bash",
                "tool_input": "rm -rf /",
            },
            "'tool_input' must be an object, got a string",
        ),
        (
            {"hook_event_name": "SessionStart", "session_id": "s", "cwd": 3},
            "'cwd' must be a non-empty string, got a number",
        ),
    ],
)
def test_malformed_inputs_say_what_is_wrong(payload: object, message: str) -> None:
    with pytest.raises(HostInputError) as caught:
        CLAUDE_CODE.parse(payload)
    assert message in str(caught.value)


# -- deny ------------------------------------------------------------------------------

DENY = HookResult(action="deny", reason="not in this repo")


async def test_deny_on_pre_tool_use_is_a_permission_deny() -> None:
    answer = await answer_with(CLAUDE_CODE, fixture("claude-code", "PreToolUse"), returning(DENY))
    assert answer.output == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "not in this repo",
        }
    }
    assert answer.exit_code == 0


@pytest.mark.parametrize(
    "name",
    [
        "UserPromptSubmit",
        "Stop",
        "SubagentStop",
        "PostToolUse",
        "PreCompact",
        "ConfigChange",
        "TaskCompleted",
        "PostToolBatch",
        "UserPromptExpansion",
    ],
)
async def test_deny_is_a_block_where_that_is_the_events_way(name: str) -> None:
    answer = await answer_with(CLAUDE_CODE, fixture("claude-code", name), returning(DENY))
    assert answer.output == {"decision": "block", "reason": "not in this repo"}


async def test_deny_on_permission_request_is_its_decision_object() -> None:
    answer = await answer_with(
        CLAUDE_CODE, fixture("claude-code", "PermissionRequest"), returning(DENY)
    )
    assert answer.output == {
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": "not in this repo"},
        }
    }


@pytest.mark.parametrize("name", ["WorktreeCreate", "Elicitation"])
async def test_deny_without_a_json_way_is_exit_2(name: str) -> None:
    answer = await answer_with(CLAUDE_CODE, fixture("claude-code", name), returning(DENY))
    assert (answer.exit_code, answer.stderr) == (2, "not in this repo")


@pytest.mark.parametrize(
    "name", ["SessionStart", "SessionEnd", "Notification", "PostToolUseFailure", "CwdChanged"]
)
async def test_deny_that_cannot_block_is_told_to_the_user(name: str) -> None:
    answer = await answer_with(CLAUDE_CODE, fixture("claude-code", name), returning(DENY))
    assert answer.exit_code == 0
    assert answer.output == {
        "systemMessage": f"amplifier-hooks denied {name}: not in this repo "
        f"(claude-code cannot block {name}, so it went ahead)"
    }


# -- context, messages ------------------------------------------------------------------

INJECT = HookResult(action="inject_context", context_injection="Remember the style guide.")


@pytest.mark.parametrize(
    "name",
    [
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "UserPromptSubmit",
        "SessionStart",
        "Stop",
        "SubagentStop",
        "SubagentStart",
    ],
)
async def test_context_goes_to_additional_context(name: str) -> None:
    answer = await answer_with(CLAUDE_CODE, fixture("claude-code", name), returning(INJECT))
    assert answer.output == {
        "hookSpecificOutput": {
            "hookEventName": name,
            "additionalContext": "Remember the style guide.",
        }
    }


@pytest.mark.parametrize("name", ["Notification", "PreCompact", "SessionEnd"])
async def test_context_an_event_cannot_take_is_told_not_dropped(name: str) -> None:
    answer = await answer_with(CLAUDE_CODE, fixture("claude-code", name), returning(INJECT))
    assert answer.output == {
        "systemMessage": "amplifier-hooks: context from h0 was not given to the model: "
        f"claude-code takes no additional context on {name}"
    }


async def test_user_messages_are_a_system_message() -> None:
    say = HookResult(user_message="Tests are slow today", user_message_level="warning")
    answer = await answer_with(CLAUDE_CODE, fixture("claude-code", "PreToolUse"), returning(say))
    assert answer.output == {"systemMessage": "warning: Tests are slow today"}


async def test_long_strings_are_cut_with_a_marker() -> None:
    long = HookResult(action="deny", reason="x" * 25_000)
    answer = await answer_with(CLAUDE_CODE, fixture("claude-code", "PreToolUse"), returning(long))
    assert answer.output is not None
    reason = answer.output["hookSpecificOutput"]["permissionDecisionReason"]
    assert len(reason) == OUTPUT_LIMIT
    assert reason.endswith("characters left out]")
    assert "of 25000 characters" in reason


# -- modify ------------------------------------------------------------------------------


def _set_command(data: dict[str, Any]) -> None:
    data["tool_input"]["command"] = "npm test -- --ci"


async def test_a_changed_input_is_updated_input_in_claude_fields() -> None:
    """No decision goes with it: Claude Code applies the input and its own rules decide."""
    payload = fixture("claude-code", "PreToolUse")
    answer = await answer_with(CLAUDE_CODE, payload, modifying(_set_command))
    assert answer.output == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "updatedInput": {**payload["tool_input"], "command": "npm test -- --ci"},
        }
    }


async def test_a_changed_path_goes_back_as_file_path() -> None:
    payload = {
        **fixture("claude-code", "PreToolUse"),
        "tool_name": "Write",
        "tool_input": {"file_path": "/p/a.txt", "content": "x"},
    }

    def move(data: dict[str, Any]) -> None:
        data["tool_input"]["path"] = "/p/b.txt"

    answer = await answer_with(CLAUDE_CODE, payload, modifying(move))
    assert answer.output is not None
    updated = answer.output["hookSpecificOutput"]["updatedInput"]
    assert updated == {"file_path": "/p/b.txt", "content": "x"}


async def test_a_changed_tool_name_cannot_be_applied_so_it_is_denied() -> None:
    def rename(data: dict[str, Any]) -> None:
        data["tool_name"] = "read_file"

    answer = await answer_with(CLAUDE_CODE, fixture("claude-code", "PreToolUse"), modifying(rename))
    assert answer.output is not None
    specific = answer.output["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert specific["permissionDecisionReason"] == (
        "a hook changed tool_name of the tool call, which claude-code cannot apply "
        "(only the tool's input can be changed)"
    )


async def test_a_changed_prompt_cannot_be_applied_so_the_prompt_is_blocked() -> None:
    def scrub(data: dict[str, Any]) -> None:
        data["prompt"] = "[REDACTED]"

    answer = await answer_with(
        CLAUDE_CODE, fixture("claude-code", "UserPromptSubmit"), modifying(scrub)
    )
    assert answer.output == {
        "decision": "block",
        "reason": "a hook changed prompt of UserPromptSubmit, which claude-code cannot "
        "apply to this event",
    }


async def test_a_change_on_stop_is_reported_not_blocked() -> None:
    def scrub(data: dict[str, Any]) -> None:
        data["last_assistant_message"] = "[REDACTED]"

    answer = await answer_with(CLAUDE_CODE, fixture("claude-code", "Stop"), modifying(scrub))
    assert answer.output == {
        "systemMessage": "amplifier-hooks: a hook changed last_assistant_message of Stop, "
        "which claude-code cannot apply to this event; the change was not applied"
    }


# -- approvals ---------------------------------------------------------------------------

ASK = HookResult(action="ask_user", approval_prompt="Run npm test?")


async def test_an_approval_by_policy_is_an_allow() -> None:
    policy = PolicyApprovalProvider([{"decision": "allow", "tool": "bash"}])
    answer = await answer_with(
        CLAUDE_CODE, fixture("claude-code", "PreToolUse"), returning(ASK), approval_provider=policy
    )
    assert answer.output is not None
    specific = answer.output["hookSpecificOutput"]
    assert specific["permissionDecision"] == "allow"
    assert specific["permissionDecisionReason"].startswith(
        "approved through amplifier-hooks: policy"
    )


async def test_a_grant_is_claude_codes_allow_with_the_handlers_reason() -> None:
    granting = returning(HookResult(grant=True, reason="read-only git command"))
    answer = await answer_with(CLAUDE_CODE, fixture("claude-code", "PreToolUse"), granting)
    assert answer.output is not None
    specific = answer.output["hookSpecificOutput"]
    assert specific["permissionDecision"] == "allow"
    assert specific["permissionDecisionReason"] == (
        "allowed by amplifier-hooks (h0): read-only git command"
    )


async def test_a_grant_next_to_a_question_is_no_allow() -> None:
    async def both(event: str, data: dict[str, Any]) -> HookResult:
        return HookResult(grant=True)

    answer = await answer_with(
        CLAUDE_CODE,
        fixture("claude-code", "PreToolUse"),
        both,
        returning(ASK),
        approval_provider=PolicyApprovalProvider([], default="deny"),
    )
    assert answer.output is not None
    assert answer.output["hookSpecificOutput"]["permissionDecision"] == "deny"


async def test_a_refusal_by_policy_is_a_deny() -> None:
    policy = PolicyApprovalProvider([], default="deny")
    answer = await answer_with(
        CLAUDE_CODE, fixture("claude-code", "PreToolUse"), returning(ASK), approval_provider=policy
    )
    assert answer.output is not None
    assert answer.output["hookSpecificOutput"]["permissionDecision"] == "deny"


async def test_no_provider_denies() -> None:
    answer = await answer_with(CLAUDE_CODE, fixture("claude-code", "PreToolUse"), returning(ASK))
    assert answer.output is not None
    assert answer.output["hookSpecificOutput"]["permissionDecision"] == "deny"


async def test_provider_host_lets_claude_code_ask() -> None:
    answer = await answer_with(
        CLAUDE_CODE,
        fixture("claude-code", "PreToolUse"),
        returning(ASK),
        approval_provider=HostApprovalProvider(),
    )
    assert answer.output == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "ask",
            "permissionDecisionReason": "Run npm test?",
        }
    }


async def test_provider_host_denies_where_claude_code_cannot_ask() -> None:
    answer = await answer_with(
        CLAUDE_CODE,
        fixture("claude-code", "UserPromptSubmit"),
        returning(ASK),
        approval_provider=HostApprovalProvider(),
    )
    assert answer.output == {
        "decision": "block",
        "reason": "Run npm test? — a hook asked for approval, and claude-code can ask its "
        "user only before a tool call (not on UserPromptSubmit), so it is denied",
    }


# -- refusing ----------------------------------------------------------------------------


def test_refusing_an_unknown_call_blocks_with_exit_2() -> None:
    answer = CLAUDE_CODE.refuse(None, "boom", True)
    assert (answer.output, answer.exit_code) == (None, 2)
    assert answer.stderr == "amplifier-hooks could not check this call, so it is blocked: boom"


def test_refusing_a_tool_call_is_a_deny() -> None:
    call = CLAUDE_CODE.parse(fixture("claude-code", "PreToolUse"))
    answer = CLAUDE_CODE.refuse(call, "boom", call.guarding)
    assert answer.output is not None
    assert answer.output["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_refusing_a_non_guarding_event_warns() -> None:
    call = CLAUDE_CODE.parse(fixture("claude-code", "PostToolUse"))
    assert not call.guarding
    answer = CLAUDE_CODE.refuse(call, "boom", call.guarding)
    assert answer.output == {"systemMessage": "amplifier-hooks could not check this event: boom"}
    assert answer.exit_code == 0


@pytest.mark.parametrize("name", NAMES)
def test_answers_are_json(name: str) -> None:
    call = CLAUDE_CODE.parse(fixture("claude-code", name))
    answer = CLAUDE_CODE.refuse(call, "boom", call.guarding)
    json.dumps(answer.output)
