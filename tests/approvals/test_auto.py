"""Provider ``auto``: who is asked, behind an agent CLI host and outside one.

Every gate here keeps its answers in a real SQLite file; an approver's presence is a
real heartbeat (`Heartbeat`, as ``amplifier-hooks approve`` writes it) in that file,
and its age moves with the store's own clock, never with sleeps.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.approvals import (
    ApprovalBackend,
    ApprovalDeferral,
    ApprovalGate,
    ApprovalStore,
    PendingRequest,
    PolicyApprovalProvider,
    open_store,
)
from amplifier_hooks.approvals.auto import (
    AutoApprovalProvider,
    HostAsking,
    behind_host,
    current_host,
)
from amplifier_hooks.approvals.heartbeat import Heartbeat
from amplifier_hooks.approvals.host_prompt import HOST_PROMPT
from amplifier_hooks.approvals.store import PRESENCE_WINDOW
from amplifier_hooks.testing import ScriptedApprovalProvider
from conftest import ManualClock

from .conftest import TOOL_DATA, ask

INTERACTIVE = HostAsking("Claude Code", True)
PRINT_MODE = HostAsking(
    "Claude Code", False, "cannot show its permission prompt in this session (claude -p)"
)
RULE = "approval rule rules[0] matched make deploy"


@pytest.fixture
def wall() -> ManualClock:
    """The store's clock (epoch seconds): heartbeats age only when the test says so."""
    return ManualClock(1_700_000_000.0)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "approvals.db"


@pytest.fixture
async def backend(path: Path, wall: ManualClock) -> AsyncIterator[ApprovalStore]:
    store = ApprovalStore(path, clock=wall)
    yield store
    await store.aclose()


@pytest.fixture
async def approver(path: Path) -> AsyncIterator[ApprovalBackend]:
    """The approver's own connection to the same file (as ``approve ID`` opens it)."""
    store = open_store(path)
    yield store
    await store.aclose()


def auto_gate(
    backend: ApprovalBackend, **options: Any
) -> tuple[ApprovalGate, ScriptedApprovalProvider]:
    """A gate with provider auto over ``backend``; its local provider records questions."""
    local = ScriptedApprovalProvider.always("Allow")
    return ApprovalGate(AutoApprovalProvider(local, **options), backend, workspace="/w"), local


async def queued(store: ApprovalBackend) -> PendingRequest:
    """The first request to appear on the queue (waits on the store, not on a clock)."""
    while True:
        rows = await store.list_pending()
        if rows:
            return rows[0]
        await store.wait_for_change(None, 1.0)


async def test_outside_a_host_the_local_provider_answers(backend: ApprovalStore) -> None:
    gate, local = auto_gate(backend)
    async with Heartbeat(backend, "ana@laptop", "console"):
        decision = await gate.decide(ask(), "tool:pre", TOOL_DATA)
    assert current_host() is None
    assert (decision.allowed, decision.via, local.prompts) == (True, "person", ["Run the command?"])
    assert await backend.list_pending(include_done=True) == []


async def test_where_the_host_can_ask_its_prompt_comes_first(backend: ApprovalStore) -> None:
    """Even with an approver present: the person at the interactive session is closest."""
    gate, local = auto_gate(backend)
    async with Heartbeat(backend, "ana@laptop", "console"):
        with behind_host(INTERACTIVE):
            deferral = await gate.decide(ask(), "tool:pre", TOOL_DATA)
    # Neither granted nor denied: its own value, and the audit names the host as owner.
    assert isinstance(deferral, ApprovalDeferral)
    assert (deferral.owner, deferral.reason) == ("host", HOST_PROMPT)
    assert local.asked == [] and await backend.list_pending(include_done=True) == []
    (row,) = await backend.audit_log()
    assert (row.via, row.choice) == ("deferred", None)
    assert row.reason is not None and "host owns this question" in row.reason


async def test_where_the_host_cannot_ask_a_present_approver_is_asked_on_the_queue(
    backend: ApprovalStore, approver: ApprovalBackend
) -> None:
    gate, local = auto_gate(backend)
    async with Heartbeat(approver, "ana@laptop", "console"):
        with behind_host(PRINT_MODE):
            asking = asyncio.ensure_future(gate.decide(ask(), "tool:pre", TOOL_DATA))
        row = await queued(approver)
        assert (row.prompt, row.details["command"]) == ("Run the command?", "make deploy")
        assert (await approver.answer(row.id, "Allow", "ana@laptop")).won
        decision = await asking
    assert (decision.allowed, decision.via, decision.choice) == (True, "person", "Allow")
    assert local.asked == []


async def test_with_nobody_to_ask_the_deny_says_how_to_answer(
    backend: ApprovalStore, path: Path
) -> None:
    gate, local = auto_gate(backend)
    with behind_host(PRINT_MODE):
        decision = await gate.decide(ask(reason=RULE), "tool:pre", TOOL_DATA)
    assert (decision.allowed, decision.via) == (False, "policy")
    assert decision.reason == (
        "Run the command? -- needs a person's answer and nobody could be asked: Claude Code "
        "cannot show its permission prompt in this session (claude -p), and no approver "
        "console is watching the queue. To go on, run "
        f"`amplifier-hooks approve --store {path}` in a terminal to answer questions like "
        f"this (then try again), or allow it in the bundle ({RULE})."
    )
    assert local.asked == [] and await backend.list_pending(include_done=True) == []
    [audited] = await backend.audit_log()
    assert (audited.via, audited.allowed) == ("policy", False)


async def test_the_default_store_needs_no_store_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("AMPLIFIER_HOOKS_STORE", raising=False)
    gate, _ = auto_gate(open_store(None))
    with behind_host(PRINT_MODE):
        decision = await gate.decide(ask(), "tool:pre", TOOL_DATA)
    await gate.aclose()
    assert decision.reason is not None
    assert "run `amplifier-hooks approve` in a terminal" in decision.reason
    assert "(asked by guard)" in decision.reason  # no reason given: the asking hook


async def test_an_in_memory_store_says_that_no_approver_can_see_it() -> None:
    gate, _ = auto_gate(open_store(":memory:"))
    with behind_host(PRINT_MODE):
        decision = await gate.decide(ask(), "tool:pre", TOOL_DATA)
    await gate.aclose()
    assert decision.reason is not None and "keeps approvals in memory" in decision.reason


async def test_a_heartbeat_counts_for_the_window_and_a_stopped_console_at_once(
    backend: ApprovalStore, wall: ManualClock
) -> None:
    provider = AutoApprovalProvider(ScriptedApprovalProvider())
    provider.use_gate_store(backend)
    assert not await provider.approver_present()
    async with Heartbeat(backend, "ana@laptop", "web") as beating:
        assert await provider.approver_present()
        wall.advance(PRESENCE_WINDOW - 1)
        assert await provider.approver_present()
        wall.advance(2)  # a console that stopped beating (killed) ages out
        assert not await provider.approver_present()
        assert await beating.beat()
        assert await provider.approver_present()
        [seen] = await backend.approvers(PRESENCE_WINDOW)
        assert (seen.id, seen.name, seen.kind) == (beating.id, "ana@laptop", "web")
    assert not await provider.approver_present()  # a console that quits says so


async def test_the_bundle_can_say_whether_an_approver_is_present(
    backend: ApprovalStore, approver: ApprovalBackend
) -> None:
    absent, _ = auto_gate(backend, approver="absent")
    async with Heartbeat(approver, "ana@laptop", "console"):
        with behind_host(PRINT_MODE):
            denied = await absent.decide(ask(), "tool:pre", TOOL_DATA)
    assert (denied.allowed, denied.via) == (False, "policy")
    present, _ = auto_gate(backend, approver="present")
    with behind_host(PRINT_MODE):
        asking = asyncio.ensure_future(present.decide(ask(), "tool:pre", TOOL_DATA))
    row = await queued(approver)
    assert (await approver.answer(row.id, "Deny", "ana@laptop")).won
    refused = await asking
    assert (refused.allowed, refused.via, refused.choice) == (False, "person", "Deny")
    with pytest.raises(ValueError, match="approver must be"):
        AutoApprovalProvider(ScriptedApprovalProvider(), approver="maybe")  # type: ignore[arg-type]
    for seconds in (0, -1.0, float("nan")):
        with pytest.raises(ValueError, match="window must be a positive number of seconds"):
            AutoApprovalProvider(ScriptedApprovalProvider(), window=seconds)
        with pytest.raises(ValueError, match="interval must be a positive number of seconds"):
            Heartbeat(backend, "ana@laptop", "console", interval=seconds)


async def test_a_matching_policy_rule_answers_before_the_host(backend: ApprovalStore) -> None:
    policy = PolicyApprovalProvider([{"tool": "bash", "command": "make *", "decision": "allow"}])
    gate, _ = auto_gate(backend, policy=policy)
    with behind_host(INTERACTIVE):
        ruled = await gate.decide(ask(), "tool:pre", TOOL_DATA)
        other = await gate.decide(ask(), "tool:pre", {"tool_name": "read_file", "path": "/x"})
    assert (ruled.allowed, ruled.via) == (True, "policy")
    assert isinstance(other, ApprovalDeferral) and other.reason == HOST_PROMPT


async def test_an_always_answer_from_the_queue_applies_when_nobody_can_be_asked(
    backend: ApprovalStore, approver: ApprovalBackend
) -> None:
    gate, _ = auto_gate(backend)
    always = ask(options=["Allow", "Allow always", "Deny"])
    async with Heartbeat(approver, "ana@laptop", "console"):
        with behind_host(PRINT_MODE):
            asking = asyncio.ensure_future(gate.decide(always, "tool:pre", TOOL_DATA))
        row = await queued(approver)
        assert (await approver.answer(row.id, "Allow always", "ana@laptop")).won
        assert (await asking).remembered
    with behind_host(PRINT_MODE):
        again = await gate.decide(always, "tool:pre", TOOL_DATA)
    assert (again.allowed, again.via) == (True, "remembered")


async def test_a_store_that_cannot_be_read_is_nobody_watching(path: Path) -> None:
    closed = open_store(path)
    provider = AutoApprovalProvider(ScriptedApprovalProvider(), approver="auto")
    provider.use_gate_store(closed)
    await closed.aclose()
    assert not await provider.approver_present()


async def test_each_hook_call_sees_its_own_host() -> None:
    """Two calls answered at once (two sessions, one server) never mix their hosts."""
    seen: dict[str, HostAsking | None] = {}
    both = asyncio.Barrier(2)

    async def call(name: str, asking: HostAsking) -> None:
        with behind_host(asking):
            await both.wait()
            seen[name] = current_host()

    await asyncio.gather(call("a", INTERACTIVE), call("b", PRINT_MODE))
    assert seen == {"a": INTERACTIVE, "b": PRINT_MODE} and current_host() is None


async def test_a_call_that_fails_inside_its_block_leaves_no_host_behind() -> None:
    """A hook call that raises (a handler's failure, a cancelled call) must not leave its
    host to the next call answered in the same context; blocks nest."""
    with pytest.raises(RuntimeError, match="handler failed"), behind_host(INTERACTIVE):
        assert current_host() is INTERACTIVE
        raise RuntimeError("handler failed")
    assert current_host() is None
    with behind_host(PRINT_MODE):
        with behind_host(INTERACTIVE):
            assert current_host() is INTERACTIVE
        assert current_host() is PRINT_MODE
    assert current_host() is None


def test_a_guard_rules_hint_names_the_setting_that_allows_it() -> None:
    """Issue 37: the hint named the reason again, not what to write in the bundle."""
    from amplifier_hooks.approvals.auto import allow_in_bundle
    from amplifier_hooks.approvals.models import ApprovalRequest

    guarded = ApprovalRequest(
        prompt="Run it?", source="ah-guard", key="guard:sudo:sudo ls", reason="runs as root"
    )
    assert allow_in_bundle(guarded) == (
        "allow it in the bundle (ah-guard config: `disable: [sudo]`)"
    )
    other = ApprovalRequest(prompt="Run it?", source="ah-approval", key="auto:x", reason="why")
    assert allow_in_bundle(other) == "allow it in the bundle (why)"
