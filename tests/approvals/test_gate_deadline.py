"""The gate's deadline holds whatever the provider does, and the store never blocks the
loop (issue 11, points 3 and 7). Waits are on events, never on wall-clock slack."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

from amplifier_hooks.approvals import (
    ApprovalGate,
    ApprovalRequest,
    ApprovalStore,
    ApprovalStoreError,
)

from .conftest import TOOL_DATA, ask


class StubbornProvider:
    """Swallows its cancellation and answers anyway once ``release`` is set."""

    via = "person"

    def __init__(self, answer: str = "Allow") -> None:
        self.answer = answer
        self.release = asyncio.Event()
        self.cancelled = asyncio.Event()

    async def request_approval(self, request: ApprovalRequest) -> str:
        while True:
            try:
                await self.release.wait()
                return self.answer
            except asyncio.CancelledError:
                self.cancelled.set()  # and carry on waiting, as a badly written one would


async def test_the_default_decides_at_the_deadline_and_a_late_answer_is_audited() -> None:
    provider = StubbornProvider("Allow")
    gate = ApprovalGate(provider)
    decision = await gate.decide(ask(timeout=0.05, default="deny"), "tool:pre", TOOL_DATA)
    assert (decision.allowed, decision.via, decision.choice) == (False, "timeout", None)
    assert provider.cancelled.is_set()
    provider.release.set()
    await gate.drain()
    [timeout, late] = await gate.backend.audit_log()
    assert (timeout.via, timeout.allowed) == ("timeout", False)
    assert (late.via, late.choice, late.allowed) == ("late", "Allow", False)
    assert late.reason is not None and "not applied" in late.reason


async def test_an_allow_default_still_applies_at_the_deadline() -> None:
    provider = StubbornProvider("Deny")
    gate = ApprovalGate(provider)
    decision = await gate.decide(ask(timeout=0.05, default="allow"), "tool:pre", TOOL_DATA)
    assert (decision.allowed, decision.via) == (True, "timeout")
    closing = asyncio.ensure_future(gate.aclose())
    await asyncio.wait([closing], timeout=5)  # never waits on a provider that will not stop
    assert closing.done()
    provider.release.set()  # let the stubborn task end before the loop closes
    await gate.drain()


class SignallingStore(ApprovalStore):
    """Sets ``met_lock`` (on the loop) each time a write finds the database locked."""

    def __init__(self, path: Path, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(path, busy_timeout=0.02)
        self.loop = loop
        self.met_lock = asyncio.Event()

    def run(self, what: str, operation: Any) -> Any:
        try:
            return super().run(what, operation)
        except ApprovalStoreError:
            self.loop.call_soon_threadsafe(self.met_lock.set)
            raise


async def test_a_locked_store_does_not_block_the_event_loop(tmp_path: Path) -> None:
    """Another connection holds the write lock: the gate's write retries off the loop, so
    this coroutine (on the same loop) hears of the lock and can release it."""
    path = tmp_path / "approvals.db"
    store = SignallingStore(path, asyncio.get_running_loop())
    gate = ApprovalGate(_Answer("Allow always"), store)
    await store.list_remembered()  # create the schema before taking the lock
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    deciding = asyncio.ensure_future(
        gate.decide(ask(options=["Allow always", "Deny"]), "tool:pre", TOOL_DATA)
    )
    await store.met_lock.wait()  # the loop runs while the store is locked
    assert not deciding.done()
    holder.execute("COMMIT")
    holder.close()
    decision = await deciding
    assert (decision.allowed, decision.remembered) == (True, True)
    assert store.retries >= 1
    assert [r.choice for r in await store.list_remembered()] == ["Allow always"]
    store.close()


async def test_a_store_that_stays_locked_fails_closed(tmp_path: Path) -> None:
    path = tmp_path / "approvals.db"
    store = ApprovalStore(path, busy_timeout=0.01)
    await store.list_remembered()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        gate = ApprovalGate(_Answer("Allow always"), store, store_budget=0.1)
        decision = await gate.decide(ask(options=["Allow always", "Deny"]), "tool:pre", TOOL_DATA)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert (decision.allowed, decision.via) == (False, "error")
    assert decision.reason is not None and str(path) in decision.reason
    assert "fail closed" in decision.reason
    store.close()


class _Answer:
    via = "person"

    def __init__(self, answer: str) -> None:
        self.answer = answer

    async def request_approval(self, request: ApprovalRequest) -> str:
        return self.answer
