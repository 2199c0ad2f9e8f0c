"""The PostgreSQL schema, created and migrated by the project, versioned.

``amplifier_hooks_schema`` holds the version; each migration runs once, in order, in one
transaction under an advisory lock, so many agents starting at once against a fresh
database cannot race each other. Columns mirror the SQLite schema (epoch seconds, JSON
text), so both backends read rows with the same code.

Version 2 adds the approvers' heartbeats; version 3 records who waits for each queued
request (its owner: machine, process id, start time) and why the store closed one, and
scrubs well-known secrets out of the keys older versions stored raw (as SQLite's schema
4 does): a remembered decision keeps its answer under its scrubbed key, which the same
call scrubs to again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import psycopg

from amplifier_hooks.approvals.secrets import scrub_key
from amplifier_hooks.approvals.store.sqlite_schema import OWNER_COLUMNS

VERSION = 3
LOCK_ID = 0x616D705F686F6F6B  # "amp_hook": the advisory lock migrations take
CHANNEL = "amplifier_hooks_queue"
"""NOTIFY channel: the id of a queued request whenever it is added or changes."""

REMEMBERED = "amplifier_remembered"
AUDIT = "amplifier_audit"
PENDING = "amplifier_pending"
APPROVERS = "amplifier_approvers"

Conn = psycopg.AsyncConnection[Any]
Step = str | Callable[[Conn], Awaitable[None]]
"""One step of a migration: a statement, or a function run in its transaction."""


async def _scrub_keys(conn: Conn) -> None:
    """Every stored key with a secret in it, scrubbed; two remembered answers whose keys
    scrub to one keep the newer."""
    cursor = await conn.execute(
        f"SELECT workspace, key, created_at FROM {REMEMBERED} ORDER BY created_at".encode()
    )
    for workspace, key, created in await cursor.fetchall():
        clean = scrub_key(key)
        if clean == key:
            continue
        place = (workspace, clean)
        await conn.execute(
            f"DELETE FROM {REMEMBERED} WHERE workspace = %s AND key = %s "
            "AND created_at <= %s".encode(),
            (*place, created),
        )
        await conn.execute(
            f"UPDATE {REMEMBERED} SET key = %s WHERE workspace = %s AND key = %s AND NOT EXISTS "
            f"(SELECT 1 FROM {REMEMBERED} WHERE workspace = %s AND key = %s)".encode(),
            (clean, workspace, key, *place),
        )
        await conn.execute(
            f"DELETE FROM {REMEMBERED} WHERE workspace = %s AND key = %s".encode(), (workspace, key)
        )
    for table in (AUDIT, PENDING):
        cursor = await conn.execute(f"SELECT DISTINCT key FROM {table}".encode())
        for (key,) in await cursor.fetchall():
            clean = scrub_key(key)
            if clean != key:
                await conn.execute(
                    f"UPDATE {table} SET key = %s WHERE key = %s".encode(), (clean, key)
                )


_MIGRATIONS: dict[int, list[Step]] = {
    1: [
        f"""CREATE TABLE {REMEMBERED} (
            workspace  text NOT NULL,
            key        text NOT NULL,
            allowed    boolean NOT NULL,
            choice     text,
            source     text NOT NULL,
            prompt     text NOT NULL,
            options    text NOT NULL,
            created_at double precision NOT NULL,
            expires_at double precision,
            PRIMARY KEY (workspace, key)
        )""",
        f"""CREATE TABLE {AUDIT} (
            id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            at         double precision NOT NULL,
            event      text NOT NULL,
            source     text NOT NULL,
            prompt     text NOT NULL,
            options    text NOT NULL,
            details    text NOT NULL,
            key        text NOT NULL,
            choice     text,
            allowed    boolean NOT NULL,
            via        text NOT NULL,
            scope      text NOT NULL,
            reason     text,
            workspace  text NOT NULL DEFAULT ''
        )""",
        f"""CREATE TABLE {PENDING} (
            id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            created_at      double precision NOT NULL,
            deadline        double precision,
            session_id      text NOT NULL,
            host            text NOT NULL,
            workspace       text NOT NULL,
            event           text NOT NULL,
            source          text NOT NULL,
            prompt          text NOT NULL,
            options         text NOT NULL,
            details         text NOT NULL,
            default_verdict text NOT NULL,
            reason          text,
            key             text NOT NULL,
            remember_scope  text NOT NULL,
            status          text NOT NULL,
            choice          text,
            answered_by     text,
            answered_at     double precision,
            outcome         text
        )""",
        f"CREATE INDEX {PENDING}_waiting ON {PENDING} (status, id)",
    ],
    2: [
        f"""CREATE TABLE {APPROVERS} (
            id      text PRIMARY KEY,
            name    text NOT NULL,
            kind    text NOT NULL,
            seen_at double precision NOT NULL
        )""",
    ],
    3: [
        *(
            f"ALTER TABLE {PENDING} ADD COLUMN IF NOT EXISTS {column} "
            + ("bigint" if kind == "INTEGER" else "text")
            for column, kind in OWNER_COLUMNS
        ),
        _scrub_keys,
    ],
}


async def migrate(conn: Conn) -> int:
    """Bring the database to `VERSION`; returns the version found before. Raises
    `ValueError` when a newer amplifier-hooks has migrated it further."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_ID,))
        await conn.execute("CREATE TABLE IF NOT EXISTS amplifier_hooks_schema (version integer)")
        cursor = await conn.execute("SELECT max(version) FROM amplifier_hooks_schema")
        row = await cursor.fetchone()
        found = int(row[0]) if row and row[0] is not None else 0
        if found > VERSION:
            raise ValueError(
                f"schema version {found} is newer than this amplifier-hooks knows ({VERSION})"
            )
        for version in range(found + 1, VERSION + 1):
            for step in _MIGRATIONS[version]:
                if isinstance(step, str):
                    await conn.execute(step.encode())
                else:
                    await step(conn)
            await conn.execute("INSERT INTO amplifier_hooks_schema VALUES (%s)", (version,))
    return found
