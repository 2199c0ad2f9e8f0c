"""The SQLite schema and its migrations, versioned by ``PRAGMA user_version``.

Version 1 (no user_version) had ``remembered`` keyed by key alone and an audit without a
workspace; version 2 scopes remembered decisions by workspace (old rows become
"every workspace", which is what they meant) and adds the queue of pending requests;
version 3 adds ``approvers``, the heartbeats of running approver consoles; version 4
scrubs well-known secrets out of the keys older versions stored raw (a remembered
decision keeps its answer under its scrubbed key); version 5 records who waits for each
queued request (its owner: machine, process id, start time) and why the store closed one
(``closed_reason``); older rows have no owner and are left as they are.
Migrations run inside one ``BEGIN IMMEDIATE`` transaction, so processes opening the same
new file at once cannot both migrate it.
"""

from __future__ import annotations

import contextlib
import sqlite3

from amplifier_hooks.approvals.secrets import scrub_key

VERSION = 5

_REMEMBERED = """
CREATE TABLE remembered (
    workspace  TEXT NOT NULL,
    key        TEXT NOT NULL,
    allowed    INTEGER NOT NULL,
    choice     TEXT,
    source     TEXT NOT NULL,
    prompt     TEXT NOT NULL,
    options    TEXT NOT NULL,
    created_at REAL NOT NULL,
    expires_at REAL,
    PRIMARY KEY (workspace, key)
)"""

_AUDIT = """
CREATE TABLE audit (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    at         REAL NOT NULL,
    event      TEXT NOT NULL,
    source     TEXT NOT NULL,
    prompt     TEXT NOT NULL,
    options    TEXT NOT NULL,
    details    TEXT NOT NULL,
    key        TEXT NOT NULL,
    choice     TEXT,
    allowed    INTEGER NOT NULL,
    via        TEXT NOT NULL,
    scope      TEXT NOT NULL,
    reason     TEXT,
    workspace  TEXT NOT NULL DEFAULT ''
)"""

_PENDING = """
CREATE TABLE pending (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at      REAL NOT NULL,
    deadline        REAL,
    session_id      TEXT NOT NULL,
    host            TEXT NOT NULL,
    workspace       TEXT NOT NULL,
    event           TEXT NOT NULL,
    source          TEXT NOT NULL,
    prompt          TEXT NOT NULL,
    options         TEXT NOT NULL,
    details         TEXT NOT NULL,
    default_verdict TEXT NOT NULL,
    reason          TEXT,
    key             TEXT NOT NULL,
    remember_scope  TEXT NOT NULL,
    status          TEXT NOT NULL,
    choice          TEXT,
    answered_by     TEXT,
    answered_at     REAL,
    outcome         TEXT,
    owner_machine   TEXT,
    owner_pid       INTEGER,
    owner_started   TEXT,
    closed_reason   TEXT
)"""

OWNER_COLUMNS = (
    ("owner_machine", "TEXT"),
    ("owner_pid", "INTEGER"),
    ("owner_started", "TEXT"),
    ("closed_reason", "TEXT"),
)
"""The columns version 5 adds to a queue made before it (with both databases' types)."""

_APPROVERS = """
CREATE TABLE approvers (
    id      TEXT PRIMARY KEY,
    name    TEXT NOT NULL,
    kind    TEXT NOT NULL,
    seen_at REAL NOT NULL
)"""


def _tables(conn: sqlite3.Connection) -> set[str]:
    found = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {str(name) for (name,) in found}


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {str(row[1]) for row in conn.execute(f"PRAGMA table_info({table})").fetchall()}


def _upgrade(conn: sqlite3.Connection) -> None:
    tables = _tables(conn)
    if "remembered" in tables and "workspace" not in _columns(conn, "remembered"):
        conn.execute("ALTER TABLE remembered RENAME TO remembered_v1")
        conn.execute(_REMEMBERED)
        conn.execute(
            "INSERT INTO remembered SELECT '*', key, allowed, choice, source, prompt, options, "
            "created_at, expires_at FROM remembered_v1"
        )
        conn.execute("DROP TABLE remembered_v1")
    elif "remembered" not in tables:
        conn.execute(_REMEMBERED)
    if "audit" not in tables:
        conn.execute(_AUDIT)
    elif "workspace" not in _columns(conn, "audit"):
        conn.execute("ALTER TABLE audit ADD COLUMN workspace TEXT NOT NULL DEFAULT ''")
    if "pending" not in tables:
        conn.execute(_PENDING)
        conn.execute("CREATE INDEX pending_waiting ON pending (status, id)")
    else:
        present = _columns(conn, "pending")
        for column, kind in OWNER_COLUMNS:
            if column not in present:
                conn.execute(f"ALTER TABLE pending ADD COLUMN {column} {kind}")
    if "approvers" not in tables:
        conn.execute(_APPROVERS)
    _scrub_keys(conn)


def _scrub_keys(conn: sqlite3.Connection) -> None:
    """Keys with a secret in them, scrubbed where they are kept (two that become one
    keep the newer remembered answer)."""
    conn.create_function("ah_scrub_key", 1, scrub_key, deterministic=True)
    changed = "key <> ah_scrub_key(key)"
    conn.execute(f"UPDATE OR REPLACE remembered SET key = ah_scrub_key(key) WHERE {changed}")
    for table in ("audit", "pending"):
        conn.execute(f"UPDATE {table} SET key = ah_scrub_key(key) WHERE {changed}")


def migrate(conn: sqlite3.Connection) -> None:
    """Bring the database to `VERSION`; `ValueError` if a newer version wrote it."""
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    if version == VERSION:
        return
    if version > VERSION:
        raise ValueError(
            f"schema version {version} is newer than this amplifier-hooks knows ({VERSION})"
        )
    conn.execute("BEGIN IMMEDIATE")
    try:
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        if version < VERSION:
            _upgrade(conn)
            conn.execute(f"PRAGMA user_version = {VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise
