"""What our OpenClaw plugin sends, read as a call, and each outcome as OpenClaw's hook
result: a deny is a block with its reason, a question goes to a channel's person or is
denied saying how to answer, a change is a shallow merge, context goes where OpenClaw
takes it, and whatever cannot be read is blocked."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks import HookResult
from amplifier_hooks.approvals.host_prompt import HostApprovalProvider
from amplifier_hooks.hosts import OPENCLAW, HostInputError, HostSessions
from amplifier_hooks.hosts.base import refuse_payload
from tests.claude_code.guards import cli
from tests.hosts.support import answer_with, modifying, returning
from tests.unavailable import ROOT


def call(tool: str = "exec", **params: Any) -> dict[str, Any]:
    return {
        "hook_event_name": "before_tool_call",
        "toolName": tool,
        "params": params or {"command": "make deploy"},
        "toolCallId": "call_1",
        "runId": "run_1",
        "sessionId": "s1",
        "sessionKey": "agent:main:main",
        "agentId": "main",
        "cwd": "/work/project",
    }


def test_a_tool_call_carries_our_names_and_openclaws() -> None:
    parsed = OPENCLAW.parse(call("write", path="notes.md", content="hi"))
    assert (parsed.event, parsed.session_id, parsed.workspace) == (
        "tool:pre",
        "s1",
        "/work/project",
    )
    assert parsed.guarding
    assert parsed.data["tool_name"] == "write_file"
    assert parsed.data["tool_input"] == {"path": "notes.md", "content": "hi"}
    assert parsed.data["tool_use_id"] == "call_1"
    assert parsed.data["host"]["tool_name"] == "write"
    shell = OPENCLAW.parse(call(command="ls -la"))
    assert (shell.data["tool_name"], shell.data["tool_input"]) == ("bash", {"command": "ls -la"})


def test_a_patch_carries_its_paths_and_typing_into_a_shell_is_a_command() -> None:
    patch = "*** Begin Patch\n*** Add File: /etc/cron.d/x\n+* * * * * sh\n*** End Patch\n"
    patched = OPENCLAW.parse(call("apply_patch", input=patch))
    assert patched.data["tool_input"]["paths"] == ["/etc/cron.d/x"]
    typed = OPENCLAW.parse(call("process", action="submit", sessionId="p1", data="rm -rf ~"))
    assert typed.data["tool_name"] == "bash"
    assert typed.data["tool_input"]["command"] == "rm -rf ~"
    polled = OPENCLAW.parse(call("process", action="poll", sessionId="p1"))
    assert polled.data["tool_name"] == "process"


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"hook_event_name": "BeforeTool"}, "not an OpenClaw hook name"),
        ({"sessionId": None, "sessionKey": None, "runId": None}, "names no session"),
        ({"toolName": 3}, "'toolName' must be a non-empty string"),
        ({"params": "ls"}, "'params' must be an object, got a string"),
    ],
)
def test_malformed_input_says_what_is_wrong(change: dict[str, Any], says: str) -> None:
    payload = {k: v for k, v in {**call(), **change}.items() if v is not None}
    with pytest.raises(HostInputError, match=says):
        OPENCLAW.parse(payload)


def test_what_cannot_be_read_is_blocked_with_the_reason() -> None:
    answer = refuse_payload(OPENCLAW, {"toolName": "exec"}, "bad input")
    assert answer.output == {
        "block": True,
        "blockReason": "amplifier-hooks could not check this call, so it is blocked: bad input",
    }
    quiet = refuse_payload(OPENCLAW, {**call(), "hook_event_name": "after_tool_call"}, "bad")
    assert quiet.output is None


async def test_a_deny_is_a_block_whose_reason_the_model_reads() -> None:
    deny = HookResult(action="deny", reason="no deploys on Sunday")
    answer = await answer_with(OPENCLAW, call(), returning(deny))
    assert answer.output == {"block": True, "blockReason": "no deploys on Sunday"}
    allowed = await answer_with(OPENCLAW, call())
    assert allowed.output is None


async def test_a_question_left_to_openclaw_is_its_approval() -> None:
    """Only a one-time answer is offered (OpenClaw keeps no "always" for a plugin), and
    the model is told how to answer should nobody answer in time."""
    ask = HookResult(action="ask_user", approval_prompt="Deploy now?", approval_timeout=90)
    answer = await answer_with(
        OPENCLAW, call(), returning(ask), approval_provider=HostApprovalProvider()
    )
    assert answer.output is not None
    asked = answer.output["requireApproval"]
    reason = asked.pop("timeoutReason")
    assert asked == {
        "title": "amplifier-hooks asks",
        "description": "Deploy now?",
        "severity": "warning",
        "allowedDecisions": ["allow-once", "deny"],
        "timeoutMs": 90_000,
    }
    assert reason.startswith(
        "Deploy now? — nobody answered OpenClaw's approval request within 90 s"
    )
    assert "operator.approvals" in reason and "amplifier-hooks approve" in reason


async def test_an_approval_fits_what_openclaw_takes() -> None:
    """OpenClaw's gateway refuses a description over 512 characters and waits 600 s at
    most: a long question is cut, a long wait shortened."""
    long = HookResult(action="ask_user", approval_prompt="x" * 2000, approval_timeout=3600)
    answer = await answer_with(
        OPENCLAW, call(), returning(long), approval_provider=HostApprovalProvider()
    )
    assert answer.output is not None
    asked = answer.output["requireApproval"]
    assert len(asked["description"]) == 512 and "cut by amplifier-hooks" in asked["description"]
    assert asked["timeoutMs"] == 600_000


async def test_a_change_is_sent_as_the_fields_openclaw_merges_over_the_call() -> None:
    def safer(data: dict[str, Any]) -> None:
        data["tool_input"]["command"] = "make deploy --dry-run"
        data["tool_input"]["timeoutSeconds"] = 60

    changed = await answer_with(
        OPENCLAW, call(command="make deploy", workdir="/w"), modifying(safer)
    )
    assert changed.output == {"params": {"command": "make deploy --dry-run", "timeoutSeconds": 60}}

    def dropped(data: dict[str, Any]) -> None:
        del data["tool_input"]["workdir"]

    removed = await answer_with(OPENCLAW, call(command="ls", workdir="/w"), modifying(dropped))
    assert removed.output is not None and removed.output["block"] is True
    assert "cannot remove a field" in removed.output["blockReason"]


async def test_context_reaches_the_model_before_a_prompt_and_is_logged_on_a_tool_call() -> None:
    inject = HookResult(action="inject_context", context_injection="remember the style guide")
    prompt = {**call(), "hook_event_name": "before_prompt_build", "prompt": "hello"}
    del prompt["toolName"], prompt["params"]
    before = await answer_with(OPENCLAW, prompt, returning(inject))
    assert before.output == {"prependContext": "remember the style guide"}
    tool = await answer_with(OPENCLAW, call(), returning(inject))
    assert tool.output is None
    assert any("OpenClaw takes no context on before_tool_call" in n for n in tool.notes)


def auto_bundle(tmp_path: Path) -> Path:
    path = tmp_path / "bundle.yaml"
    path.write_text(
        textwrap.dedent(
            f"""\
            bundle: {{name: auto, version: "1"}}
            session:
              approvals: {{provider: auto, store: "{tmp_path / "approvals.db"}"}}
            hooks:
              - module: ah-approval
                source: {ROOT / "modules" / "ah-approval"}
                config:
                  defaults: false
                  rules:
                    - {{tool: bash, command: "make *", decision: ask, timeout: 60}}
            """
        )
    )
    return path


async def test_auto_asks_the_person_on_a_channel_and_nobody_in_a_local_run(
    tmp_path: Path,
) -> None:
    """The plugin says ``channel`` when a person's channel started the run: OpenClaw asks
    them; a ``local`` run has nobody, so the question is denied saying how to answer."""
    async with HostSessions(auto_bundle(tmp_path)) as sessions:
        on_channel = await sessions.answer(OPENCLAW, call(), entrypoint="channel")
        local = await sessions.answer(OPENCLAW, call(), entrypoint="local")
    assert on_channel.output is not None
    assert on_channel.output["requireApproval"]["description"] == "Allow bash: make deploy?"
    assert local.output is not None and local.output["block"] is True
    assert local.output["blockReason"].startswith(
        "Allow bash: make deploy? -- needs a person's answer and nobody could be asked: "
        "OpenClaw can ask only a person on a channel (/approve)"
    )


def test_amplifier_hooks_test_reads_the_plugins_payload(tmp_path: Path) -> None:
    payload = tmp_path / "call.json"
    payload.write_text(json.dumps({**call(command="rm -rf ~"), "cwd": str(tmp_path)}))
    done = cli("test", str(ROOT / "bundles" / "default.md"), "--payload", str(payload), "--json")
    assert done.returncode == 4, done.stderr
    judged = json.loads(done.stdout)
    assert judged["decision"] == "deny" and judged["rule"] == "rm-root-or-home"
