"""GitHub Copilot CLI's hook protocol: camelCase input with the event from ``--event``,
top-level answers (fixtures: tests/hosts/fixtures/copilot, recorded from 1.0.102)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks import HookResult
from amplifier_hooks.approvals import PolicyApprovalProvider
from amplifier_hooks.approvals.host_prompt import HostApprovalProvider
from amplifier_hooks.hosts import COPILOT, HostInputError
from amplifier_hooks.hosts.base import refuse_payload
from amplifier_hooks.hosts.claude_code.install import SettingsError
from amplifier_hooks.hosts.copilot.install import (
    HOOKS_FILE,
    CopilotPlan,
    install_copilot,
    uninstall_copilot,
)
from amplifier_hooks.hosts.launch import HOOK_SCRIPT
from amplifier_hooks.transports.relay.command import with_event
from tests.hosts.support import answer_with, fixture, fixture_names, modifying, returning

EVENTS = {
    "sessionStart": "session:start",
    "userPromptSubmitted": "prompt:submit",
    "preToolUse": "tool:pre",
    "permissionRequest": "copilot:permission_request",
    "postToolUse": "tool:post",
    "agentStop": "prompt:complete",
    "sessionEnd": "session:end",
}


def payload(name: str, **extra: Any) -> dict[str, Any]:
    """A recorded input, with the event our installed command adds (``--event``)."""
    return {**fixture("copilot", name), "hook_event_name": name, **extra}


@pytest.mark.parametrize("name", fixture_names("copilot"))
def test_events(name: str) -> None:
    call = COPILOT.parse(payload(name))
    assert (call.host, call.host_event, call.event) == ("copilot", name, EVENTS[name])
    assert call.session_id == "c1dd4f02-30eb-4f07-9eea-83c31c2e81d2"
    assert call.workspace == call.data["workspace"] == "/home/user/my-project"
    assert call.data["host"]["payload"] == fixture("copilot", name)  # without our field
    assert call.guarding == (name in ("preToolUse", "userPromptSubmitted"))


def test_tool_calls_carry_our_names_and_copilots() -> None:
    pre = COPILOT.parse(payload("preToolUse"))
    assert (pre.data["tool_name"], pre.data["tool_input"]["command"]) == ("bash", "npm test")
    assert pre.data["host"]["tool_name"] == "bash"
    post = COPILOT.parse(payload("postToolUse"))
    assert post.data["tool_result"]["resultType"] == "success"
    asked = COPILOT.parse(payload("permissionRequest"))
    assert asked.data["tool_input"] == {"command": "npm test"}
    view = COPILOT.parse(payload("preToolUse", toolName="view", toolArgs={"path": "/etc/x"}))
    assert (view.data["tool_name"], view.data["tool_input"]["path"]) == ("read_file", "/etc/x")
    patch = "*** Begin Patch\n*** Add File: /etc/cron.d/x\n+* * * * * sh\n*** End Patch\n"
    patched = COPILOT.parse(payload("preToolUse", toolName="apply_patch", toolArgs=patch))
    assert patched.data["tool_input"]["paths"] == ["/etc/cron.d/x"]
    stop = COPILOT.parse(payload("agentStop"))
    assert stop.data["transcript_path"].endswith("events.jsonl")


def test_the_event_comes_from_the_command_or_copilots_own_field() -> None:
    raw = json.dumps(fixture("copilot", "preToolUse")).encode()
    tagged = json.loads(with_event(raw, "preToolUse"))
    assert COPILOT.parse(tagged).event == "tool:pre"
    assert with_event(b"not json", "preToolUse") == b"not json"
    assert with_event(raw, None) == raw
    own = fixture("copilot", "permissionRequest")  # the one that names itself
    assert COPILOT.parse(own).host_event == "permissionRequest"


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"hook_event_name": None}, "names no event"),
        ({"hook_event_name": "PreToolUse"}, "not a Copilot CLI event name"),
        ({"sessionId": ""}, "'sessionId' must be a non-empty string"),
        ({"toolArgs": ["rm"]}, "'toolArgs' must be an object"),
        ({"cwd": 3}, "'cwd' must be a string"),
    ],
)
def test_malformed_input_says_what_is_wrong(change: dict[str, Any], says: str) -> None:
    broken = {k: v for k, v in {**payload("preToolUse"), **change}.items() if v is not None}
    with pytest.raises(HostInputError, match=says):
        COPILOT.parse(broken)


async def test_a_deny_is_said_the_way_each_event_takes_it() -> None:
    deny = HookResult(action="deny", reason="no")
    tool = await answer_with(COPILOT, payload("preToolUse"), returning(deny))
    prompt = await answer_with(COPILOT, payload("userPromptSubmitted"), returning(deny))
    after = await answer_with(COPILOT, payload("postToolUse"), returning(deny))
    assert tool.output == {"permissionDecision": "deny", "permissionDecisionReason": "no"}
    assert prompt.output == {"decision": "block", "reason": "no"}
    assert after.output is None and after.notes == ("copilot cannot block postToolUse: no",)


def test_a_call_that_cannot_be_read_is_refused_in_both_shapes() -> None:
    answer = refuse_payload(COPILOT, {"sessionId": "s"}, "bad input")
    assert answer.exit_code == 0 and answer.output is not None
    assert answer.output["permissionDecision"] == "deny"
    assert answer.output["decision"] == "block"
    assert "so it is blocked: bad input" in answer.output["reason"]
    quiet = refuse_payload(COPILOT, payload("sessionEnd"), "bad")
    assert quiet.output is None and quiet.exit_code == 0


async def test_an_approval_is_an_allow_and_the_host_provider_asks_copilot() -> None:
    ask = HookResult(action="ask_user", approval_prompt="Run it?")
    policy = PolicyApprovalProvider([{"decision": "allow"}])
    approved = await answer_with(
        COPILOT, payload("preToolUse"), returning(ask), approval_provider=policy
    )
    asked = await answer_with(
        COPILOT, payload("preToolUse"), returning(ask), approval_provider=HostApprovalProvider()
    )
    assert approved.output is not None and approved.output["permissionDecision"] == "allow"
    assert asked.output == {"permissionDecision": "ask", "permissionDecisionReason": "Run it?"}


async def test_a_rewrite_replaces_the_arguments_and_context_reaches_the_model() -> None:
    def change(data: dict[str, Any]) -> None:
        data["tool_input"]["command"] = "npm test -- --ci"

    rewritten = await answer_with(COPILOT, payload("preToolUse"), modifying(change))
    assert rewritten.output == {
        "modifiedArgs": {"command": "npm test -- --ci", "description": "run the tests"}
    }
    inject = HookResult(action="inject_context", context_injection="note")
    for name in ("sessionStart", "userPromptSubmitted", "postToolUse"):
        answer = await answer_with(COPILOT, payload(name), returning(inject))
        assert answer.output == {"additionalContext": "note"}, name


def test_install_writes_one_file_of_ours_and_uninstall_takes_it_back(tmp_path: Path) -> None:
    plan = CopilotPlan(tmp_path / "b.yaml", ("preToolUse", "sessionEnd"), executable="/py")
    first = install_copilot(tmp_path, plan)
    again = install_copilot(tmp_path, plan)
    written = json.loads((tmp_path / HOOKS_FILE).read_text())

    assert (first.changed, again.changed) == (True, False)
    assert first.events == ("preToolUse", "sessionEnd")
    [pre] = written["hooks"]["preToolUse"]
    [end] = written["hooks"]["sessionEnd"]
    assert written["version"] == 1
    assert pre["bash"].startswith("sh -c ") and pre["timeoutSec"] == 600
    assert end == {
        "type": "command",
        "bash": f"/py -S -P {HOOK_SCRIPT} copilot hook --bundle "
        f"{tmp_path / 'b.yaml'} --event sessionEnd",
        "timeoutSec": 10,
    }
    mine = {"type": "command", "bash": "echo mine", "timeoutSec": 5}
    written["hooks"]["preToolUse"].append(mine)
    (tmp_path / HOOKS_FILE).write_text(json.dumps(written))

    assert uninstall_copilot(tmp_path).changed
    assert json.loads((tmp_path / HOOKS_FILE).read_text())["hooks"] == {"preToolUse": [mine]}
    (tmp_path / HOOKS_FILE).write_text("{oops")
    with pytest.raises(SettingsError, match="not valid JSON"):
        install_copilot(tmp_path, plan)
