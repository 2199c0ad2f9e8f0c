"""`ApprovalStore`: remembered decisions, the audit trail and the queue, in one SQLite file.

Every write is its own committed transaction in a WAL-mode database with
``synchronous=FULL``: once a write returns, the row survives the process being killed.
Any SQLite failure surfaces as one `ApprovalStoreError` whose message names the file
(``transient`` when another process holds the lock), so the gate can fail closed or retry.

SQLite calls block (a lock held by another process makes them wait up to the busy
timeout), so each transaction runs in a worker thread and the event loop keeps going. A
lock that outlasts the busy timeout is retried with backoff for the caller's budget; only
a store that stays unusable fails the question closed. Waiters on the queue poll: SQLite
has no notifications, and the file is only shared by processes on one machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from amplifier_hooks.approvals.store.base import ApprovalBackend
from amplifier_hooks.approvals.store.location import StoreLocationError, check_location
from amplifier_hooks.approvals.store.operations import (
    Execute,
    Fetch,
    Insert,
    Operation,
    Step,
    Tables,
)
from amplifier_hooks.approvals.store.records import (
    MEMORY,
    ApprovalStoreError,
    default_store_path,
)
from amplifier_hooks.approvals.store.sqlite_schema import migrate
from amplifier_hooks.private import FILE_MODE, private_dir, tighten_file

T = TypeVar("T")

POLL_INTERVAL = 0.05
"""Seconds between two looks at a queued request while waiting for its answer."""

TABLES = Tables(remembered="remembered", audit="audit", pending="pending", approvers="approvers")


class ApprovalStore(ApprovalBackend):
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
        poll_interval: float = POLL_INTERVAL,
    ) -> None:
        # The state directory is ours to create; a folder the caller names is theirs
        # (`check_location` refuses a missing one before it gets here).
        if path is None:
            path = default_store_path()
        self._own_folder = path != MEMORY and Path(path) == default_store_path()
        self.path = path if path == MEMORY else Path(path).expanduser()
        self.name = str(self.path)
        self.tables = TABLES
        self.busy_timeout = busy_timeout
        self.clock = clock
        self.poll_interval = poll_interval
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
            if isinstance(self.path, Path):
                _private_database(self.path, own_folder=self._own_folder)
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

    async def _transact(self, what: str, operation: Operation[T], budget: float | None) -> T:
        return await asyncio.to_thread(self.run, what, operation)

    def run(self, what: str, operation: Operation[T]) -> T:
        """Run ``operation`` here, blocking: reads as they come, and from its first write
        on one ``BEGIN IMMEDIATE`` transaction, committed when it returns and rolled back
        whole if anything in it fails. Thread-safe."""
        with self._lock:
            conn = self._connect()
            writing = False
            try:
                reply: object = None
                while True:
                    try:
                        step = operation.send(reply)
                    except StopIteration as done:
                        if writing:
                            conn.execute("COMMIT")
                        return done.value  # type: ignore[no-any-return]
                    if not writing and isinstance(step, Execute | Insert):
                        conn.execute("BEGIN IMMEDIATE")
                        writing = True
                    reply = _step(conn, step)
            except BaseException as exc:
                if writing:
                    with contextlib.suppress(sqlite3.Error):  # the first error is the one to report
                        conn.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise self._error(what, exc) from exc
                raise

    async def wait_for_change(self, ident: int | None, timeout: float) -> None:
        await asyncio.sleep(max(0.0, min(timeout, self.poll_interval)))

    def check(self) -> None:
        """Open the database and run SQLite's integrity check; raise if it is unusable."""
        with self._lock:
            try:
                found = self._connect().execute("PRAGMA quick_check").fetchall()
            except sqlite3.Error as exc:
                raise self._error("integrity check failed", exc) from exc
        if found != [("ok",)]:
            raise ApprovalStoreError(f"approval store {self.path}: integrity check failed: {found}")

    async def aclose(self) -> None:
        await self._stop_pruning()
        await asyncio.to_thread(self.close)

    def close(self) -> None:
        """Close the connection; later calls raise `ApprovalStoreError`."""
        if self._pruning is not None:
            self._pruning.cancel()
        with self._lock:
            self._closed = True
            if self._conn is not None:
                self._conn.close()
                self._conn = None


_CREATING = threading.Lock()
"""Held while this process makes a database file and closes the descriptor it made it with."""


def _private_database(path: Path, *, own_folder: bool) -> None:
    """The database file made 0600 before SQLite opens it: SQLite gives its ``-wal`` and
    ``-shm`` the database's mode, so they are private from their first byte too. The state
    folder is made 0700 when it is ours.

    A file that exists is never opened here, only tightened by name. SQLite's locks are
    POSIX locks, which a process loses on closing *any* descriptor of the file: opening
    a second store on a file another store of this process has open would take away the
    first one's lock, so that the next process to close the file would take itself for
    its last user and delete the write-ahead log the first one still reads (that store
    would then never see another process's write). A new file is made under `_CREATING`,
    so no other store of this process can have it open before its descriptor is closed."""
    if own_folder:
        private_dir(path.parent)
    with _CREATING:
        try:
            os.close(os.open(path, os.O_RDONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
        except FileExistsError:
            os.stat(path)  # a dangling link is refused as a file that cannot be opened
            tighten_file(path)
    for suffix in ("-wal", "-shm"):
        tighten_file(f"{path}{suffix}")


def _step(conn: sqlite3.Connection, step: Step) -> object:
    """What one statement of an operation returns (see `operations`)."""
    if isinstance(step, Fetch):
        return conn.execute(step.sql, step.args).fetchall()
    if isinstance(step, Execute):
        return conn.execute(step.sql, step.args).rowcount
    if isinstance(step, Insert):
        return int(conn.execute(step.sql, step.args).lastrowid or 0)
    return None  # Changed: waiters poll
