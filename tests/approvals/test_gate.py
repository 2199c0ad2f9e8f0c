"""Every path through the approval gate, and that each failure denies."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks import HookRegistry, HookResult, events
from amplifier_hooks.approvals import (
    ApprovalDismissed,
    ApprovalGate,
    ApprovalRequest,
    ApprovalStore,
    ApprovalTimeout,
    PolicyApprovalProvider,
)
from amplifier_hooks.approvals.gate import NO_PROVIDER
from amplifier_hooks.testing import ScriptedApprovalProvider

from .conftest import TOOL_DATA, ask


async def test_a_denial_says_why_the_question_was_asked() -> None:
    """The agent is told the deny (a Claude Code model reads it): with the asker's reason,
    it can tell a rule it may work around from one it may not."""
    gate = ApprovalGate(ScriptedApprovalProvider("Deny", "Allow"))
    why = "shell commands need approval"
    denied = await gate.decide(ask(reason=why), "tool:pre", TOOL_DATA)
    allowed = await gate.decide(ask(reason=why), "tool:pre", TOOL_DATA)
    assert denied.reason == "denied by the user (Deny): shell commands need approval"
    assert allowed.reason == "allowed by the user (Allow)"


async def test_person_allows_and_denies_are_audited() -> None:
    provider = ScriptedApprovalProvider("Allow", "Deny")
    gate = ApprovalGate(provider)
    allowed = await gate.decide(ask(), "tool:pre", TOOL_DATA)
    denied = await gate.decide(ask(), "tool:pre", TOOL_DATA)
    assert (allowed.allowed, allowed.choice, allowed.via, allowed.remembered) == (
        True,
        "Allow",
        "person",
        False,
    )
    assert (denied.allowed, denied.choice, denied.via) == (False, "Deny", "person")
    assert denied.reason == "denied by the user (Deny)"
    assert [(e.choice, e.via, e.allowed) for e in await gate.backend.audit_log()] == [
        ("Allow", "person", True),
        ("Deny", "person", False),
    ]


async def test_request_carries_what_the_person_needs_to_decide() -> None:
    provider = ScriptedApprovalProvider("Deny")
    gate = ApprovalGate(provider)
    await gate.decide(
        ask("Deploy?", ["Yes", "No"], timeout=12, reason="prod", source="deploy_guard"),
        "tool:pre",
        TOOL_DATA,
    )
    [request] = provider.asked
    assert request.prompt == "Deploy?" and request.options == ["Yes", "No"]
    assert (request.timeout, request.default, request.event) == (12, "deny", "tool:pre")
    assert (request.source, request.reason) == ("deploy_guard", "prod")
    assert request.details == {"tool": "bash", "command": "make deploy"}


@pytest.mark.parametrize(("option", "allowed"), [("Allow always", True), ("Deny always", False)])
async def test_always_answers_are_remembered_across_gates(
    tmp_path: Path, option: str, allowed: bool
) -> None:
    path = tmp_path / "approvals.db"
    options = ["Allow once", "Allow always", "Deny", "Deny always"]
    first = ApprovalGate(ScriptedApprovalProvider(option), path)
    decision = await first.decide(ask(options=options), "tool:pre", TOOL_DATA)
    assert (decision.allowed, decision.remembered, decision.scope) == (allowed, True, "always")
    first.close()

    provider = ScriptedApprovalProvider()  # must not be asked
    second = ApprovalGate(provider, path)
    again = await second.decide(ask(options=options), "tool:pre", TOOL_DATA)
    assert (again.allowed, again.via, again.choice, again.remembered) == (
        allowed,
        "remembered",
        option,
        False,
    )
    assert provider.asked == []
    assert [e.via for e in await second.backend.audit_log()] == ["person", "remembered"]


async def test_a_different_question_is_not_answered_by_memory() -> None:
    provider = ScriptedApprovalProvider("Allow always", "Deny")
    gate = ApprovalGate(provider)
    await gate.decide(ask("Run A?", ["Allow always", "Deny"]), "tool:pre", {})
    other = await gate.decide(ask("Run B?", ["Allow always", "Deny"]), "tool:pre", {})
    assert (other.via, other.allowed) == ("person", False)


async def test_explicit_approval_key_shares_one_answer() -> None:
    provider = ScriptedApprovalProvider("Allow always")
    gate = ApprovalGate(provider)
    key = {"approval_key": "write:/srv/production"}
    await gate.decide(ask("Write a.env?", ["Allow always", "Deny"], data=key), "tool:pre", {})
    decision = await gate.decide(
        ask("Write b.env?", ["Allow always", "Deny"], data=key), "tool:pre", {}
    )
    assert (decision.via, decision.allowed, decision.key) == (
        "remembered",
        True,
        "write:/srv/production",
    )
    assert len(provider.asked) == 1


async def test_remembered_answer_expires() -> None:
    now = [1_000_000.0]
    store = ApprovalStore(":memory:", clock=lambda: now[0])
    provider = ScriptedApprovalProvider("Allow always", "Deny")
    gate = ApprovalGate(provider, store)
    options = ["Allow always", "Deny"]
    ttl = {"approval_ttl": 3600}
    await gate.decide(ask(options=options, data=ttl), "tool:pre", {})
    now[0] += 3599
    assert (await gate.decide(ask(options=options, data=ttl), "tool:pre", {})).via == "remembered"
    now[0] += 2
    expired = await gate.decide(ask(options=options, data=ttl), "tool:pre", {})
    assert (expired.via, expired.allowed) == ("person", False)
    assert len(provider.asked) == 2


async def test_session_answers_last_for_this_gate_only(tmp_path: Path) -> None:
    path = tmp_path / "approvals.db"
    options = ["Allow for this session", "Deny"]
    provider = ScriptedApprovalProvider("Allow for this session")
    gate = ApprovalGate(provider, path)
    first = await gate.decide(ask(options=options), "tool:pre", {})
    second = await gate.decide(ask(options=options), "tool:pre", {})
    assert (first.remembered, first.scope) == (True, "session")
    assert (second.via, second.allowed) == ("remembered", True)
    assert await gate.backend.list_remembered() == []  # not persisted
    gate.forget_session()
    provider.answers.append("Deny")
    assert (await gate.decide(ask(options=options), "tool:pre", {})).via == "person"

    fresh = ApprovalGate(ScriptedApprovalProvider("Deny"), path)
    assert (await fresh.decide(ask(options=options), "tool:pre", {})).via == "person"


@pytest.mark.parametrize(("default", "allowed"), [("deny", False), ("allow", True)])
async def test_timeout_applies_the_default(default: str, allowed: bool) -> None:
    async def never(request: ApprovalRequest) -> str:
        await asyncio.sleep(30)
        return "Allow"

    gate = ApprovalGate(ScriptedApprovalProvider(never))
    decision = await gate.decide(ask(timeout=0.05, default=default), "tool:pre", {})
    assert (decision.allowed, decision.via, decision.choice) == (allowed, "timeout", None)
    assert decision.reason == f"no answer within 0.05s; the default is {default}"
    assert (await gate.backend.audit_log())[0].via == "timeout"


async def test_provider_reporting_its_own_timeout_applies_the_default() -> None:
    gate = ApprovalGate(ScriptedApprovalProvider(ApprovalTimeout("countdown reached zero")))
    decision = await gate.decide(ask(default="allow"), "tool:pre", {})
    assert (decision.allowed, decision.via) == (True, "timeout")


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (RuntimeError("display went away"), "approval provider failed: RuntimeError"),
        (TimeoutError("socket"), "approval provider failed: TimeoutError"),
        (asyncio.CancelledError(), "cancelled"),
        (SystemExit(3), "approval provider failed: SystemExit(3)"),
        (GeneratorExit(), "approval provider failed: GeneratorExit"),
        ("Maybe", "'Maybe' is not one of the options"),
        ("allow", "'allow' is not one of the options"),  # case matters: not an option
        (None, "None is not one of the options"),
    ],
)
async def test_failures_deny_even_when_the_default_is_allow(answer: object, reason: str) -> None:
    gate = ApprovalGate(ScriptedApprovalProvider(answer))
    decision = await gate.decide(ask(default="allow"), "tool:pre", {})
    assert (decision.allowed, decision.via, decision.choice) == (False, "error", None)
    assert decision.reason is not None and reason in decision.reason
    assert decision.reason.endswith("denied (fail closed)")
    [entry] = await gate.backend.audit_log()
    assert (entry.via, entry.allowed) == ("error", False)


async def test_a_provider_raising_system_exit_does_not_stop_the_agent() -> None:
    # The gate runs inside the agent's own task: a SystemExit escaping it would end the
    # program. It is a failed provider like any other, and the next request is asked.
    provider = ScriptedApprovalProvider(SystemExit("provider quit"), "Allow")
    gate = ApprovalGate(provider)
    first = await gate.decide(ask(default="allow"), "tool:pre", TOOL_DATA)
    second = await gate.decide(ask(), "tool:pre", TOOL_DATA)
    assert (first.allowed, first.via) == (False, "error")
    assert "SystemExit('provider quit')" in (first.reason or "")
    assert (second.allowed, second.via) == (True, "person")


async def test_keyboard_interrupt_from_a_provider_goes_through() -> None:
    gate = ApprovalGate(ScriptedApprovalProvider(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        await gate.decide(ask(), "tool:pre", {})


@pytest.mark.parametrize(
    ("option", "allowed"),
    [("Allow always (not recommended)", True), ("Deny always, unless I allow it", False)],
)
async def test_an_option_with_mixed_words_is_answered_once_and_not_remembered(
    tmp_path: Path, option: str, allowed: bool, logs: list[dict[str, Any]]
) -> None:
    path = tmp_path / "approvals.db"
    options = ["Allow once", option, "Deny"]
    gate = ApprovalGate(ScriptedApprovalProvider(option), path)
    decision = await gate.decide(ask(options=options), "tool:pre", TOOL_DATA)
    assert (decision.allowed, decision.choice, decision.scope) == (allowed, option, "once")
    assert decision.remembered is False
    assert await gate.backend.list_remembered() == []
    [warning] = [r for r in logs if r["event"].startswith("approval option has both")]
    assert (warning["log_level"], warning["option"], warning["asked_scope"]) == (
        "warning",
        option,
        "always",
    )
    gate.close()

    # The next time the same question is asked again, not answered from memory.
    again = ScriptedApprovalProvider("Deny")
    later = ApprovalGate(again, path)
    assert (await later.decide(ask(options=options), "tool:pre", TOOL_DATA)).via == "person"
    assert len(again.asked) == 1
    later.close()


async def test_option_that_says_neither_allow_nor_deny_denies() -> None:
    gate = ApprovalGate(ScriptedApprovalProvider("Later"))
    decision = await gate.decide(ask(options=["Later", "Allow"]), "tool:pre", {})
    assert (decision.allowed, decision.via) == (False, "error")
    assert "says neither allow nor deny" in (decision.reason or "")


async def test_dismissed_question_is_a_deny_by_the_person() -> None:
    gate = ApprovalGate(ScriptedApprovalProvider(ApprovalDismissed()))
    decision = await gate.decide(ask(default="allow"), "tool:pre", {})
    assert (decision.allowed, decision.via) == (False, "person")


async def test_no_provider_denies_with_a_clear_reason_and_is_audited() -> None:
    gate = ApprovalGate(None)
    decision = await gate.decide(ask(default="allow"), "tool:pre", {})
    assert (decision.allowed, decision.via) == (False, "error")
    assert NO_PROVIDER in (decision.reason or "")
    assert (await gate.backend.audit_log())[0].reason == decision.reason


async def test_cancelling_the_caller_propagates_and_is_audited() -> None:
    started = asyncio.Event()

    async def wait(request: ApprovalRequest) -> str:
        started.set()
        await asyncio.sleep(30)
        return "Allow"

    gate = ApprovalGate(ScriptedApprovalProvider(wait))
    task = asyncio.create_task(gate.decide(ask(), "tool:pre", {}))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    [entry] = await gate.backend.audit_log()
    assert entry.via == "error" and "cancelled" in (entry.reason or "")


async def test_policy_answers_are_reported_and_never_remembered() -> None:
    policy = PolicyApprovalProvider([{"tool": "bash", "decision": "allow"}])
    gate = ApprovalGate(policy)
    options = ["Allow always", "Allow once", "Deny"]
    first = await gate.decide(ask(options=options), "tool:pre", TOOL_DATA)
    assert (first.allowed, first.via, first.choice, first.remembered) == (
        True,
        "policy",
        "Allow once",
        False,
    )
    assert first.reason == "allowed by policy (Allow once)"
    denied = await gate.decide(ask(options=options), "tool:pre", {"tool_name": "python"})
    assert (denied.allowed, denied.via) == (False, "policy")


async def test_corrupt_store_fails_closed_without_asking(tmp_path: Path) -> None:
    path = tmp_path / "approvals.db"
    path.write_bytes(b"garbage" * 1000)
    provider = ScriptedApprovalProvider()
    gate = ApprovalGate(provider, path)
    decision = await gate.decide(ask(default="allow"), "tool:pre", {})
    assert (decision.allowed, decision.via) == (False, "error")
    assert "corrupt" in (decision.reason or "")
    assert provider.asked == []


async def test_locked_store_fails_closed(tmp_path: Path) -> None:
    path = tmp_path / "approvals.db"
    ApprovalStore(path).check()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    session = ["Allow for this session", "Deny"]
    provider = ScriptedApprovalProvider("Allow", "Allow always", "Allow for this session")
    try:
        # A short retry budget: the lock is held for the whole test.
        store = ApprovalStore(path, busy_timeout=0.05)
        gate = ApprovalGate(provider, store, store_budget=0.2)
        once = await gate.decide(ask(), "tool:pre", {})  # the audit row cannot be written
        always = await gate.decide(ask(options=["Allow always", "Deny"]), "tool:pre", {})
        for_session = await gate.decide(ask(options=session), "tool:pre", {})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    for decision in (once, always, for_session):
        assert (decision.allowed, decision.via, decision.remembered) == (False, "error", False)
        assert "locked" in (decision.reason or "")
    # Nothing unaudited was remembered: the same questions are asked again.
    provider.answers += ["Deny", "Deny"]
    assert (await gate.decide(ask(options=session), "tool:pre", {})).via == "person"
    assert (
        await gate.decide(ask(options=["Allow always", "Deny"]), "tool:pre", {})
    ).via == "person"


async def test_decide_all_asks_in_order_and_stops_at_the_first_deny() -> None:
    provider = ScriptedApprovalProvider("Allow", "Deny", "Allow")
    gate = ApprovalGate(provider)
    asks = [ask("first?"), ask("second?"), ask("third?")]
    decisions = await gate.decide_all(asks, "tool:pre", {})
    assert [d.prompt for d in decisions] == ["first?", "second?"]
    assert [d.allowed for d in decisions] == [True, False]
    assert [r.prompt for r in provider.asked] == ["first?", "second?"]

    everyone = ApprovalGate(ScriptedApprovalProvider("Allow", "Allow"))
    assert [d.allowed for d in await everyone.decide_all(asks[:2], "tool:pre", {})] == [True, True]
    assert await everyone.decide_all([], "tool:pre", {}) == []


async def test_gate_emits_required_granted_and_denied() -> None:
    registry = HookRegistry()
    seen: list[tuple[str, dict[str, Any]]] = []

    async def observer(event: str, data: dict[str, Any]) -> HookResult:
        seen.append((event, data))
        return HookResult(action="deny", reason="observers cannot veto")  # ignored

    for name in (events.APPROVAL_REQUIRED, events.APPROVAL_GRANTED, events.APPROVAL_DENIED):
        registry.register(name, observer)
    gate = ApprovalGate(ScriptedApprovalProvider("Allow always", "Deny"), registry=registry)
    options = ["Allow always", "Deny"]
    granted = await gate.decide(ask("a?", options), "tool:pre", TOOL_DATA)
    remembered = await gate.decide(ask("a?", options), "tool:pre", TOOL_DATA)
    denied = await gate.decide(ask("b?", options), "tool:pre", TOOL_DATA)
    assert granted.allowed and remembered.allowed and not denied.allowed
    assert [e for e, _ in seen] == [
        "approval:required",
        "approval:granted",
        "approval:granted",  # remembered: granted without asking, so no "required"
        "approval:required",
        "approval:denied",
    ]
    required, first = seen[0][1], seen[1][1]
    assert required["request"]["details"] == {"tool": "bash", "command": "make deploy"}
    assert "decision" not in required
    assert first["decision"]["choice"] == "Allow always" and first["event"] == "tool:pre"
    assert seen[2][1]["decision"]["via"] == "remembered"


async def test_a_broken_registry_never_breaks_a_decision() -> None:
    class Broken:
        async def emit(self, event: str, data: dict[str, Any]) -> None:
            raise RuntimeError("observer bus down")

    gate = ApprovalGate(ScriptedApprovalProvider("Allow"), registry=Broken())  # type: ignore[arg-type]
    decision = await gate.decide(ask(), "tool:pre", {})
    assert decision.allowed


async def test_new_prompts_reach_the_person_at_a_bounded_rate() -> None:
    stamps: list[float] = []

    def answer(request: ApprovalRequest) -> str:
        stamps.append(time.monotonic())
        return "Allow"

    gate = ApprovalGate(ScriptedApprovalProvider(*[answer] * 4), max_prompts=2, per_seconds=0.3)
    await asyncio.gather(*(gate.decide(ask(f"op {i}?"), "tool:pre", {}) for i in range(4)))
    assert len(stamps) == 4
    assert stamps[2] - stamps[0] >= 0.25  # the third prompt had to wait for the window


async def test_remembered_answers_are_not_throttled() -> None:
    gate = ApprovalGate(ScriptedApprovalProvider("Allow always"), max_prompts=1, per_seconds=60)
    options = ["Allow always", "Deny"]
    await gate.decide(ask(options=options), "tool:pre", {})
    decisions = await asyncio.wait_for(
        asyncio.gather(*(gate.decide(ask(options=options), "tool:pre", {}) for _ in range(5))),
        timeout=5,
    )
    assert all(d.via == "remembered" for d in decisions)


def test_gate_validates_its_rate_and_closes_only_its_own_store() -> None:
    with pytest.raises(ValueError, match="max_prompts"):
        ApprovalGate(None, max_prompts=0)
    shared = ApprovalStore(":memory:")
    ApprovalGate(None, shared).close()
    shared.check()  # still open: the caller owns it
    own = ApprovalGate(None)
    own.close()
    with pytest.raises(Exception, match="closed"):
        own.backend.check()


async def test_failures_and_decisions_are_logged(logs: list[dict[str, Any]]) -> None:
    gate = ApprovalGate(ScriptedApprovalProvider(RuntimeError("screen gone")))
    await gate.decide(ask(source="shell_guard"), "tool:pre", {})
    failed = [r for r in logs if r["event"] == "approval provider failed"]
    decided = [r for r in logs if r["event"] == "approval decided"]
    assert failed and failed[0]["source"] == "shell_guard" and "screen gone" in failed[0]["error"]
    assert decided and decided[0]["via"] == "error" and decided[0]["allowed"] is False


async def test_an_infinite_timeout_waits_for_the_answer() -> None:
    asked, answer = asyncio.Event(), asyncio.Event()

    async def slowly(request: ApprovalRequest) -> str:
        asked.set()
        await answer.wait()
        return "Allow"

    gate = ApprovalGate(ScriptedApprovalProvider(slowly))
    deciding = asyncio.ensure_future(gate.decide(ask(timeout=float("inf")), "tool:pre", {}))
    await asked.wait()
    for _ in range(10):  # the gate goes on waiting, however many turns the loop takes
        await asyncio.sleep(0)
    assert not deciding.done()
    answer.set()
    decision = await deciding
    assert (decision.allowed, decision.via) == (True, "person")
