"""Every store the approvals open is closed again: a reload that switches to the queue
provider opens no store of its own (the queue uses the gate's), a replaced provider is
closed once its question is over, and cleanup leaves no connection open.

Open connections are counted where they really are: file descriptors on the SQLite file
(each connection holds one; SQLite defers closing a descriptor while another connection
of the process holds a lock on the file, so only "none left" is exact), sessions in
``pg_stat_activity`` on the PostgreSQL server (the agent's, marked by ``application_name``,
so an approver's are not counted).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest

from amplifier_hooks import Coordinator, HookResult
from amplifier_hooks.approvals import (
    ApprovalGate,
    ApprovalStoreError,
    PolicyApprovalProvider,
    QueueApprovalProvider,
    open_store,
)
from amplifier_hooks.bundles.loading import reload_bundle
from amplifier_hooks.engine.resolution import ApprovalAsk
from tests.shared_approvals.queued import until_pending

from .pgserver import PgServer

AGENT = "amph_agent"
CLOSE_LIMIT = 60.0
"""Seconds a server may take to drop a closed session from pg_stat_activity (an upper
bound for a failure message; the wait ends as soon as the count is reached)."""


@dataclass
class Store:
    """One store as the agent names it (``url``) and as an approver or the checks do."""

    kind: str
    url: str
    plain: str

    async def connections(self) -> int:
        """Connections the agent holds open on this store right now."""
        if self.kind == "sqlite":
            return _descriptors_on(Path(self.url))
        async with await psycopg.AsyncConnection.connect(self.plain, autocommit=True) as conn:
            cursor = await conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", (AGENT,)
            )
            row = await cursor.fetchone()
            return int(row[0]) if row else 0

    async def until_connections(self, wanted: int) -> int:
        """The agent's connection count once it is ``wanted`` (the server drops a closed
        session a moment after the client hangs up), or what it still is at the limit."""
        give_up = time.monotonic() + CLOSE_LIMIT
        # The server announces no session's end: reading its view again is the only way.
        while (count := await self.connections()) != wanted and time.monotonic() < give_up:  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        return count


def _descriptors_on(path: Path) -> int:
    target = str(path.resolve())
    count = 0
    for name in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{name}") == target:
                count += 1
        except OSError:  # closed while listing
            continue
    return count


@pytest.fixture(params=["sqlite", "postgres"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    if request.param == "sqlite":
        path = str(tmp_path / "approvals.db")
        yield Store("sqlite", path, path)
    else:
        server: PgServer = request.getfixturevalue("pg_server")
        plain = server.create_database()
        yield Store("postgres", f"{plain}&application_name={AGENT}", plain)


async def _answer_one(store: Store, choice: str = "Allow") -> None:
    """Answer the next queued question as an approver would: own store, closed after."""
    approver = open_store(store.plain)
    try:
        row = (await until_pending(approver))[0]
        assert (await approver.answer(row.id, choice, "alice")).won
    finally:
        await approver.aclose()


def _bundle(tmp_path: Path, name: str, provider: str, store: Store) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(
        f"bundle: {{name: {name}}}\n"
        f"session:\n  approvals:\n    provider: {provider}\n    store: '{store.url}'\n",
        encoding="utf-8",
    )
    return path


def _guard(event: str, data: dict[str, Any]) -> HookResult:
    return HookResult(action="ask_user", approval_prompt="Deploy?", approval_timeout=120)


async def _ask_and_answer(coordinator: Coordinator, store: Store) -> None:
    asking = asyncio.ensure_future(coordinator.dispatch("tool:pre", {"command": "deploy"}))
    await _answer_one(store)
    outcome = await asking
    assert outcome.allowed and outcome.approvals[0].via == "person"


async def test_a_reload_to_the_queue_opens_no_store_and_cleanup_closes_every_one(
    store: Store, tmp_path: Path
) -> None:
    by_policy = _bundle(tmp_path, "policy", "policy", store)
    by_queue = _bundle(tmp_path, "queue", "queue", store)
    coordinator = await Coordinator.from_bundle(by_policy)
    coordinator.hooks.register("tool:pre", _guard)
    gate = coordinator.approvals
    await gate.backend.list_remembered()  # the gate's store is open from here on
    assert await store.connections() >= 1

    for _ in range(2):  # switch to the queue, use it, switch back: twice
        await reload_bundle(coordinator, by_queue)
        provider = gate.provider
        assert isinstance(provider, QueueApprovalProvider)
        assert provider.backend is gate.backend  # queued where the gate remembers
        await _ask_and_answer(coordinator, store)
        await reload_bundle(coordinator, by_policy)
        assert isinstance(gate.provider, PolicyApprovalProvider)
        await gate.wait_retired()

    await coordinator.cleanup()
    assert await store.until_connections(0) == 0


async def test_a_replaced_provider_is_closed_once_its_question_is_over(store: Store) -> None:
    provider = QueueApprovalProvider(store.url)  # opens, and so closes, its own store
    gate = ApprovalGate(provider, ":memory:")
    ask = ApprovalAsk(
        source="guard", prompt="Deploy?", options=["Allow", "Deny"], timeout=120, default="deny"
    )
    asking = asyncio.ensure_future(gate.decide(ask, "tool:pre", {}))
    approver = open_store(store.plain)
    row = (await until_pending(approver))[0]

    gate.provider = PolicyApprovalProvider()  # a reload, while the question waits
    assert await provider.backend.pending(row.id) is not None  # not closed under it
    assert (await approver.answer(row.id, "Allow", "alice")).won
    decision = await asking
    assert (decision.allowed, decision.via, decision.choice) == (True, "person", "Allow")
    await approver.aclose()

    await gate.wait_retired()
    with pytest.raises(ApprovalStoreError, match="closed"):
        await provider.backend.pending(row.id)
    assert await store.until_connections(0) == 0
    await gate.aclose()


async def test_cleanup_mid_question_closes_a_replaced_provider_and_fails_closed(
    store: Store,
) -> None:
    provider = QueueApprovalProvider(store.url)
    coordinator = Coordinator(approval_provider=provider)
    coordinator.hooks.register("tool:pre", _guard)
    asking = asyncio.ensure_future(coordinator.dispatch("tool:pre", {}))
    approver = open_store(store.plain)
    await until_pending(approver)
    await approver.aclose()
    coordinator.approvals.provider = PolicyApprovalProvider()
    assert await store.connections() >= 1  # its question is still open: so is its store

    await coordinator.cleanup()  # the agent shuts down with the question unanswered
    outcome = await asking
    assert not outcome.allowed and outcome.approvals[0].via == "error"
    assert await store.until_connections(0) == 0


async def test_a_closed_store_opens_nothing_for_a_waiter_still_looping(store: Store) -> None:
    # A question whose provider was closed under it may still be in its wait loop (the
    # gate stops waiting for it, it need not stop at once). Its next wait must fail, not
    # quietly open a new listener connection that nothing would ever close.
    backend = open_store(store.url)
    await backend.wait_for_change(None, 0.0)  # starts the PostgreSQL listener
    if store.kind == "postgres":
        assert await store.until_connections(1) == 1
    await backend.aclose()
    assert await store.until_connections(0) == 0
    with pytest.raises(ApprovalStoreError, match="closed"):
        await backend.list_pending()
    if store.kind == "postgres":
        with pytest.raises(ApprovalStoreError, match="closed"):
            await backend.wait_for_change(None, 0.0)
        listener = backend.listener
        listener.start()
        assert listener._task is None  # no new connection is even attempted
    assert await store.connections() == 0
