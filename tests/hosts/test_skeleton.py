"""The host interface end to end on the tool events: parse, dispatch, answer."""

from __future__ import annotations

from pathlib import Path

from amplifier_hooks.hosts import CLAUDE_CODE, HostSessions

ROOT = Path(__file__).resolve().parents[2]
STRICT = ROOT / "bundles" / "strict.yaml"


def pre(command: str, session: str = "s1") -> dict[str, object]:
    return {
        "session_id": session,
        "cwd": "/tmp",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "toolu_1",
    }


async def test_a_denied_command_is_a_permission_deny() -> None:
    async with HostSessions(STRICT) as sessions:
        answer = await sessions.answer(CLAUDE_CODE, pre("rm -rf /"))
    assert answer.exit_code == 0
    assert answer.output is not None
    specific = answer.output["hookSpecificOutput"]
    assert specific["hookEventName"] == "PreToolUse"
    assert specific["permissionDecision"] == "deny"


async def test_a_policy_approved_command_is_an_allow() -> None:
    async with HostSessions(STRICT) as sessions:
        answer = await sessions.answer(CLAUDE_CODE, pre("git status"))
    assert answer.output is not None
    assert answer.output["hookSpecificOutput"]["permissionDecision"] == "allow"
