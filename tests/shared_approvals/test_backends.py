"""Both backends behave the same: remembered decisions, the audit, the queue's one-winner
rule, late answers, malformed rows, schema versions."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import psycopg
import pytest

from amplifier_hooks.approvals import (
    ApprovalBackend,
    ApprovalDecision,
    ApprovalRequest,
    ApprovalStoreError,
    open_store,
)
from amplifier_hooks.approvals.store.postgres import PostgresBackend, redact
from amplifier_hooks.approvals.store.postgres_schema import VERSION

from .pgserver import PgServer


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[ApprovalBackend]:
    if request.param == "sqlite":
        store = open_store(tmp_path / "approvals.db")
    else:
        server: PgServer = request.getfixturevalue("pg_server")
        store = open_store(server.create_database())
    yield store
    await store.aclose()


def _request(key: str = "k", scope: str = "/w", prompt: str = "Run it?") -> ApprovalRequest:
    return ApprovalRequest(
        prompt=prompt,
        options=["Allow always", "Deny"],
        event="tool:pre",
        source="guard",
        key=key,
        details={"command": "make"},
        timeout=60,
        workspace=scope,
        remember_scope=scope,
    )


def _decision(request: ApprovalRequest, allowed: bool = True) -> ApprovalDecision:
    return ApprovalDecision(
        allowed=allowed,
        choice="Allow always" if allowed else "Deny",
        via="person",
        remembered=True,
        scope="always",
        source=request.source,
        prompt=request.prompt,
        key=request.key,
    )


async def test_remembered_decisions_are_scoped_and_audited(backend: ApprovalBackend) -> None:
    here = _request(scope="/w/a")
    await backend.remember(here, _decision(here))
    found = await backend.lookup("k", "/w/a")
    assert found is not None and found.allowed and found.workspace == "/w/a"
    assert await backend.lookup("k", "/w/b") is None
    everywhere = _request(scope="*")
    await backend.remember(everywhere, _decision(everywhere, allowed=False))
    other = await backend.lookup("k", "/w/b")
    assert other is not None and not other.allowed  # the global one applies elsewhere
    mine = await backend.lookup("k", "/w/a")
    assert mine is not None and mine.allowed  # the workspace's own wins over the global
    again = _request(scope="/w/a")
    await backend.remember(again, _decision(again, allowed=False))  # replaces, not adds
    assert len(await backend.list_remembered()) == 2
    assert [e.choice for e in await backend.audit_log()] == ["Allow always", "Deny", "Deny"]
    assert await backend.forget("k", "/w/a") == 1
    assert await backend.forget_all() == 1
    assert len(await backend.audit_log(limit=None)) == 3


class _Clock:
    """The backend's wall clock, moved by the test: expiry without waiting for it."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _clocked(backend: ApprovalBackend) -> _Clock:
    clock = _Clock()
    backend.clock = clock
    return clock


async def test_expired_decisions_are_not_found(backend: ApprovalBackend) -> None:
    clock = _clocked(backend)
    request = _request()
    await backend.remember(request, _decision(request), ttl=60)
    clock.now += 59
    assert await backend.lookup("k", "/w") is not None
    clock.now += 2
    assert await backend.lookup("k", "/w") is None
    assert await backend.list_remembered() == []
    assert len(await backend.list_remembered(include_expired=True)) == 1


async def test_exactly_one_answer_wins(backend: ApprovalBackend) -> None:
    ident = await backend.enqueue(_request(), session_id="s1", host="h1", deadline=None)
    [row] = await backend.list_pending()
    assert (row.id, row.session_id, row.host, row.workspace) == (ident, "s1", "h1", "/w")
    assert row.details == {"command": "make"} and row.status == "pending"
    results = await asyncio.gather(
        *(backend.answer(ident, choice, f"approver{n}") for n, choice in enumerate(
            ["Allow always", "Deny", "Deny", "Allow always"]
        ))
    )  # fmt: skip
    winners = [r for r in results if r.won]
    assert len(winners) == 1
    final = await backend.pending(ident)
    assert final is not None and final.status == "answered"
    assert (final.choice, final.answered_by) == (
        winners[0].request.choice,
        winners[0].request.answered_by,
    )  # type: ignore[union-attr]
    loser = next(r for r in results if not r.won)
    assert f"already answered {final.choice!r} by {final.answered_by}" in loser.explain()
    assert await backend.list_pending() == []


async def test_an_answer_after_expiry_is_late_and_audited(backend: ApprovalBackend) -> None:
    ident = await backend.enqueue(_request(), session_id="s", host="h", deadline=None)
    expired = await backend.expire(ident)
    assert expired is not None and expired.status == "expired"
    late = await backend.answer(ident, "Allow always", "alice")
    assert not late.won and "late" in late.explain()
    row = await backend.pending(ident)
    assert row is not None and (row.status, row.choice) == ("expired", None)
    [entry] = await backend.audit_log()
    assert (entry.via, entry.choice, entry.allowed) == ("late", "Allow always", False)
    assert entry.reason is not None and "alice" in entry.reason
    missing = await backend.answer(ident + 100, "Deny", "alice")
    assert not missing.won and missing.request is None


async def test_expire_after_an_answer_keeps_the_answer(backend: ApprovalBackend) -> None:
    ident = await backend.enqueue(_request(), session_id="s", host="h", deadline=None)
    assert (await backend.answer(ident, "Deny", "bob")).won
    row = await backend.expire(ident)
    assert row is not None and (row.status, row.choice) == ("answered", "Deny")


async def test_a_malformed_row_is_skipped_with_a_log_line(
    backend: ApprovalBackend, caplog: pytest.LogCaptureFixture
) -> None:
    good = await backend.enqueue(_request(), session_id="s", host="h", deadline=None)
    bad = await backend.enqueue(_request(key="b"), session_id="s", host="h", deadline=None)
    sql = "UPDATE {} SET options = 'not json', default_verdict = 'maybe' WHERE id = %s"
    if isinstance(backend, PostgresBackend):
        with psycopg.connect(backend.url, autocommit=True) as conn:
            conn.execute(sql.format("amplifier_pending").encode(), (bad,))
    else:
        with sqlite3.connect(backend.name) as conn:
            conn.execute(sql.format("pending").replace("%s", "?"), (bad,))
    assert [r.id for r in await backend.list_pending()] == [good]
    assert await backend.pending(bad) is None
    assert "skipped a malformed queued request" in caplog.text


async def test_a_newer_schema_is_refused_with_the_store_named(pg_url: str) -> None:
    store = open_store(pg_url)
    await store.list_remembered()  # creates the schema
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("INSERT INTO amplifier_hooks_schema VALUES (99)")
    fresh = open_store(pg_url)
    with pytest.raises(ApprovalStoreError, match="schema version 99 is newer"):
        await fresh.list_remembered()
    await store.aclose()
    await fresh.aclose()


async def test_many_agents_migrate_a_fresh_database_at_once(pg_url: str) -> None:
    stores = [open_store(pg_url) for _ in range(6)]
    await asyncio.gather(*(s.list_remembered() for s in stores))
    with psycopg.connect(pg_url) as conn:
        # Each migration ran exactly once, however many agents raced to run it.
        found = conn.execute("SELECT version FROM amplifier_hooks_schema ORDER BY version")
        assert found.fetchall() == [(v,) for v in range(1, VERSION + 1)]
    for store in stores:
        await store.aclose()


def test_messages_never_show_the_password() -> None:
    url = "postgresql://agent:s3cret@db.example:5432/approvals"
    assert redact(url) == "postgresql://agent:***@db.example:5432/approvals"
    assert "s3cret" not in open_store(url).name


async def test_an_answer_after_the_deadline_of_a_vanished_agent_is_late(
    backend: ApprovalBackend,
) -> None:
    """The agent died without expiring its request: its deadline still rules."""
    import time

    ident = await backend.enqueue(_request(), session_id="s", host="h", deadline=time.time() - 1)
    result = await backend.answer(ident, "Allow always", "alice")
    assert not result.won and "past its deadline" in result.explain()
    row = await backend.pending(ident)
    assert row is not None and row.status == "expired"
    assert [e.via for e in await backend.audit_log()] == ["late"]
