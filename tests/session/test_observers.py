"""Coordinator resolution observers: every dispatch's final outcome, whatever the verdict,
to each observer in order; a broken or slow observer is logged and never felt by the agent."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

import pytest

from amplifier_hooks import HookResult
from amplifier_hooks.session.coordinator import Coordinator
from amplifier_hooks.session.observers import DEFAULT_OBSERVER_TIMEOUT
from amplifier_hooks.session.outcome import Outcome
from amplifier_hooks.testing import EventRecorder, ScriptedApprovalProvider, returns


async def test_observers_run_in_registration_order_sync_and_async() -> None:
    coordinator = Coordinator()
    calls: list[str] = []

    async def second(event: str, outcome: Outcome) -> None:
        await asyncio.sleep(0)  # really suspends: awaited before the third runs
        calls.append(f"second:{event}")

    coordinator.add_observer(lambda event, outcome: calls.append(f"first:{event}"))
    coordinator.add_observer(second)
    coordinator.add_observer(lambda event, outcome: calls.append(f"third:{event}"))

    await coordinator.dispatch("prompt:submit", {"prompt": "hi"})
    assert calls == ["first:prompt:submit", "second:prompt:submit", "third:prompt:submit"]


async def test_observers_see_dispatch_without_handlers() -> None:
    coordinator = Coordinator()
    recorder = EventRecorder()
    coordinator.add_observer(recorder.observe)

    outcome = await coordinator.dispatch("custom:thing", {"x": 1})
    assert recorder.outcomes == [("custom:thing", outcome)]
    assert outcome.allowed and outcome.action == "continue" and outcome.data == {"x": 1}


async def test_observers_see_handler_denies_with_who_denied() -> None:
    coordinator = Coordinator()
    after: list[str] = []
    coordinator.hooks.register(
        "tool:pre", returns(HookResult(action="deny", reason="no")), 0, "gate"
    )
    coordinator.hooks.register(
        "tool:pre", lambda e, d: after.append(e), 1000, "late"
    )  # never runs: a deny ends the chain
    recorder = EventRecorder()
    coordinator.add_observer(recorder.observe)

    outcome = await coordinator.dispatch("tool:pre", {"tool_name": "bash"})
    assert after == []
    ((event, observed),) = recorder.outcomes
    assert event == "tool:pre" and observed is outcome
    assert (observed.allowed, observed.action, observed.denied_by, observed.reason) == (
        False,
        "deny",
        "gate",
        "no",
    )
    assert observed.resolution is not None
    assert [t.handler for t in observed.resolution.trace] == ["gate"]


async def test_observers_see_approval_refusals_and_modifies() -> None:
    coordinator = Coordinator(approval_provider=ScriptedApprovalProvider.always("Deny"))
    modify = HookResult(action="modify", data={"tool_name": "bash", "dry_run": True})
    coordinator.hooks.register("tool:pre", returns(modify), 0, "dry_run")
    ask = HookResult(action="ask_user", approval_prompt="Run it?", approval_timeout=1)
    coordinator.hooks.register("tool:pre", returns(ask), 10, "asker")
    recorder = EventRecorder()
    coordinator.add_observer(recorder.observe)

    await coordinator.dispatch("tool:pre", {"tool_name": "bash"})
    # The gate's approval events take the same path, so they are seen first.
    assert recorder.events == [
        "approval:required",
        "approval:denied",
        "tool:pre",
    ]
    outcome = recorder.outcomes[-1][1]
    assert (outcome.allowed, outcome.action, outcome.denied_by) == (False, "deny", "asker")
    assert [(d.choice, d.via, d.allowed) for d in outcome.approvals] == [("Deny", "person", False)]
    assert outcome.data["dry_run"] is True
    assert outcome.resolution is not None
    assert [(t.handler, t.action) for t in outcome.resolution.trace] == [
        ("dry_run", "modify"),
        ("asker", "ask_user"),
    ]


async def test_a_reply_tells_the_observers_when_finished_once() -> None:
    coordinator = Coordinator(approval_provider=ScriptedApprovalProvider.always("Deny"))
    ask = HookResult(action="ask_user", approval_prompt="Run it?", approval_timeout=1)
    coordinator.hooks.register("tool:pre", returns(ask), 10, "asker")
    recorder = EventRecorder()
    coordinator.add_observer(recorder.observe)

    reply = await coordinator.reply("tool:pre", {"tool_name": "bash"})
    outcome = reply.answer
    assert (outcome.allowed, outcome.denied_by) == (False, "asker")
    # The approval's events were observed as they happened; the call itself is not yet.
    assert recorder.events == ["approval:required", "approval:denied"]
    await reply.finish()
    await reply.finish()
    assert recorder.events == ["approval:required", "approval:denied", "tool:pre"]
    assert recorder.outcomes[-1][1] is outcome


async def test_observers_see_injections_after_they_are_applied() -> None:
    coordinator = Coordinator()
    inject = HookResult(action="inject_context", context_injection="remember this")
    coordinator.hooks.register("prompt:submit", returns(inject), 0, "notes")
    recorder = EventRecorder()
    coordinator.add_observer(recorder.observe)

    await coordinator.dispatch("prompt:submit", {"prompt": "x"})
    ((_, outcome),) = recorder.outcomes
    assert [m["content"] for m in outcome.injected] == ["remember this"]
    assert outcome.injected[0]["metadata"]["source"] == "notes"


@pytest.mark.parametrize(
    "error",
    [RuntimeError("boom"), SystemExit(3), asyncio.CancelledError(), ValueError("bad")],
    ids=["runtime", "system-exit", "stray-cancel", "value"],
)
@pytest.mark.parametrize("kind", ["sync", "async"])
async def test_a_raising_observer_is_logged_and_ignored(
    error: BaseException, kind: str, logs: list[dict[str, Any]]
) -> None:
    coordinator = Coordinator()
    coordinator.hooks.register("tool:pre", returns(HookResult(action="deny", reason="r")))

    def sync_broken(event: str, outcome: Outcome) -> None:
        raise error

    async def async_broken(event: str, outcome: Outcome) -> None:
        await asyncio.sleep(0)
        raise error

    recorder = EventRecorder()
    coordinator.add_observer(sync_broken if kind == "sync" else async_broken)
    coordinator.add_observer(recorder.observe)  # later observers still run

    outcome = await coordinator.dispatch("tool:pre", {})
    assert not outcome.allowed and outcome.reason == "r"  # unchanged by the failure
    assert recorder.outcomes == [("tool:pre", outcome)]
    (failure,) = [e for e in logs if e["event"] == "observer failed; ignored"]
    assert failure["hook_event"] == "tool:pre"
    assert failure["observer"].endswith("broken")
    assert type(error).__name__ in failure["error"]


async def test_keyboard_interrupt_from_an_observer_propagates() -> None:
    coordinator = Coordinator()

    def interrupt(event: str, outcome: Outcome) -> None:
        raise KeyboardInterrupt

    coordinator.add_observer(interrupt)
    with pytest.raises(KeyboardInterrupt):
        await coordinator.dispatch("prompt:submit", {})


async def test_a_slow_async_observer_times_out(logs: list[dict[str, Any]]) -> None:
    coordinator = Coordinator()
    recorder = EventRecorder()

    async def slow(event: str, outcome: Outcome) -> None:
        await asyncio.Event().wait()  # never set: only its timeout ends it

    coordinator.add_observer(slow, timeout=0.05)
    coordinator.add_observer(recorder.observe)

    outcome = await coordinator.dispatch("prompt:submit", {})
    assert outcome.allowed and recorder.outcomes == [("prompt:submit", outcome)]
    (failure,) = [e for e in logs if e["event"] == "observer failed; ignored"]
    assert failure["failure"] == "timeout" and "slow" in failure["observer"]


def test_the_default_timeout_is_five_seconds() -> None:
    default = inspect.signature(Coordinator.add_observer).parameters["timeout"].default
    assert default == DEFAULT_OBSERVER_TIMEOUT == 5.0


async def test_the_callers_cancellation_propagates() -> None:
    coordinator = Coordinator()
    started = asyncio.Event()
    later: list[str] = []

    async def waits(event: str, outcome: Outcome) -> None:
        started.set()
        await asyncio.Event().wait()

    coordinator.add_observer(waits)
    coordinator.add_observer(lambda event, outcome: later.append(event))
    task = asyncio.create_task(coordinator.dispatch("prompt:submit", {}))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert later == []


async def test_unregister_is_idempotent_and_per_registration() -> None:
    coordinator = Coordinator()
    recorder = EventRecorder()
    first = coordinator.add_observer(recorder.observe)
    coordinator.add_observer(recorder.observe)  # the same callback twice: two registrations

    await coordinator.dispatch("prompt:submit", {})
    assert len(recorder.outcomes) == 2
    first()
    first()
    await coordinator.dispatch("prompt:submit", {})
    assert len(recorder.outcomes) == 3


async def test_an_observer_may_unregister_itself_while_notified() -> None:
    coordinator = Coordinator()
    calls: list[str] = []
    unregister: Any = None

    def once(event: str, outcome: Outcome) -> None:
        calls.append("once")
        unregister()

    unregister = coordinator.add_observer(once)
    coordinator.add_observer(lambda event, outcome: calls.append("always"))
    await coordinator.dispatch("prompt:submit", {})
    await coordinator.dispatch("prompt:submit", {})
    assert calls == ["once", "always", "always"]


async def test_a_dispatch_that_raises_notifies_nobody() -> None:
    coordinator = Coordinator()
    recorder = EventRecorder()
    coordinator.add_observer(recorder.observe)
    with pytest.raises(TypeError, match="must be a mapping"):
        await coordinator.dispatch("prompt:submit", ["not", "a", "mapping"])  # type: ignore[arg-type]
    assert recorder.outcomes == []


@pytest.mark.parametrize(
    ("callback", "timeout", "error"),
    [("not callable", 1.0, TypeError), (print, 0, ValueError), (print, -1.0, ValueError)],
)
def test_bad_registrations_are_clear_errors(
    callback: Any, timeout: float, error: type[Exception]
) -> None:
    with pytest.raises(error, match="observer"):
        Coordinator().add_observer(callback, timeout=timeout)


async def test_dispatching_names_the_event_only_while_its_handlers_run() -> None:
    coordinator = Coordinator()
    other = Coordinator(registry=coordinator.hooks)  # shares the registry, not the dispatch
    seen: list[tuple[str, str | None, str | None]] = []

    def handler(event: str, data: dict[str, Any]) -> None:
        seen.append((event, coordinator.dispatching(), other.dispatching()))

    coordinator.hooks.register("tool:pre", handler)
    coordinator.hooks.register("approval:requested", handler)

    async def nested(event: str, data: dict[str, Any]) -> None:
        await coordinator.hooks.emit("approval:requested", {})  # a direct emit inside

    coordinator.hooks.register("tool:pre", nested, 10)
    coordinator.add_observer(
        lambda e, o: seen.append(("observer", coordinator.dispatching(), None))
    )

    await coordinator.dispatch("tool:pre", {})
    await coordinator.hooks.emit("tool:pre", {})
    assert seen == [
        ("tool:pre", "tool:pre", None),
        ("approval:requested", "tool:pre", None),
        ("observer", None, None),
        ("tool:pre", None, None),
        ("approval:requested", None, None),
    ]
    assert coordinator.dispatching() is None


# -- approval events take the dispatch path ------------------------------------------------


async def test_observers_see_approval_events_with_their_payload() -> None:
    coordinator = Coordinator(approval_provider=ScriptedApprovalProvider.always("Allow"))
    ask = HookResult(action="ask_user", approval_prompt="Run it?", approval_timeout=5)
    coordinator.hooks.register("tool:pre", returns(ask), 0, "asker")
    handled: list[tuple[str, str | None]] = []

    def approval_handler(event: str, data: dict[str, Any]) -> None:
        handled.append((event, coordinator.dispatching()))

    for name in ("approval:required", "approval:granted"):
        coordinator.hooks.register(name, approval_handler, 0, "audit")
    recorder = EventRecorder()
    coordinator.add_observer(recorder.observe)

    outcome = await coordinator.dispatch("tool:pre", {"tool_name": "bash"})
    assert outcome.allowed
    assert recorder.events == [
        "approval:required",
        "approval:granted",
        "tool:pre",
    ]
    required, granted = recorder.outcomes[0][1], recorder.outcomes[1][1]
    assert required.allowed and required.data["prompt"] == "Run it?"
    assert required.data["source"] == "asker" and required.data["event"] == "tool:pre"
    assert "decision" not in required.data
    assert granted.data["decision"]["choice"] == "Allow"
    assert granted.data["session_id"] == coordinator.session_id  # stamped like any event
    # Handlers still run, inside a dispatch of their own event.
    assert handled == [
        ("approval:required", "approval:required"),
        ("approval:granted", "approval:granted"),
    ]


async def test_an_approval_event_cannot_start_another_approval() -> None:
    provider = ScriptedApprovalProvider.always("Allow")
    coordinator = Coordinator(approval_provider=provider)
    first = HookResult(action="ask_user", approval_prompt="Run it?", approval_timeout=5)
    coordinator.hooks.register("tool:pre", returns(first), 0, "asker")
    again = HookResult(action="ask_user", approval_prompt="Really?", approval_timeout=5)
    coordinator.hooks.register("approval:required", returns(again), 0, "nagger")
    recorder = EventRecorder()
    coordinator.add_observer(recorder.observe)

    outcome = await asyncio.wait_for(coordinator.dispatch("tool:pre", {"tool_name": "x"}), 10)
    # Only the tool's question reached the person; the one on approval:required failed
    # closed (its outcome is a deny), and the tool's own decision is unaffected.
    assert provider.prompts == ["Run it?"]
    assert outcome.allowed
    required = recorder.outcomes[0][1]
    assert (recorder.outcomes[0][0], required.allowed, required.denied_by) == (
        "approval:required",
        False,
        "nagger",
    )
    assert required.reason is not None and "cannot ask for approval" in required.reason
    assert required.approvals == []


async def test_a_failing_approval_observer_does_not_change_the_decision() -> None:
    coordinator = Coordinator(approval_provider=ScriptedApprovalProvider.always("Allow"))
    ask = HookResult(action="ask_user", approval_prompt="Run it?", approval_timeout=5)
    coordinator.hooks.register("tool:pre", returns(ask), 0, "asker")

    def broken(event: str, outcome: Outcome) -> None:
        if event.startswith("approval:"):
            raise RuntimeError("observer bug")

    coordinator.add_observer(broken)
    outcome = await coordinator.dispatch("tool:pre", {"tool_name": "bash"})
    assert outcome.allowed
    assert [(d.choice, d.allowed) for d in outcome.approvals] == [("Allow", True)]


async def test_an_observer_cannot_change_the_verdict_the_agent_acts_on() -> None:
    coordinator = Coordinator()
    coordinator.hooks.register("tool:pre", returns(HookResult(action="deny", reason="no")))
    attempts: list[str] = []

    def overrule(event: str, outcome: Outcome) -> None:
        for name, value in (("allowed", True), ("action", "continue"), ("reason", None)):
            try:
                setattr(outcome, name, value)
            except AttributeError:
                attempts.append(name)

    coordinator.add_observer(overrule)
    outcome = await coordinator.dispatch("tool:pre", {})
    assert attempts == ["allowed", "action", "reason"]  # each one refused
    assert (outcome.allowed, outcome.action, outcome.reason) == (False, "deny", "no")


def test_outcomes_built_by_hand_get_fresh_lists() -> None:
    first, second = Outcome(True, "continue", {}), Outcome(True, "continue", {})
    assert first.injected == [] and first.injected is not second.injected
    assert first == second
