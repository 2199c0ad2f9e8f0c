"""Coordinator resolution observers: every dispatch's final outcome, whatever the verdict,
to each observer in order; a broken or slow observer is logged and never felt by the agent."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

import pytest

from amplifier_hooks import HookResult
from amplifier_hooks.coordinator import DEFAULT_OBSERVER_TIMEOUT, Coordinator, Outcome


class Provider:
    """Approves or refuses every request with one fixed answer."""

    def __init__(self, answer: str) -> None:
        self.answer = answer

    async def request_approval(self, request: Any) -> str:
        return self.answer


def returns(result: HookResult | None) -> Any:
    async def handler(event: str, data: dict[str, Any]) -> HookResult | None:
        return result

    return handler


def recorder() -> tuple[list[tuple[str, Outcome]], Any]:
    seen: list[tuple[str, Outcome]] = []
    return seen, lambda event, outcome: seen.append((event, outcome))


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
    seen, observe = recorder()
    coordinator.add_observer(observe)

    outcome = await coordinator.dispatch("custom:thing", {"x": 1})
    assert seen == [("custom:thing", outcome)]
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
    seen, observe = recorder()
    coordinator.add_observer(observe)

    outcome = await coordinator.dispatch("tool:pre", {"tool_name": "bash"})
    assert after == []
    ((event, observed),) = seen
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
    coordinator = Coordinator(approval_provider=Provider("Deny"))
    modify = HookResult(action="modify", data={"tool_name": "bash", "dry_run": True})
    coordinator.hooks.register("tool:pre", returns(modify), 0, "dry_run")
    ask = HookResult(action="ask_user", approval_prompt="Run it?", approval_timeout=1)
    coordinator.hooks.register("tool:pre", returns(ask), 10, "asker")
    seen, observe = recorder()
    coordinator.add_observer(observe)

    await coordinator.dispatch("tool:pre", {"tool_name": "bash"})
    ((_, outcome),) = seen
    assert (outcome.allowed, outcome.action, outcome.denied_by) == (False, "deny", "asker")
    assert [(d.choice, d.via, d.allowed) for d in outcome.approvals] == [("Deny", "person", False)]
    assert outcome.data["dry_run"] is True
    assert outcome.resolution is not None
    assert [(t.handler, t.action) for t in outcome.resolution.trace] == [
        ("dry_run", "modify"),
        ("asker", "ask_user"),
    ]


async def test_observers_see_injections_after_they_are_applied() -> None:
    coordinator = Coordinator()
    inject = HookResult(action="inject_context", context_injection="remember this")
    coordinator.hooks.register("prompt:submit", returns(inject), 0, "notes")
    seen, observe = recorder()
    coordinator.add_observer(observe)

    await coordinator.dispatch("prompt:submit", {"prompt": "x"})
    ((_, outcome),) = seen
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

    seen, observe = recorder()
    coordinator.add_observer(sync_broken if kind == "sync" else async_broken)
    coordinator.add_observer(observe)  # later observers still run

    outcome = await coordinator.dispatch("tool:pre", {})
    assert not outcome.allowed and outcome.reason == "r"  # unchanged by the failure
    assert seen == [("tool:pre", outcome)]
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
    seen, observe = recorder()

    async def slow(event: str, outcome: Outcome) -> None:
        await asyncio.Event().wait()  # never set: only its timeout ends it

    coordinator.add_observer(slow, timeout=0.05)
    coordinator.add_observer(observe)

    outcome = await coordinator.dispatch("prompt:submit", {})
    assert outcome.allowed and seen == [("prompt:submit", outcome)]
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
    seen, observe = recorder()
    first = coordinator.add_observer(observe)
    coordinator.add_observer(observe)  # the same callback twice: two registrations

    await coordinator.dispatch("prompt:submit", {})
    assert len(seen) == 2
    first()
    first()
    await coordinator.dispatch("prompt:submit", {})
    assert len(seen) == 3


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
    seen, observe = recorder()
    coordinator.add_observer(observe)
    with pytest.raises(TypeError, match="must be a mapping"):
        await coordinator.dispatch("prompt:submit", ["not", "a", "mapping"])  # type: ignore[arg-type]
    assert seen == []


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
