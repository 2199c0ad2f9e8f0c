"""A question left to the host's own prompt is its own outcome: recorded as the host's
(event approval:deferred, never approval:denied), answered with the host's "ask", and
completed by what the host reports next about the same tool call."""

from __future__ import annotations

from typing import Any

from amplifier_hooks import Coordinator, HookResult
from amplifier_hooks.approvals import ApprovalDeferral
from amplifier_hooks.approvals.host_prompt import HOST_PROMPT, HostApprovalProvider
from amplifier_hooks.hosts import CLAUDE_CODE
from amplifier_hooks.hosts.sessions import HostDelivers
from amplifier_hooks.testing import EventRecorder
from tests.hosts.support import fixture, returning

ASK = HookResult(action="ask_user", approval_prompt="Run npm test?")


def coordinator() -> tuple[Coordinator, EventRecorder]:
    hub = Coordinator(context_sink=HostDelivers(), approval_provider=HostApprovalProvider())
    hub.hooks.register("tool:pre", returning(ASK), name="asker")
    recorder = EventRecorder()
    hub.add_observer(recorder.observe)
    return hub, recorder


async def ask_the_host(hub: Coordinator) -> tuple[Any, Any]:
    call = CLAUDE_CODE.parse(fixture("claude-code", "PreToolUse"))
    outcome = await hub.dispatch(call.event, call.data)
    return outcome, CLAUDE_CODE.answer(call, outcome)


async def test_a_deferred_question_is_neither_granted_nor_denied() -> None:
    hub, recorder = coordinator()
    outcome, answer = await ask_the_host(hub)
    assert isinstance(outcome.deferred, ApprovalDeferral)
    assert (outcome.deferred.owner, outcome.deferred.call_id) == ("host", "toolu_01ABC123")
    # Not allowed here (a caller that ignores `deferred` fails closed), not a refusal.
    assert (outcome.allowed, outcome.action, outcome.denied_by) == (False, "ask_user", None)
    assert outcome.approvals == []
    assert answer.output["hookSpecificOutput"]["permissionDecision"] == "ask"
    assert recorder.events == ["approval:required", "approval:deferred", "tool:pre"]
    deferred = recorder.outcome("approval:deferred")
    assert deferred.data["deferral"]["owner"] == "host"
    assert "decision" not in deferred.data
    (row,) = await hub.approvals.backend.audit_log()
    assert (row.via, row.allowed, row.choice) == ("deferred", False, None)
    assert row.reason == f"{HOST_PROMPT} (the host owns this question)"
    await hub.cleanup()


async def test_the_tool_call_running_completes_the_record_as_allowed_by_the_host() -> None:
    hub, recorder = coordinator()
    await ask_the_host(hub)
    post = CLAUDE_CODE.parse(
        {**fixture("claude-code", "PostToolUse"), "tool_use_id": "toolu_01ABC123"}
    )
    outcome = await hub.dispatch(post.event, post.data)
    assert outcome.allowed
    deferred, completed = await hub.approvals.backend.audit_log()
    assert deferred.via == "deferred"
    assert (completed.via, completed.allowed, completed.key) == ("host", True, deferred.key)
    assert completed.reason is not None and "tool call ran (tool:post)" in completed.reason
    assert recorder.events[-2:] == ["approval:granted", "tool:post"]
    assert not hub.approvals.deferred  # closed: a second report completes nothing
    await hub.dispatch(post.event, post.data)
    assert len(await hub.approvals.backend.audit_log()) == 2
    await hub.cleanup()


async def test_the_hosts_denial_completes_the_record_as_denied_by_the_host() -> None:
    hub, recorder = coordinator()
    await ask_the_host(hub)
    denial = CLAUDE_CODE.parse(
        {**fixture("claude-code", "PermissionDenied"), "tool_use_id": "toolu_01ABC123"}
    )
    await hub.dispatch(denial.event, denial.data)
    _, completed = await hub.approvals.backend.audit_log()
    assert (completed.via, completed.allowed) == ("host", False)
    assert completed.reason == "denied at the host's own prompt: denied by rule"
    assert "approval:denied" in recorder.events
    await hub.cleanup()


async def test_a_report_on_another_tool_call_completes_nothing() -> None:
    hub, _ = coordinator()
    await ask_the_host(hub)
    other = CLAUDE_CODE.parse(fixture("claude-code", "PostToolUse"))  # toolu_01ABC124
    await hub.dispatch(other.event, other.data)
    assert len(await hub.approvals.backend.audit_log()) == 1
    assert len(hub.approvals.deferred) == 1
    await hub.cleanup()


async def test_open_deferrals_are_bounded() -> None:
    hub, _ = coordinator()
    hub.approvals.deferred.limit = 2
    call = CLAUDE_CODE.parse(fixture("claude-code", "PreToolUse"))
    for n in range(3):
        await hub.dispatch(call.event, {**call.data, "tool_call_id": f"t{n}"})
    assert len(hub.approvals.deferred) == 2
    post = CLAUDE_CODE.parse({**fixture("claude-code", "PostToolUse"), "tool_use_id": "t0"})
    await hub.dispatch(post.event, post.data)  # the oldest was let go: nothing to complete
    assert [r.via for r in await hub.approvals.backend.audit_log()] == ["deferred"] * 3
    await hub.cleanup()
