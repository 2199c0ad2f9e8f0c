"""Remembered approval decisions and the audit trail, in SQLite.

Every write is its own committed transaction in a WAL-mode database with
``synchronous=FULL``: once `remember` or `audit` returns, the row survives the process
being killed. Any SQLite failure (a corrupt file, a lock held too long) surfaces as one
`ApprovalStoreError` whose message names the file, so the gate can fail closed and a
person can see what to fix.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from amplifier_hooks.approvals.models import ApprovalDecision, ApprovalRequest

MEMORY = ":memory:"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS remembered (
    key        TEXT PRIMARY KEY,
    allowed    INTEGER NOT NULL,
    choice     TEXT,
    source     TEXT NOT NULL,
    prompt     TEXT NOT NULL,
    options    TEXT NOT NULL,
    created_at REAL NOT NULL,
    expires_at REAL
);
CREATE TABLE IF NOT EXISTS audit (
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
    reason     TEXT
);
"""


class ApprovalStoreError(RuntimeError):
    """The approval database cannot be used (corrupt, locked, unwritable, closed)."""


class RememberedDecision(BaseModel):
    """A stored answer that settles the same question without asking again."""

    model_config = ConfigDict(frozen=True)

    key: str
    allowed: bool
    choice: str | None
    source: str
    prompt: str
    options: list[str]
    created_at: datetime
    expires_at: datetime | None

    def expired(self, now: float | None = None) -> bool:
        """True once the expiry time (if any) has passed."""
        moment = time.time() if now is None else now
        return self.expires_at is not None and self.expires_at.timestamp() <= moment


class AuditEntry(BaseModel):
    """One decision as written to the audit trail."""

    model_config = ConfigDict(frozen=True)

    id: int
    at: datetime
    event: str
    source: str
    prompt: str
    options: list[str]
    details: dict[str, str]
    key: str
    choice: str | None
    allowed: bool
    via: str
    scope: str
    reason: str | None


def default_store_path() -> Path:
    """``$XDG_STATE_HOME/amplifier-hooks/approvals.db`` (``~/.local/state`` if unset)."""
    state = os.environ.get("XDG_STATE_HOME") or ""
    base = Path(state) if os.path.isabs(state) else Path.home() / ".local" / "state"
    return base / "amplifier-hooks" / "approvals.db"


def _when(epoch: float | None) -> datetime | None:
    return None if epoch is None else datetime.fromtimestamp(epoch, UTC)


class ApprovalStore:
    """SQLite-backed memory of "always" answers plus an audit row per decision.

    ``path=None`` uses `default_store_path`; ``":memory:"`` keeps everything in this
    process (tests). The connection is opened on first use and re-tried after a failure,
    so a database that was locked or missing for a moment does not stay broken.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        busy_timeout: float = 1.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if path is None:
            path = default_store_path()
        self.path = path if path == MEMORY else Path(path).expanduser()
        self.busy_timeout = busy_timeout
        self.clock = clock
        """Wall-clock seconds (``time.time``), replaceable so expiry can be tested."""
        self._conn: sqlite3.Connection | None = None
        self._closed = False

    def __repr__(self) -> str:
        return f"ApprovalStore({str(self.path)!r})"

    # -- connection --------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        if self._closed:
            raise ApprovalStoreError(f"approval store {self.path} is closed")
        if self._conn is not None:
            return self._conn
        try:
            if isinstance(self.path, Path):
                self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise self._error("cannot open", exc) from exc
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            conn.close()
            raise self._error("cannot initialise", exc) from exc
        self._conn = conn
        return conn

    def _error(self, what: str, exc: BaseException) -> ApprovalStoreError:
        hint = ""
        text = str(exc).lower()
        if "not a database" in text or "malformed" in text:
            hint = " (the file is corrupt: move it aside to start a fresh one)"
        elif "locked" in text or "busy" in text:
            hint = " (another process holds a lock on it)"
        return ApprovalStoreError(f"approval store {self.path}: {what}: {exc}{hint}")

    @contextmanager
    def _write(self, what: str) -> Iterator[sqlite3.Connection]:
        """One committed transaction; rolled back whole if anything in it fails."""
        conn = self._connect()
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise self._error(what, exc) from exc
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException as exc:
            with contextlib.suppress(sqlite3.Error):  # the first error is the one to report
                conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise self._error(what, exc) from exc
            raise

    def _read(self, what: str, sql: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        conn = self._connect()
        try:
            return conn.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise self._error(what, exc) from exc

    def check(self) -> None:
        """Open the database and run SQLite's integrity check; raise if it is unusable."""
        rows = self._read("integrity check failed", "PRAGMA quick_check")
        if rows != [("ok",)]:
            raise ApprovalStoreError(f"approval store {self.path}: integrity check failed: {rows}")

    def close(self) -> None:
        """Close the connection; later calls raise `ApprovalStoreError`."""
        self._closed = True
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    # -- remembered decisions ------------------------------------------------------------

    def lookup(self, key: str, now: float | None = None) -> RememberedDecision | None:
        """The unexpired remembered decision for ``key``, if any."""
        moment = self.clock() if now is None else now
        rows = self._read(
            "cannot read remembered decisions",
            "SELECT key, allowed, choice, source, prompt, options, created_at, expires_at "
            "FROM remembered WHERE key = ? AND (expires_at IS NULL OR expires_at > ?)",
            (key, moment),
        )
        return self._remembered(rows[0]) if rows else None

    def remember(
        self,
        request: ApprovalRequest,
        decision: ApprovalDecision,
        *,
        ttl: float | None = None,
    ) -> None:
        """Store ``decision`` as the answer to ``request.key`` and audit it, in one
        transaction: a remembered answer never exists without its audit row."""
        now = self.clock()
        expires = None if ttl is None else now + ttl
        with self._write("cannot remember decision") as conn:
            conn.execute(
                "INSERT OR REPLACE INTO remembered VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    request.key,
                    int(decision.allowed),
                    decision.choice,
                    request.source,
                    request.prompt,
                    json.dumps(request.options),
                    now,
                    expires,
                ),
            )
            self._insert_audit(conn, request, decision, now)

    def list_remembered(self, *, include_expired: bool = False) -> list[RememberedDecision]:
        """Every remembered decision, oldest first."""
        where = "" if include_expired else "WHERE expires_at IS NULL OR expires_at > ?"
        args: tuple[object, ...] = () if include_expired else (self.clock(),)
        rows = self._read(
            "cannot list remembered decisions",
            "SELECT key, allowed, choice, source, prompt, options, created_at, expires_at "
            f"FROM remembered {where} ORDER BY created_at, key",
            args,
        )
        return [self._remembered(row) for row in rows]

    def forget(self, key: str) -> int:
        """Drop the remembered decision for ``key``; returns how many were dropped (0/1)."""
        with self._write("cannot forget decision") as conn:
            return conn.execute("DELETE FROM remembered WHERE key = ?", (key,)).rowcount

    def forget_all(self) -> int:
        """Drop every remembered decision (the audit trail is kept); returns the count."""
        with self._write("cannot forget decisions") as conn:
            return conn.execute("DELETE FROM remembered").rowcount

    @staticmethod
    def _remembered(row: tuple[object, ...]) -> RememberedDecision:
        key, allowed, choice, source, prompt, options, created, expires = row
        assert isinstance(created, float | int) and isinstance(options, str)
        return RememberedDecision(
            key=str(key),
            allowed=bool(allowed),
            choice=None if choice is None else str(choice),
            source=str(source),
            prompt=str(prompt),
            options=json.loads(options),
            created_at=datetime.fromtimestamp(created, UTC),
            expires_at=_when(expires if isinstance(expires, float | int) else None),
        )

    # -- audit -----------------------------------------------------------------------------

    def audit(self, request: ApprovalRequest, decision: ApprovalDecision) -> None:
        """Append one committed audit row for ``decision``."""
        with self._write("cannot write audit row") as conn:
            self._insert_audit(conn, request, decision, self.clock())

    @staticmethod
    def _insert_audit(
        conn: sqlite3.Connection, request: ApprovalRequest, decision: ApprovalDecision, now: float
    ) -> None:
        conn.execute(
            "INSERT INTO audit (at, event, source, prompt, options, details, key, choice, "
            "allowed, via, scope, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                now,
                request.event,
                request.source,
                request.prompt,
                json.dumps(request.options),
                json.dumps(request.details),
                request.key,
                decision.choice,
                int(decision.allowed),
                decision.via,
                decision.scope,
                decision.reason,
            ),
        )

    def audit_log(self, limit: int | None = 100) -> list[AuditEntry]:
        """The most recent audit rows (up to ``limit``; None for all), oldest first."""
        rows = self._read(
            "cannot read audit trail",
            "SELECT id, at, event, source, prompt, options, details, key, choice, allowed, "
            "via, scope, reason FROM audit ORDER BY id DESC LIMIT ?",
            (-1 if limit is None else limit,),
        )
        entries = []
        for row in reversed(rows):
            ident, at, event, source, prompt, options, details, key, choice, allowed = row[:10]
            via, scope, reason = row[10:]
            assert isinstance(at, float | int) and isinstance(options, str)
            assert isinstance(details, str) and isinstance(ident, int)
            entries.append(
                AuditEntry(
                    id=ident,
                    at=datetime.fromtimestamp(at, UTC),
                    event=str(event),
                    source=str(source),
                    prompt=str(prompt),
                    options=json.loads(options),
                    details=json.loads(details),
                    key=str(key),
                    choice=None if choice is None else str(choice),
                    allowed=bool(allowed),
                    via=str(via),
                    scope=str(scope),
                    reason=None if reason is None else str(reason),
                )
            )
        return entries
