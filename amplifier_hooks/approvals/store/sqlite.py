"""`ApprovalStore`: remembered decisions, the audit trail and the queue, in one SQLite file.

Every write is its own committed transaction in a WAL-mode database with
``synchronous=FULL``: once a write returns, the row survives the process being killed.
Any SQLite failure surfaces as one `ApprovalStoreError` whose message names the file
(``transient`` when another process holds the lock), so the gate can fail closed or retry.

The methods here are synchronous and thread-safe; the gate reaches them through
`SQLiteBackend`, which runs them off the event loop.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from amplifier_hooks.approvals.models import ApprovalDecision, ApprovalRequest
from amplifier_hooks.approvals.store import rows
from amplifier_hooks.approvals.store.location import StoreLocationError, check_location
from amplifier_hooks.approvals.store.presence import (
    ApproverKind,
    ApproverSeen,
    beat_sql,
    leave_sql,
    parse_approvers,
    seen_sql,
)
from amplifier_hooks.approvals.store.records import (
    GLOBAL,
    MEMORY,
    AnswerResult,
    ApprovalStoreError,
    AuditEntry,
    PendingRequest,
    RememberedDecision,
    default_store_path,
)
from amplifier_hooks.approvals.store.sqlite_schema import migrate


class ApprovalStore:
    """SQLite-backed memory of "always" answers, an audit row per decision, and the
    queue of requests waiting for an approver on this machine.

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
        # The state directory is ours to create; a folder the caller names is theirs
        # (`check_location` refuses a missing one before it gets here).
        if path is None:
            path = default_store_path()
        self._own_folder = path != MEMORY and Path(path) == default_store_path()
        self.path = path if path == MEMORY else Path(path).expanduser()
        self.busy_timeout = busy_timeout
        self.clock = clock
        """Wall-clock seconds (``time.time``), replaceable so expiry can be tested."""
        self._conn: sqlite3.Connection | None = None
        self._closed = False
        self._lock = threading.RLock()

    def __repr__(self) -> str:
        return f"ApprovalStore({str(self.path)!r})"

    # -- connection --------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        if self._closed:
            raise ApprovalStoreError(f"approval store {self.path} is closed")
        if self._conn is not None:
            return self._conn
        if isinstance(self.path, Path) and not self._own_folder:
            try:
                check_location(self.path)
            except StoreLocationError as exc:
                raise ApprovalStoreError(
                    f"approval store {self.path}: cannot open: {exc.problem}"
                ) from None
        try:
            if isinstance(self.path, Path) and self._own_folder:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self.path,
                timeout=self.busy_timeout,
                isolation_level=None,
                check_same_thread=False,  # calls come from worker threads, under self._lock
            )
        except (OSError, sqlite3.Error) as exc:
            raise self._error("cannot open", exc) from exc
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            migrate(conn)
        except (sqlite3.Error, ValueError) as exc:
            conn.close()
            raise self._error("cannot initialise", exc) from exc
        self._conn = conn
        return conn

    def _error(self, what: str, exc: BaseException) -> ApprovalStoreError:
        hint = ""
        text = str(exc).lower()
        transient = False
        if "not a database" in text or "malformed" in text:
            hint = " (the file is corrupt: move it aside to start a fresh one)"
        elif "locked" in text or "busy" in text:
            hint = " (another process holds a lock on it)"
            transient = True
        return ApprovalStoreError(
            f"approval store {self.path}: {what}: {exc}{hint}", transient=transient
        )

    @contextmanager
    def _write(self, what: str) -> Iterator[sqlite3.Connection]:
        """One committed transaction; rolled back whole if anything in it fails."""
        with self._lock:
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
        with self._lock:
            conn = self._connect()
            try:
                return conn.execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                raise self._error(what, exc) from exc

    def check(self) -> None:
        """Open the database and run SQLite's integrity check; raise if it is unusable."""
        found = self._read("integrity check failed", "PRAGMA quick_check")
        if found != [("ok",)]:
            raise ApprovalStoreError(f"approval store {self.path}: integrity check failed: {found}")

    def close(self) -> None:
        """Close the connection; later calls raise `ApprovalStoreError`."""
        with self._lock:
            self._closed = True
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    # -- remembered decisions ------------------------------------------------------------

    def lookup(
        self, key: str, workspace: str = GLOBAL, now: float | None = None
    ) -> RememberedDecision | None:
        """The unexpired remembered decision for ``key`` that applies in ``workspace``
        (one for that very workspace wins over one for every workspace)."""
        moment = self.clock() if now is None else now
        found = self._read(
            "cannot read remembered decisions",
            f"SELECT {rows.REMEMBERED_COLUMNS} FROM remembered WHERE key = ? "
            "AND workspace IN (?, ?) AND (expires_at IS NULL OR expires_at > ?) "
            "ORDER BY workspace = ? LIMIT 1",
            (key, workspace, GLOBAL, moment, GLOBAL),
        )
        return rows.remembered_from_row(found[0]) if found else None

    def remember(
        self,
        request: ApprovalRequest,
        decision: ApprovalDecision,
        *,
        ttl: float | None = None,
    ) -> None:
        """Store ``decision`` as the answer to ``request.key`` (in its remember scope) and
        audit it, in one transaction: a remembered answer never exists without its audit."""
        now = self.clock()
        with self._write("cannot remember decision") as conn:
            conn.execute(
                f"INSERT OR REPLACE INTO remembered ({rows.REMEMBERED_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows.remembered_values(request, decision, now, ttl),
            )
            self._insert_audit(conn, rows.audit_values(request, decision, now))

    def list_remembered(self, *, include_expired: bool = False) -> list[RememberedDecision]:
        """Every remembered decision, oldest first."""
        where = "" if include_expired else "WHERE expires_at IS NULL OR expires_at > ?"
        args: tuple[object, ...] = () if include_expired else (self.clock(),)
        found = self._read(
            "cannot list remembered decisions",
            f"SELECT {rows.REMEMBERED_COLUMNS} FROM remembered {where} "
            "ORDER BY created_at, key, workspace",
            args,
        )
        return rows.parse_rows(
            found, rows.remembered_from_row, "remembered decision", str(self.path)
        )

    def forget(self, key: str, workspace: str | None = None) -> int:
        """Drop the decisions remembered under ``key`` (in ``workspace``, or in all);
        returns how many were dropped."""
        with self._write("cannot forget decision") as conn:
            if workspace is None:
                return conn.execute("DELETE FROM remembered WHERE key = ?", (key,)).rowcount
            return conn.execute(
                "DELETE FROM remembered WHERE key = ? AND workspace = ?", (key, workspace)
            ).rowcount

    def forget_all(self) -> int:
        """Drop every remembered decision (the audit trail is kept); returns the count."""
        with self._write("cannot forget decisions") as conn:
            return conn.execute("DELETE FROM remembered").rowcount

    # -- audit -----------------------------------------------------------------------------

    def audit(self, request: ApprovalRequest, decision: ApprovalDecision) -> None:
        """Append one committed audit row for ``decision``."""
        with self._write("cannot write audit row") as conn:
            self._insert_audit(conn, rows.audit_values(request, decision, self.clock()))

    @staticmethod
    def _insert_audit(conn: sqlite3.Connection, values: tuple[object, ...]) -> None:
        marks = ", ".join("?" * len(values))
        conn.execute(f"INSERT INTO audit ({rows.AUDIT_INSERT}) VALUES ({marks})", values)

    def audit_log(self, limit: int | None = 100) -> list[AuditEntry]:
        """The most recent audit rows (up to ``limit``; None for all), oldest first."""
        found = self._read(
            "cannot read audit trail",
            f"SELECT {rows.AUDIT_COLUMNS} FROM audit ORDER BY id DESC LIMIT ?",
            (-1 if limit is None else limit,),
        )
        return rows.parse_rows(found[::-1], rows.audit_from_row, "audit row", str(self.path))

    # -- the queue -------------------------------------------------------------------------

    def enqueue(
        self, request: ApprovalRequest, *, session_id: str, host: str, deadline: float | None
    ) -> int:
        """Put ``request`` on the queue for an approver; its id."""
        values = rows.pending_values(request, session_id, host, deadline, self.clock())
        marks = ", ".join("?" * len(values))
        with self._write("cannot queue request") as conn:
            cursor = conn.execute(
                f"INSERT INTO pending ({rows.PENDING_INSERT}) VALUES ({marks})", values
            )
            return int(cursor.lastrowid or 0)

    def pending(self, ident: int) -> PendingRequest | None:
        """Queued request ``ident`` as it stands (None: missing or unreadable)."""
        found = self._read(
            "cannot read queued request",
            f"SELECT {rows.PENDING_COLUMNS} FROM pending WHERE id = ?",
            (ident,),
        )
        parsed = rows.parse_rows(found, rows.pending_from_row, "queued request", str(self.path))
        return parsed[0] if parsed else None

    def list_pending(self, *, include_done: bool = False, limit: int = 500) -> list[PendingRequest]:
        """Queued requests, newest first (only those waiting unless ``include_done``)."""
        where = "" if include_done else "WHERE status = 'pending'"
        found = self._read(
            "cannot list queued requests",
            f"SELECT {rows.PENDING_COLUMNS} FROM pending {where} ORDER BY id DESC LIMIT ?",
            (limit,),
        )
        return rows.parse_rows(found, rows.pending_from_row, "queued request", str(self.path))

    def answer(self, ident: int, choice: str, answered_by: str) -> AnswerResult:
        """Answer request ``ident``: exactly one answer wins; an answer after the agent
        stopped waiting is audited as late and not applied."""
        now = self.clock()
        with self._write("cannot answer queued request") as conn:
            won = conn.execute(
                "UPDATE pending SET status = 'answered', choice = ?, answered_by = ?, "
                "answered_at = ? WHERE id = ? AND status = 'pending' "
                "AND (deadline IS NULL OR deadline > ?)",
                (choice, answered_by, now, ident, now),
            ).rowcount
            if not won:  # past its deadline: the agent has stopped waiting (or is gone)
                conn.execute(
                    "UPDATE pending SET status = 'expired' WHERE id = ? AND status = 'pending'",
                    (ident,),
                )
            found = conn.execute(
                f"SELECT {rows.PENDING_COLUMNS} FROM pending WHERE id = ?", (ident,)
            ).fetchall()
            row = rows.pending_from_row(found[0]) if found else None
            if not won and row is not None and row.status == "expired":
                self._insert_audit(conn, rows.late_audit_values(row, choice, answered_by, now))
        return AnswerResult(won=bool(won), request=row)

    def expire(self, ident: int) -> PendingRequest | None:
        """Mark request ``ident`` expired unless an answer won first; the row afterwards."""
        with self._write("cannot expire queued request") as conn:
            conn.execute(
                "UPDATE pending SET status = 'expired' WHERE id = ? AND status = 'pending'",
                (ident,),
            )
        return self.pending(ident)

    def settle(self, ident: int, outcome: str) -> None:
        """Record what the agent did with request ``ident``."""
        with self._write("cannot settle queued request") as conn:
            conn.execute("UPDATE pending SET outcome = ? WHERE id = ?", (outcome, ident))

    # -- who watches the queue ---------------------------------------------------------------

    def beat(self, approver_id: str, name: str, kind: ApproverKind) -> None:
        """Record approver console ``approver_id`` as running now."""
        with self._write("cannot record the approver") as conn:
            conn.execute(beat_sql("approvers", "?"), (approver_id, name, kind, self.clock()))

    def leave(self, approver_id: str) -> None:
        """Remove the heartbeat of a console that stops."""
        with self._write("cannot remove the approver") as conn:
            conn.execute(leave_sql("approvers", "?"), (approver_id,))

    def approvers(self, within: float) -> list[ApproverSeen]:
        """The consoles seen in the last ``within`` seconds, most recent first."""
        since = self.clock() - within
        found = self._read("cannot read approvers", seen_sql("approvers", "?"), (since,))
        return parse_approvers(found, str(self.path))

    def prune_audit(self, older_than: float, now: float | None = None) -> int:
        """Delete audit rows older than ``older_than`` seconds; how many."""
        cutoff = (self.clock() if now is None else now) - older_than
        with self._write("cannot prune the audit trail") as conn:
            return conn.execute("DELETE FROM audit WHERE at < ?", (cutoff,)).rowcount

    def prune_queue(self, older_than: float, now: float | None = None) -> int:
        """Delete queued requests over for more than ``older_than`` seconds (never one
        still waiting: see `ApprovalBackend.prune_queue`); how many were deleted."""
        cutoff = (self.clock() if now is None else now) - older_than
        with self._write("cannot prune queued requests") as conn:
            return conn.execute(
                "DELETE FROM pending WHERE (status <> 'pending' OR deadline IS NOT NULL) "
                "AND max(created_at, coalesce(deadline, created_at), "
                "coalesce(answered_at, created_at)) < ?",
                (cutoff,),
            ).rowcount
