"""Gemini CLI's hook protocol: its events and tools, ``decision: "deny"``, a changed
input merged over the original (fixtures: tests/hosts/fixtures/gemini-cli)."""

from __future__ import annotations

from typing import Any

import pytest

from amplifier_hooks import HookResult
from amplifier_hooks.approvals import PolicyApprovalProvider
from amplifier_hooks.approvals.host_prompt import HostApprovalProvider
from amplifier_hooks.hosts import CODEX, GEMINI
from amplifier_hooks.hosts.gemini import GEMINI_DIALECT
from tests.hosts.support import answer_with, fixture, fixture_names, modifying, returning

EVENTS = {
    "BeforeTool": "tool:pre",
    "AfterTool": "tool:post",
    "BeforeAgent": "prompt:submit",
    "AfterAgent": "prompt:complete",
    "SessionStart": "session:start",
    "SessionEnd": "session:end",
    "PreCompress": "gemini-cli:pre_compress",  # trigger "auto": no compaction yet
    "BeforeModel": "gemini-cli:before_model",
    "Notification": "gemini-cli:notification",
}


@pytest.mark.parametrize("name", fixture_names("gemini-cli"))
def test_events(name: str) -> None:
    payload = fixture("gemini-cli", name)
    call = GEMINI.parse(payload)
    assert call.event == EVENTS[name]
    assert call.host == "gemini-cli"
    assert call.data["host"]["payload"] == payload
    assert call.guarding == (name in ("BeforeTool", "BeforeAgent"))


@pytest.mark.parametrize(
    ("trigger", "event"),
    [
        ("manual", "context:compaction"),
        ("auto", "gemini-cli:pre_compress"),
        (None, "gemini-cli:pre_compress"),
    ],
)
def test_only_a_manual_pre_compress_is_a_compaction(trigger: str | None, event: str) -> None:
    """Gemini CLI 0.61 sends PreCompress "auto" before every model call and decides only
    afterwards whether to compress; "/compress" (manual) always compresses."""
    payload = {**fixture("gemini-cli", "PreCompress"), "trigger": trigger}
    assert GEMINI.parse(payload).event == event
    assert GEMINI_DIALECT.host_event_of("context:compaction") == "PreCompress"
    assert GEMINI_DIALECT.host_event_of("gemini-cli:pre_compress") == "PreCompress"


@pytest.mark.parametrize(
    ("theirs", "ours"),
    [
        ("run_shell_command", "bash"),
        ("read_file", "read_file"),
        ("write_file", "write_file"),
        ("replace", "edit_file"),
        ("glob", "glob"),
        ("grep_search", "grep"),
        ("mcp_github_search", "mcp_github_search"),
    ],
)
def test_tools(theirs: str, ours: str) -> None:
    payload = {**fixture("gemini-cli", "BeforeTool"), "tool_name": theirs}
    call = GEMINI.parse(payload)
    assert (call.data["tool_name"], call.data["host"]["tool_name"]) == (ours, theirs)


@pytest.mark.parametrize("name", ["BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent"])
async def test_deny_is_decision_deny(name: str) -> None:
    deny = HookResult(action="deny", reason="no")
    answer = await answer_with(GEMINI, fixture("gemini-cli", name), returning(deny))
    assert answer.output == {"decision": "deny", "reason": "no"}


async def test_deny_on_session_start_is_told() -> None:
    deny = HookResult(action="deny", reason="no")
    answer = await answer_with(GEMINI, fixture("gemini-cli", "SessionStart"), returning(deny))
    assert answer.output is not None
    assert "gemini-cli cannot block SessionStart" in answer.output["systemMessage"]


async def test_a_changed_input_is_merged_over_with_only_the_changes() -> None:
    def change(data: dict[str, Any]) -> None:
        data["tool_input"]["command"] = "npm test -- --ci"

    answer = await answer_with(GEMINI, fixture("gemini-cli", "BeforeTool"), modifying(change))
    assert answer.output == {
        "hookSpecificOutput": {
            "hookEventName": "BeforeTool",
            "tool_input": {"command": "npm test -- --ci"},
        }
    }


async def test_a_removed_field_cannot_be_merged_so_it_is_denied() -> None:
    def drop(data: dict[str, Any]) -> None:
        del data["tool_input"]["description"]

    answer = await answer_with(GEMINI, fixture("gemini-cli", "BeforeTool"), modifying(drop))
    assert answer.output == {
        "decision": "deny",
        "reason": "a hook removed description from the tool input; gemini-cli merges "
        "changes over the input, so a field cannot be removed",
    }


@pytest.mark.parametrize("name", ["AfterTool", "BeforeAgent", "SessionStart"])
async def test_context(name: str) -> None:
    inject = HookResult(action="inject_context", context_injection="note")
    answer = await answer_with(GEMINI, fixture("gemini-cli", name), returning(inject))
    assert answer.output == {
        "hookSpecificOutput": {"hookEventName": name, "additionalContext": "note"}
    }


async def test_an_approval_is_decision_allow() -> None:
    ask = HookResult(action="ask_user", approval_prompt="Run it?")
    policy = PolicyApprovalProvider([{"decision": "allow"}])
    answer = await answer_with(
        GEMINI, fixture("gemini-cli", "BeforeTool"), returning(ask), approval_provider=policy
    )
    assert answer.output is not None
    assert answer.output["decision"] == "allow"


async def test_provider_host_cannot_ask_on_gemini() -> None:
    ask = HookResult(action="ask_user", approval_prompt="Run it?")
    answer = await answer_with(
        GEMINI,
        fixture("gemini-cli", "BeforeTool"),
        returning(ask),
        approval_provider=HostApprovalProvider(),
    )
    assert answer.output is not None
    assert answer.output["decision"] == "deny"
    assert (
        "Gemini CLI can ask its user before a tool call, but does not tell its hooks "
        "whether a person is there (under gemini -p an ask ends the turn without a word), "
        "so it is denied; a person can answer such questions when the bundle's approval "
        "provider is `queue`" in answer.output["reason"]
    )


def test_codex_is_claude_code_with_its_own_name_and_fields() -> None:
    payload = {
        **fixture("claude-code", "PreToolUse"),
        "turn_id": "turn-7",
        "model": "gpt-5-codex",
        "transcript_path": None,
    }
    call = CODEX.parse(payload)
    assert (call.host, call.event, call.data["tool_name"]) == ("codex", "tool:pre", "bash")
    assert call.data["turn_id"] == "turn-7" and call.data["transcript_path"] is None
    other = CODEX.parse({**payload, "hook_event_name": "PermissionRequest"})
    assert other.event == "codex:permission_request"
