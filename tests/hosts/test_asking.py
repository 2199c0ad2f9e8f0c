"""Whether a hook call's host can ask its person (provider ``auto``), and what a Claude
Code session gets for a question in each case: the host's prompt, the queue, or a deny
that says how to answer. The entrypoints are those the real binary gives its hooks
(pinned in tests/claude_code/test_binary.py)."""

from __future__ import annotations

import asyncio
import dataclasses
import textwrap
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.approvals import open_store
from amplifier_hooks.approvals.heartbeat import Heartbeat
from amplifier_hooks.hosts import CLAUDE_CODE, CODEX, GEMINI, HOSTS, HostSessions
from amplifier_hooks.hosts import asking as asking_module
from amplifier_hooks.hosts.asking import host_asking, read_entrypoint
from amplifier_hooks.transports.relay.client import _query
from tests.hosts.support import ROOT, fixture

MODULES = ROOT / "modules"


def call(event: str = "PreToolUse", command: str = "make deploy") -> dict[str, Any]:
    payload = {**fixture("claude-code", event), "session_id": "s1"}
    if "tool_input" in payload:
        payload["tool_input"] = {**payload["tool_input"], "command": command}
    return payload


@pytest.mark.parametrize(
    ("event", "entrypoint", "can_ask", "why"),
    [
        ("PreToolUse", "cli", True, ""),
        ("PreToolUse", "sdk-cli", False, "(entrypoint sdk-cli, as under claude -p)"),
        ("PreToolUse", None, False, "run `amplifier-hooks claude-code install` again"),
        ("PostToolUse", "cli", False, "only on PreToolUse, not on PostToolUse"),
        ("UserPromptSubmit", "cli", False, "only on PreToolUse, not on UserPromptSubmit"),
    ],
)
def test_claude_code_asks_only_before_a_tool_call_of_an_interactive_session(
    event: str, entrypoint: str | None, can_ask: bool, why: str
) -> None:
    asking = host_asking(CLAUDE_CODE, CLAUDE_CODE.parse(call(event)), entrypoint)
    assert (asking.host, asking.can_ask) == ("Claude Code", can_ask)
    assert why in asking.why_not and bool(asking.why_not) != can_ask


def test_a_host_we_never_send_an_ask_never_asks_and_says_why() -> None:
    payload = fixture("gemini-cli", "BeforeTool")
    asking = host_asking(GEMINI, GEMINI.parse(payload), "cli")
    assert not asking.can_ask
    assert asking.why_not.startswith("can ask its user before a tool call, but does not tell")
    codex = host_asking(CODEX, CODEX.parse(fixture("claude-code", "PreToolUse")), "cli")
    assert codex.why_not == "has no way to ask its user from a hook"


def test_only_a_short_word_is_taken_for_an_entrypoint() -> None:
    assert read_entrypoint("sdk-cli") == "sdk-cli"
    for odd in ("", "cli; rm", "x" * 65, "clï", None):
        assert read_entrypoint(odd) is None
    assert _query({"CLAUDE_CODE_ENTRYPOINT": "cli"}, None) == "?entrypoint=cli"
    assert _query({"CLAUDE_CODE_ENTRYPOINT": "a b&c=d"}, None) == ""
    assert _query({}, None) == ""


def auto_bundle(tmp_path: Path, store: Path) -> Path:
    path = tmp_path / "bundle.yaml"
    path.write_text(
        textwrap.dedent(
            f"""\
            bundle: {{name: auto, version: "1"}}
            session:
              approvals: {{provider: auto, store: "{store}"}}
            hooks:
              - module: ah-approval
                source: {MODULES / "ah-approval"}
                config:
                  defaults: false
                  rules:
                    - {{tool: bash, command: "make *", decision: ask, timeout: 60}}
            """
        )
    )
    return path


async def test_a_claude_code_session_gets_its_prompt_the_queue_or_how_to_answer(
    tmp_path: Path,
) -> None:
    store = tmp_path / "approvals.db"
    async with HostSessions(auto_bundle(tmp_path, store)) as sessions:
        interactive = await sessions.answer(CLAUDE_CODE, call(), entrypoint="cli")
        printed = await sessions.answer(CLAUDE_CODE, call(), entrypoint="sdk-cli")
        approver = open_store(store)
        try:
            async with Heartbeat(approver, "ana@laptop", "console"):
                asking = asyncio.ensure_future(
                    sessions.answer(CLAUDE_CODE, call(), entrypoint="sdk-cli")
                )
                while not (rows := await approver.list_pending()):
                    await approver.wait_for_change(None, 1.0)
                assert (await approver.answer(rows[0].id, "Allow", "ana@laptop")).won
                queued = await asking
        finally:
            await approver.aclose()

    assert interactive.output is not None and printed.output is not None
    asked = interactive.output["hookSpecificOutput"]
    assert (asked["permissionDecision"], asked["permissionDecisionReason"]) == (
        "ask",
        "Allow bash: make deploy?",
    )
    denied = printed.output["hookSpecificOutput"]
    assert denied["permissionDecision"] == "deny"
    assert denied["permissionDecisionReason"].startswith(
        "Allow bash: make deploy? -- needs a person's answer and nobody could be asked: "
        "Claude Code cannot show its permission prompt in this session (entrypoint "
        "sdk-cli, as under claude -p), and no approver console is watching the queue."
    )
    assert (
        f"run `amplifier-hooks approve --store {store}` in a terminal"
        in (denied["permissionDecisionReason"])
    )
    assert queued.output is not None
    assert queued.output["hookSpecificOutput"]["permissionDecision"] == "allow"


def test_a_host_that_takes_an_ask_but_does_not_say_who_is_there_is_not_asked() -> None:
    """Copilot CLI takes an "ask" before a tool call, but tells its hooks nothing like
    Claude Code's entrypoint: auto does not bet on a prompt nobody may see."""
    adapter = next(a for a in HOSTS if a.name == "copilot")
    payload = {**fixture("copilot", "preToolUse"), "hook_event_name": "preToolUse"}
    asking = host_asking(adapter, adapter.parse(payload), "cli")
    assert not asking.can_ask and "does not tell its hooks" in asking.why_not


def test_each_adapter_gets_its_own_answer_however_often_it_asks() -> None:
    """The answers are kept per adapter, event and entrypoint (every call asks): asked
    again, or by another adapter in between, each gets what it got the first time."""
    claude = CLAUDE_CODE.parse(call("PreToolUse"))
    codex = CODEX.parse(fixture("claude-code", "PreToolUse"))
    for _ in range(3):
        assert host_asking(CLAUDE_CODE, claude, "cli").can_ask
        assert not host_asking(CLAUDE_CODE, claude, "sdk-cli").can_ask
        assert host_asking(CODEX, codex, "cli").why_not == "has no way to ask its user from a hook"


def test_what_is_kept_of_the_answers_stays_bounded_whatever_events_come() -> None:
    """A host (or someone posting to the server) may name any number of events: the
    answers kept stay a few hundred, and each is still right."""
    for number in range(3 * asking_module._ASKED_MOST):
        made = dataclasses.replace(CLAUDE_CODE.parse(call("PreToolUse")), host_event=f"E{number}")
        assert "not on E" in host_asking(CLAUDE_CODE, made, "cli").why_not
        assert len(asking_module._ASKED) <= asking_module._ASKED_MOST
    assert host_asking(CLAUDE_CODE, CLAUDE_CODE.parse(call("PreToolUse")), "cli").can_ask
