"""Coordinator.dispatch applies every part of a resolution (observers, cleanups and
capabilities have test files of their own)."""

from __future__ import annotations

from typing import Any

import pytest

from amplifier_hooks import HookResult
from amplifier_hooks.engine.resolution import UserMessage
from amplifier_hooks.session.coordinator import Coordinator
from amplifier_hooks.session.outcome import Outcome
from amplifier_hooks.testing import (
    NO_ANSWER,
    RecordingSink,
    ScriptedApprovalProvider,
    make_coordinator,
    returns,
)


def make(
    provider: ScriptedApprovalProvider | None = None, **kwargs: Any
) -> tuple[Coordinator, RecordingSink, list[tuple[str, UserMessage]]]:
    harness = make_coordinator(provider, **kwargs)
    return harness.coordinator, harness.sink, harness.shown


MODIFY = HookResult(action="modify", data={"tool_name": "bash", "command": "ls -la"})
INJECT = HookResult(action="inject_context", context_injection="note for the model")
# A deadline no test reaches: these questions are answered at once.
ASK = HookResult(action="ask_user", approval_prompt="Run ls?", approval_timeout=60.0)
DENY = HookResult(action="deny", reason="policy says no")
MESSAGE = HookResult(user_message="heads up", user_message_level="warning")


async def test_continue_passes_data_through() -> None:
    coordinator, sink, _ = make()
    coordinator.hooks.register("tool:pre", returns(None), name="quiet")
    outcome = await coordinator.dispatch("tool:pre", {"tool_name": "bash"})
    assert outcome.allowed and outcome.action == "continue"
    assert outcome.data["tool_name"] == "bash"
    assert outcome.injected == outcome.ephemeral == [] and sink.messages == []


async def test_deny_blocks_discards_injections_keeps_messages_and_data() -> None:
    coordinator, sink, shown = make()
    coordinator.hooks.register("tool:pre", returns(MODIFY), 0, "rewriter")
    coordinator.hooks.register("tool:pre", returns(INJECT), 1, "informer")
    coordinator.hooks.register("tool:pre", returns(MESSAGE), 2, "announcer")
    coordinator.hooks.register("tool:pre", returns(DENY), 3, "guard")
    outcome = await coordinator.dispatch("tool:pre", {"tool_name": "bash"})
    assert not outcome.allowed and outcome.action == "deny"
    assert outcome.reason == "policy says no" and outcome.denied_by == "guard"
    assert outcome.data == MODIFY.data
    assert outcome.injected == [] and sink.messages == []
    assert [(e, m.text, m.level, m.source) for e, m in shown] == [
        ("tool:pre", "heads up", "warning", "announcer")
    ]


async def test_approved_ask_applies_injections_and_keeps_modified_data() -> None:
    provider = ScriptedApprovalProvider("Allow")
    coordinator, sink, _ = make(provider)
    coordinator.hooks.register("tool:pre", returns(MODIFY), 0, "rewriter")
    coordinator.hooks.register("tool:pre", returns(INJECT), 1, "informer")
    coordinator.hooks.register("tool:pre", returns(ASK), 2, "asker")
    outcome = await coordinator.dispatch("tool:pre", {"tool_name": "bash"})
    assert outcome.allowed and outcome.action == "ask_user"
    assert outcome.data == MODIFY.data
    assert [d.allowed for d in outcome.approvals] == [True]
    assert outcome.approvals[0].via == "person" and outcome.approvals[0].choice == "Allow"
    assert [m["content"] for m in sink.messages] == ["note for the model"]
    assert outcome.injected == sink.messages
    assert provider.asked[0].prompt == "Run ls?"


async def test_denied_ask_denies_and_discards_injections() -> None:
    coordinator, sink, _ = make(ScriptedApprovalProvider("Deny"))
    coordinator.hooks.register("tool:pre", returns(MODIFY), 0, "rewriter")
    coordinator.hooks.register("tool:pre", returns(INJECT), 1, "informer")
    coordinator.hooks.register("tool:pre", returns(ASK), 2, "asker")
    outcome = await coordinator.dispatch("tool:pre", {"tool_name": "bash"})
    assert not outcome.allowed and outcome.action == "deny"
    assert outcome.denied_by == "asker"
    assert outcome.data == MODIFY.data
    assert outcome.injected == [] and sink.messages == []
    assert [(d.allowed, d.choice, d.via) for d in outcome.approvals] == [(False, "Deny", "person")]


@pytest.mark.parametrize(("default", "allowed"), [("deny", False), ("allow", True)])
async def test_timed_out_ask_takes_its_default(default: str, allowed: bool) -> None:
    coordinator, _, _ = make(ScriptedApprovalProvider(NO_ANSWER))
    ask = HookResult(
        action="ask_user", approval_prompt="?", approval_timeout=0.05, approval_default=default
    )  # type: ignore[arg-type]
    coordinator.hooks.register("tool:pre", returns(ask), name="asker")
    outcome = await coordinator.dispatch("tool:pre", {})
    assert outcome.allowed is allowed
    assert [(d.via, d.choice) for d in outcome.approvals] == [("timeout", None)]


async def test_ask_without_a_provider_is_denied_with_a_reason() -> None:
    coordinator, _, _ = make(None)
    coordinator.hooks.register("tool:pre", returns(ASK), name="asker")
    outcome = await coordinator.dispatch("tool:pre", {})
    assert not outcome.allowed and outcome.action == "deny"
    assert outcome.reason is not None and "no approval provider" in outcome.reason


async def test_injection_riding_on_an_ask_is_applied_only_when_approved() -> None:
    ask_with_note = HookResult(
        action="ask_user", approval_prompt="ok?", context_injection="approved context"
    )
    for answer, expected in (("Allow", ["approved context"]), ("Deny", [])):
        coordinator, sink, _ = make(ScriptedApprovalProvider(answer))
        coordinator.hooks.register("tool:pre", returns(ask_with_note), name="asker")
        await coordinator.dispatch("tool:pre", {})
        assert [m["content"] for m in sink.messages] == expected


async def test_several_asks_are_asked_in_order_and_the_first_deny_ends_it() -> None:
    provider = ScriptedApprovalProvider("Allow", "Deny", "Allow")
    coordinator, _, _ = make(provider)
    for i in range(3):
        result = HookResult(action="ask_user", approval_prompt=f"q{i}")
        coordinator.hooks.register("tool:pre", returns(result), i, f"asker{i}")
    outcome = await coordinator.dispatch("tool:pre", {})
    assert [r.prompt for r in provider.asked] == ["q0", "q1"]
    assert not outcome.allowed and outcome.denied_by == "asker1"


async def test_ephemeral_and_persisted_injections_are_routed_apart() -> None:
    coordinator, sink, _ = make()
    ephemeral = HookResult(action="inject_context", context_injection="now only", ephemeral=True)
    coordinator.hooks.register("provider:request", returns(INJECT), 0, "keeper")
    coordinator.hooks.register("provider:request", returns(ephemeral), 1, "fleeting")
    outcome = await coordinator.dispatch("provider:request", {})
    assert outcome.action == "inject_context"
    assert [m["content"] for m in outcome.injected] == ["note for the model"]
    assert [m["content"] for m in outcome.ephemeral] == ["now only"]
    assert sink.messages == outcome.injected
    assert outcome.injected[0]["metadata"]["source"] == "keeper"


async def test_modify_only_and_user_messages_and_suppress_output() -> None:
    coordinator, _, shown = make()
    quiet_modify = HookResult(
        action="modify",
        data={"x": 2},
        suppress_output=True,
        user_message="rewrote x",
        user_message_source="rewriter-module",
    )
    coordinator.hooks.register("tool:post", returns(quiet_modify), name="rewriter")
    outcome = await coordinator.dispatch("tool:post", {"x": 1})
    assert outcome.allowed and outcome.action == "modify" and outcome.data == {"x": 2}
    assert outcome.suppress_output is True
    assert [(m.text, m.level, m.source) for m in outcome.messages] == [
        ("rewrote x", "info", "rewriter-module")
    ]
    assert len(shown) == 1


async def test_turn_boundary_resets_the_injection_budget() -> None:
    coordinator, _, _ = make()
    big = "word " * 60
    budget = coordinator.injector.count_tokens(big)
    coordinator.injector = type(coordinator.injector)(budget_per_turn=budget)
    big_note = HookResult(action="inject_context", context_injection=big)
    coordinator.hooks.register("provider:request", returns(big_note), name="chatty")
    first = await coordinator.dispatch("provider:request", {})
    second = await coordinator.dispatch("provider:request", {})
    assert len(first.injected) == 1 and second.injected == [] and len(second.dropped) == 1
    await coordinator.dispatch("prompt:submit", {"prompt": "next"})
    third = await coordinator.dispatch("provider:request", {})
    assert len(third.injected) == 1


async def test_a_broken_message_sink_does_not_break_dispatch(logs: list[dict[str, Any]]) -> None:
    def broken(message: UserMessage, event: str) -> None:
        raise RuntimeError("display gone")

    coordinator = Coordinator(message_sink=broken)
    coordinator.hooks.register("tool:pre", returns(MESSAGE), name="announcer")
    outcome = await coordinator.dispatch("tool:pre", {})
    assert isinstance(outcome, Outcome) and outcome.allowed
    assert any(r["event"] == "message sink failed" for r in logs)


async def test_default_message_sink_logs_at_the_message_level(logs: list[dict[str, Any]]) -> None:
    coordinator = Coordinator()
    coordinator.hooks.register("tool:pre", returns(MESSAGE), name="announcer")
    await coordinator.dispatch("tool:pre", {})
    record = next(r for r in logs if r["event"] == "hook message")
    assert record["log_level"] == "warning" and record["text"] == "heads up"
    assert record["source"] == "announcer"


async def test_known_events_include_contributed_ones() -> None:
    coordinator = Coordinator()
    coordinator.register_contributor("observability.events", "todo", lambda: ["todo:updated"])
    coordinator.register_contributor("observability.events", "one", lambda: "naming:done")
    coordinator.register_contributor("observability.events", "bad", lambda: ["Not An Event"])
    known = await coordinator.known_events()
    assert "tool:pre" in known and "approval:required" in known
    assert known[-2:] == ["todo:updated", "naming:done"]
    assert "Not An Event" not in known


async def test_the_session_start_workspace_scopes_remembered_answers() -> None:
    """A replay or a hook server runs elsewhere than the agent: an "always" answer is
    scoped to the workspace the session started in, not to this process's directory."""
    provider = ScriptedApprovalProvider.always("Allow always")
    coordinator = Coordinator(approval_provider=provider)
    coordinator.hooks.register(
        "tool:pre",
        lambda event, data: HookResult(
            action="ask_user", approval_prompt="Run it?", approval_options=["Allow always", "Deny"]
        ),
    )
    await coordinator.dispatch("session:start", {"workspace": "/home/ada/src/calc"})
    outcome = await coordinator.dispatch("tool:pre", {"tool_name": "bash", "command": "make"})
    assert outcome.allowed
    (request,) = provider.asked
    assert (request.workspace, request.remember_scope) == ("/home/ada/src/calc",) * 2
    assert request.scope_text == "this request, in /home/ada/src/calc"
    await coordinator.cleanup()
