"""A shared PostgreSQL store written by an older version (schema 2: raw keys, no owners)
is migrated when it is opened (issue 37): no secret is left in any key, a remembered
"always" still answers the same call, two remembered answers whose keys scrub to one keep
the newer, and the queue's rows are kept (with no owner). On a real PostgreSQL."""

from __future__ import annotations

import asyncio

import psycopg

from amplifier_hooks.approvals import ApprovalGate, QueueApprovalProvider, open_store
from amplifier_hooks.approvals.secrets import scrub_key
from tests.approvals.test_secret_keys import DATA, KEY, SECRETS, ask

TABLES = ("amplifier_remembered", "amplifier_audit", "amplifier_pending")
OTHER_KEY = KEY.replace("hunter2secret", "another-password")
"""The same call with another password: it scrubs to the same key."""


def keys(url: str) -> str:
    with psycopg.connect(url) as conn:
        return "\n".join(
            str(key) for table in TABLES for (key,) in conn.execute(f"SELECT key FROM {table}")
        )


def as_version_2_kept_it(url: str) -> None:
    """The rows as schema 2 wrote them: raw keys, no owner columns; and an older
    remembered "deny" under the same call with another password."""
    with psycopg.connect(url, autocommit=True) as conn:
        for table in TABLES:
            conn.execute(f"UPDATE {table} SET key = %s".encode(), (KEY,))  # type: ignore[arg-type]
        conn.execute(
            "INSERT INTO amplifier_remembered SELECT workspace, %s, false, 'Deny', source, "
            "prompt, options, created_at - 100, expires_at FROM amplifier_remembered",
            (OTHER_KEY,),
        )
        for column in ("owner_machine", "owner_pid", "owner_started", "closed_reason"):
            conn.execute(f"ALTER TABLE amplifier_pending DROP COLUMN {column}".encode())  # type: ignore[arg-type]
        conn.execute("DELETE FROM amplifier_hooks_schema WHERE version > 2")


async def test_an_older_shared_store_with_raw_keys_is_scrubbed_on_open(pg_url: str) -> None:
    backend = open_store(pg_url)
    gate = ApprovalGate(QueueApprovalProvider(backend, session_id="a1"), backend)
    asking = asyncio.ensure_future(gate.decide(ask(), "tool:pre", dict(DATA)))
    while not (rows := await backend.list_pending()):
        await backend.wait_for_change(None, 1.0)
    assert (await backend.answer(rows[0].id, "Always allow", "alice")).won
    assert (await asking).allowed
    await gate.aclose()
    await backend.aclose()
    as_version_2_kept_it(pg_url)
    assert all(secret in keys(pg_url) for secret in SECRETS)

    backend = open_store(pg_url)
    gate = ApprovalGate(QueueApprovalProvider(backend, session_id="a2"), backend)
    try:
        again = await gate.decide(ask(), "tool:pre", dict(DATA))
        assert again.allowed and again.via == "remembered"  # the newer answer, kept
        [remembered] = await backend.list_remembered()
        assert remembered.key == scrub_key(KEY) == scrub_key(OTHER_KEY)
        assert "sudo ls /root" in remembered.key and "[REDACTED:" in remembered.key
        [queued] = await backend.list_pending(include_done=True)
        assert queued.id == rows[0].id and queued.status == "answered"
        assert queued.owner_machine is None  # written before owners were recorded
        assert "sudo ls /root" in queued.key
        assert all(secret not in str(queued.details) for secret in SECRETS)
    finally:
        await gate.aclose()
        await backend.aclose()
    kept = keys(pg_url)
    for secret in (*SECRETS, "another-password"):
        assert secret not in kept
    with psycopg.connect(pg_url) as conn:
        found = conn.execute("SELECT max(version) FROM amplifier_hooks_schema").fetchone()
    assert found == (3,)
