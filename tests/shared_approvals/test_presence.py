"""Approver heartbeats in both stores: what provider ``auto`` reads to decide whether a
question is queued (see tests/approvals/test_auto.py for the routing itself)."""

from __future__ import annotations

import psycopg

from amplifier_hooks.approvals import open_store
from amplifier_hooks.approvals.heartbeat import Heartbeat
from amplifier_hooks.approvals.store import PRESENCE_WINDOW, PostgresBackend
from amplifier_hooks.approvals.store.postgres_schema import _MIGRATIONS


async def test_a_console_is_seen_while_it_beats_and_gone_when_it_stops(either_store: str) -> None:
    agent = open_store(either_store)
    console = open_store(either_store)
    try:
        assert await agent.approvers(PRESENCE_WINDOW) == []
        async with Heartbeat(console, "ana@laptop", "console") as one:
            async with Heartbeat(console, "bo@desk", "web") as two:
                seen = await agent.approvers(PRESENCE_WINDOW)
                assert {(s.id, s.name, s.kind) for s in seen} == {
                    (one.id, "ana@laptop", "console"),
                    (two.id, "bo@desk", "web"),
                }
                await one.beat()  # a renewal updates the row, never adds one
                assert len(await agent.approvers(PRESENCE_WINDOW)) == 2
            [left] = await agent.approvers(PRESENCE_WINDOW)
            assert left.id == one.id
        assert await agent.approvers(PRESENCE_WINDOW) == []
    finally:
        await agent.aclose()
        await console.aclose()


async def test_a_heartbeat_is_judged_by_the_stores_clock(pg_url: str) -> None:
    now = [1_700_000_000.0]
    backend = PostgresBackend(pg_url, clock=lambda: now[0])
    try:
        await backend.beat("c1", "ana@laptop", "console")
        assert [s.id for s in await backend.approvers(PRESENCE_WINDOW)] == ["c1"]
        now[0] += PRESENCE_WINDOW + 1
        assert await backend.approvers(PRESENCE_WINDOW) == []
    finally:
        await backend.aclose()


async def test_a_database_of_schema_1_gains_the_heartbeats(pg_url: str) -> None:
    async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as conn:
        await conn.execute("CREATE TABLE amplifier_hooks_schema (version integer)")
        for statement in _MIGRATIONS[1]:
            await conn.execute(statement.encode())
        await conn.execute("INSERT INTO amplifier_hooks_schema VALUES (1)")
    backend = open_store(pg_url)
    try:
        await backend.beat("c1", "ana@laptop", "console")
        assert [s.name for s in await backend.approvers(PRESENCE_WINDOW)] == ["ana@laptop"]
        assert await backend.list_pending() == []  # the tables of schema 1 are still used
    finally:
        await backend.aclose()
