"""Codex's adapter: its tools mapped (apply_patch with its paths, exec_command), and only
answers Codex 0.169 takes -- never an "ask", a bare allow, a rewrite without an allow or
a deny without a reason (each is a failed hook there, and the command runs)."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amplifier_hooks import HookResult
from amplifier_hooks.approvals import PolicyApprovalProvider
from amplifier_hooks.approvals.host_prompt import HostApprovalProvider
from amplifier_hooks.events import is_valid_event_name
from amplifier_hooks.hosts import CODEX, HOSTS
from amplifier_hooks.hosts.codex import CODEX_PROFILE
from amplifier_hooks.hosts.codex.patch import patch_targets
from amplifier_hooks.hosts.wrapper import fail_closed_command
from tests.hosts.support import answer_with, fixture, modifying, returning

ASK = HookResult(action="ask_user", approval_prompt="Run npm test?")


def pre_tool_use(tool: str = "Bash", tool_input: Any = None) -> dict[str, Any]:
    return {
        **fixture("claude-code", "PreToolUse"),
        "tool_name": tool,
        "tool_input": {"command": "npm test"} if tool_input is None else tool_input,
        "turn_id": "turn-1",
        "model": "gpt-5.5",
    }


PATCH = """*** Begin Patch
*** Add File: docs/new.md
+hello
*** Update File: src/app.py
*** Move to: src/main.py
@@
-a
+b
*** Delete File: /etc/hosts
*** Update File: docs/new.md
*** End Patch
"""


def test_apply_patch_carries_every_path_of_its_patch() -> None:
    call = CODEX.parse(pre_tool_use("apply_patch", {"command": PATCH}))
    tool_input = call.data["tool_input"]
    assert call.data["tool_name"] == "apply_patch"
    assert tool_input["command"] == PATCH
    assert tool_input["operations"] == [
        {"op": "add", "path": "docs/new.md"},
        {"op": "update", "path": "src/app.py", "to": "src/main.py"},
        {"op": "delete", "path": "/etc/hosts"},
        {"op": "update", "path": "docs/new.md"},
    ]
    assert tool_input["paths"] == ["docs/new.md", "src/app.py", "src/main.py", "/etc/hosts"]
    assert "path" not in tool_input  # several files: no single path to stand for them


def test_a_one_file_patch_also_has_path() -> None:
    one = "*** Begin Patch\n*** Add File: /tmp/x\n+y\n*** End Patch\n"
    assert patch_targets({"command": one}) == {
        "operations": [{"op": "add", "path": "/tmp/x"}],
        "paths": ["/tmp/x"],
        "path": "/tmp/x",
    }
    assert patch_targets({"command": 3}) == {"operations": [], "paths": []}


@pytest.mark.parametrize("tool", ["Bash", "exec_command", "shell"])
def test_codexs_shell_tools_are_bash(tool: str) -> None:
    call = CODEX.parse(pre_tool_use(tool))
    assert call.data["tool_name"] == "bash"
    assert call.data["host"]["tool_name"] == tool


async def test_an_ask_left_to_the_host_is_a_deny_saying_where_a_person_can_answer() -> None:
    answer = await answer_with(
        CODEX, pre_tool_use(), returning(ASK), approval_provider=HostApprovalProvider()
    )
    assert answer.output is not None
    specific = answer.output["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert specific["permissionDecisionReason"].startswith(
        "Run npm test? — a hook asked for a person's approval, and Codex CLI has no way to "
        "ask its user from a hook, so it is denied; a person can answer such questions when "
        "the bundle's approval provider is `queue`"
    )


async def test_an_approval_without_a_rewrite_sends_nothing() -> None:
    policy = PolicyApprovalProvider([{"decision": "allow", "tool": "bash"}])
    answer = await answer_with(CODEX, pre_tool_use(), returning(ASK), approval_provider=policy)
    assert answer.output is None
    assert answer.exit_code == 0


def _rewrite(data: dict[str, Any]) -> None:
    data["tool_input"]["command"] = "npm test --silent"


async def test_an_unapproved_rewrite_is_a_deny_never_the_original() -> None:
    answer = await answer_with(CODEX, pre_tool_use(), modifying(_rewrite))
    assert answer.output is not None
    specific = answer.output["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert "updatedInput" not in specific
    assert "applies a rewrite only together with an allow" in specific["permissionDecisionReason"]


async def test_an_approved_rewrite_is_allow_with_updated_input() -> None:
    policy = PolicyApprovalProvider([{"decision": "allow", "tool": "bash"}])
    answer = await answer_with(
        CODEX, pre_tool_use(), modifying(_rewrite), returning(ASK), approval_provider=policy
    )
    assert answer.output is not None
    specific = answer.output["hookSpecificOutput"]
    assert specific["permissionDecision"] == "allow"
    assert specific["updatedInput"] == {"command": "npm test --silent"}


async def test_a_deny_with_no_reason_still_says_one() -> None:
    answer = await answer_with(CODEX, pre_tool_use(), returning(HookResult(action="deny")))
    assert answer.output is not None
    assert answer.output["hookSpecificOutput"]["permissionDecisionReason"].strip()


async def test_a_rewrite_of_a_patchs_paths_cannot_be_said() -> None:
    def move(data: dict[str, Any]) -> None:
        data["tool_input"]["paths"] = ["elsewhere.md"]

    policy = PolicyApprovalProvider([{"decision": "allow", "tool": "apply_patch"}])
    payload = pre_tool_use("apply_patch", {"command": PATCH})
    answer = await answer_with(
        CODEX, payload, modifying(move), returning(ASK), approval_provider=policy
    )
    assert answer.output is not None
    specific = answer.output["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert (
        "paths of this tool's input are read from its other fields"
        in (specific["permissionDecisionReason"])
    )


@given(st.from_regex(r"[A-Z][A-Za-z0-9]{0,63}", fullmatch=True))
def test_every_hosts_other_events_follow_the_event_name_rule(name: str) -> None:
    for adapter in HOSTS:
        event = adapter.profile.dialect.event_of(name)
        assert is_valid_event_name(event), (adapter, name, event)
        assert event.startswith(f"{adapter.name}:") or ":" in event


def test_claude_codes_notification_is_claude_code_notification() -> None:
    [claude] = [a for a in HOSTS if a.profile.command == "claude-code"]
    assert claude.profile.dialect.event_of("Notification") == "claude-code:notification"


def _wrapped(argv: list[str], stdin: str = "{}") -> subprocess.CompletedProcess[str]:
    command = fail_closed_command(CODEX_PROFILE, argv, 12)
    return subprocess.run(
        ["sh", "-c", command], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_the_wrapper_passes_our_answer_and_our_own_block_through() -> None:
    answered = _wrapped(["sh", "-c", "cat >/dev/null; echo '{\"ok\": 1}'"])
    assert (answered.returncode, answered.stdout) == (0, '{"ok": 1}\n')
    silent = _wrapped(["cat"], stdin="")
    assert (silent.returncode, silent.stdout) == (0, "")
    blocked = _wrapped(["sh", "-c", "echo 'not that' >&2; exit 2"])
    assert (blocked.returncode, blocked.stderr) == (2, "not that\n")


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["sh", "-c", "exit 1"], "it failed (exit 1)"),
        (["sh", "-c", "kill -9 $$"], "it was killed (or gave no answer within 2s)"),
        (["sh", "-c", "kill $$"], "it failed (exit 143)"),
        (["sh", "-c", "echo half"], "its answer is not JSON"),
        (["/no/such/program"], "its program could not be started (/no/such/program)"),
        (["sleep", "30"], "it gave no answer within 2s"),
    ],
)
def test_the_wrapper_blocks_whatever_goes_wrong_around_our_process(
    argv: list[str], why: str
) -> None:
    done = _wrapped(argv)
    assert done.returncode == CODEX_PROFILE.answers.blocking_exit == 2
    assert done.stdout == ""
    assert done.stderr.endswith(
        f"amplifier-hooks could not check this call, so it is blocked: {why}\n"
    )


async def test_a_grant_alone_sends_nothing_and_with_a_rewrite_is_allow() -> None:
    granting = returning(HookResult(grant=True, reason="read-only command"))
    alone = await answer_with(CODEX, pre_tool_use(), granting)
    assert alone.output is None  # a bare allow is a failed hook on Codex

    def rewrite_and_grant(event: str, data: dict[str, Any]) -> HookResult:
        changed = {**data, "tool_input": {"command": "npm test --silent"}}
        return HookResult(action="modify", data=changed, grant=True)

    both = await answer_with(CODEX, pre_tool_use(), rewrite_and_grant)
    assert both.output is not None
    specific = both.output["hookSpecificOutput"]
    assert specific["permissionDecision"] == "allow"
    assert specific["updatedInput"] == {"command": "npm test --silent"}
