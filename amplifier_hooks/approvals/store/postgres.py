"""`PostgresBackend`: remembered decisions, the audit and the queue in a PostgreSQL
database that every agent and approver can reach (psycopg 3, async, with a pool).

Nothing connects until the first call; the schema is created or migrated then. The first
connection is made once, directly, within ``connect_timeout`` (3 s): if it fails, the
`ApprovalStoreError` names the store (the URL without its password) and the cause in one
line (`connect_failure`: refused, unreachable, authentication, no such database), and is
not retried — a wrong password or a missing database does not get better with retries.
Once connected, a server that goes away is transient (calls retry within their budget);
the pool checks each connection before use, so a restarted server is simply reconnected
to. Waiters on the queue are woken by ``LISTEN/NOTIFY`` (`QueueListener`).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from amplifier_hooks.approvals.models import ApprovalDecision, ApprovalRequest
from amplifier_hooks.approvals.store import rows
from amplifier_hooks.approvals.store.base import DEFAULT_BUDGET, ApprovalBackend, retrying
from amplifier_hooks.approvals.store.postgres_connect import (
    CONNECT_TIMEOUT,
    connect_failure,
    with_connect_timeout,
)
from amplifier_hooks.approvals.store.postgres_listen import QueueListener
from amplifier_hooks.approvals.store.postgres_schema import (
    APPROVERS,
    AUDIT,
    CHANNEL,
    PENDING,
    REMEMBERED,
    migrate,
)
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
    AnswerResult,
    ApprovalStoreError,
    AuditEntry,
    PendingRequest,
    RememberedDecision,
)

T = TypeVar("T")
Conn = psycopg.AsyncConnection[Any]


def redact(url: str) -> str:
    """``url`` without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[-1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def _marks(count: int) -> str:
    return ", ".join(["%s"] * count)


class PostgresBackend(ApprovalBackend):
    """The shared store. ``url`` is a libpq URL (``postgresql://user@host/db``); the
    pool keeps between ``min_size`` and ``max_size`` connections."""

    shared = True

    def __init__(
        self,
        url: str,
        *,
        min_size: int = 1,
        max_size: int = 4,
        connect_timeout: float = CONNECT_TIMEOUT,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.url = url
        self.name = redact(url)
        self.min_size = min_size
        self.max_size = max_size
        self.connect_timeout = connect_timeout
        self.conninfo = with_connect_timeout(url, connect_timeout)
        """What every connection (pool, listener, first contact) is opened with: ``url``
        with libpq's ``connect_timeout``."""
        self.clock = clock
        self.listener = QueueListener(self.conninfo, self.name)
        self._pool: AsyncConnectionPool[Conn] | None = None
        self._migrated = False
        self._closed = False

    def __repr__(self) -> str:
        return f"PostgresBackend({self.name!r})"

    # -- connections ---------------------------------------------------------------------

    def _error(self, what: str, exc: BaseException) -> ApprovalStoreError:
        transient = isinstance(exc, PoolTimeout | psycopg.OperationalError | psycopg.InterfaceError)
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if isinstance(exc, PoolTimeout):
            detail = "cannot connect to the database server (is it running and reachable?)"
        return ApprovalStoreError(
            f"approval store {self.name}: {what}: {detail}", transient=transient
        )

    async def _open_pool(self) -> AsyncConnectionPool[Conn]:
        if self._closed:
            raise ApprovalStoreError(f"approval store {self.name} is closed")
        if self._pool is None:
            await self._first_contact()
        if self._pool is None:
            self._pool = AsyncConnectionPool(
                self.conninfo,
                min_size=self.min_size,
                max_size=self.max_size,
                kwargs={"autocommit": True},
                check=AsyncConnectionPool.check_connection,
                open=False,
                name="amplifier-hooks-approvals",
            )
            await self._pool.open(wait=False)
        return self._pool

    async def _first_contact(self) -> None:
        """One direct connection before the pool exists, so that a server that cannot be
        used is one clear, final error rather than a pool retrying in the background."""
        try:
            conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        except (psycopg.Error, OSError) as exc:
            cause = connect_failure(exc, self.connect_timeout)
            raise ApprovalStoreError(f"approval store {self.name}: {cause}") from None
        await conn.close()

    async def _run(
        self, what: str, work: Callable[[Conn], Awaitable[T]], budget: float | None = None
    ) -> T:
        # One attempt may wait up to a second for a connection even on a short budget: a
        # fresh pool on a busy machine needs that long to hand out its first one.
        wait = min(self.connect_timeout, DEFAULT_BUDGET if budget is None else max(budget, 1.0))

        async def attempt() -> T:
            pool = await self._open_pool()
            try:
                async with pool.connection(timeout=wait) as conn:
                    if not self._migrated:
                        await migrate(conn)
                        self._migrated = True
                    async with conn.transaction():
                        return await work(conn)
            except (PoolTimeout, psycopg.Error) as exc:
                raise self._error(what, exc) from exc
            except ValueError as exc:  # a schema from a newer version
                raise ApprovalStoreError(f"approval store {self.name}: {exc}") from exc

        return await retrying(self.name, what, attempt, budget)

    @staticmethod
    async def _fetch(conn: Conn, sql: str, args: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        cursor = await conn.execute(sql, args)
        return await cursor.fetchall()

    # -- remembered decisions ----------------------------------------------------------

    async def lookup(
        self, key: str, workspace: str = GLOBAL, *, budget: float | None = None
    ) -> RememberedDecision | None:
        sql = (
            f"SELECT {rows.REMEMBERED_COLUMNS} FROM {REMEMBERED} WHERE key = %s "
            "AND workspace IN (%s, %s) AND (expires_at IS NULL OR expires_at > %s) "
            "ORDER BY workspace = %s LIMIT 1"
        )
        args = (key, workspace, GLOBAL, self.clock(), GLOBAL)
        found = await self._run("lookup", lambda c: self._fetch(c, sql, args), budget)
        parsed = rows.parse_rows(found, rows.remembered_from_row, "remembered decision", self.name)
        return parsed[0] if parsed else None

    async def remember(
        self,
        request: ApprovalRequest,
        decision: ApprovalDecision,
        *,
        ttl: float | None = None,
        budget: float | None = None,
    ) -> None:
        now = self.clock()
        values = rows.remembered_values(request, decision, now, ttl)
        audit = rows.audit_values(request, decision, now)
        update = ", ".join(f"{c} = EXCLUDED.{c}" for c in rows.REMEMBERED_COLUMNS.split(", ")[1:-1])

        async def work(conn: Conn) -> None:
            await conn.execute(
                f"INSERT INTO {REMEMBERED} ({rows.REMEMBERED_COLUMNS}) VALUES ({_marks(9)}) "
                f"ON CONFLICT (workspace, key) DO UPDATE SET {update}",
                values,
            )
            await self._insert_audit(conn, audit)

        await self._run("remember", work, budget)

    async def list_remembered(self, *, include_expired: bool = False) -> list[RememberedDecision]:
        where = "" if include_expired else "WHERE expires_at IS NULL OR expires_at > %s"
        args: tuple[object, ...] = () if include_expired else (self.clock(),)
        sql = (
            f"SELECT {rows.REMEMBERED_COLUMNS} FROM {REMEMBERED} {where} "
            "ORDER BY created_at, key, workspace"
        )
        found = await self._run("list remembered", lambda c: self._fetch(c, sql, args))
        return rows.parse_rows(found, rows.remembered_from_row, "remembered decision", self.name)

    async def forget(self, key: str, workspace: str | None = None) -> int:
        async def work(conn: Conn) -> int:
            if workspace is None:
                cursor = await conn.execute(f"DELETE FROM {REMEMBERED} WHERE key = %s", (key,))
            else:
                cursor = await conn.execute(
                    f"DELETE FROM {REMEMBERED} WHERE key = %s AND workspace = %s", (key, workspace)
                )
            return cursor.rowcount

        return await self._run("forget", work)

    async def forget_all(self) -> int:
        async def work(conn: Conn) -> int:
            return (await conn.execute(f"DELETE FROM {REMEMBERED}")).rowcount

        return await self._run("forget all", work)

    # -- audit ---------------------------------------------------------------------------

    @staticmethod
    async def _insert_audit(conn: Conn, values: tuple[object, ...]) -> None:
        await conn.execute(
            f"INSERT INTO {AUDIT} ({rows.AUDIT_INSERT}) VALUES ({_marks(len(values))})", values
        )

    async def audit(
        self, request: ApprovalRequest, decision: ApprovalDecision, *, budget: float | None = None
    ) -> None:
        values = rows.audit_values(request, decision, self.clock())
        await self._run("audit", lambda c: self._insert_audit(c, values), budget)
        self.prune_soon()

    async def audit_log(self, limit: int | None = 100) -> list[AuditEntry]:
        sql = f"SELECT {rows.AUDIT_COLUMNS} FROM {AUDIT} ORDER BY id DESC LIMIT %s"
        found = await self._run("audit log", lambda c: self._fetch(c, sql, (limit,)))
        return rows.parse_rows(found[::-1], rows.audit_from_row, "audit row", self.name)

    # -- the queue -----------------------------------------------------------------------

    @staticmethod
    async def _notify(conn: Conn, ident: int) -> None:
        # Delivered when the transaction commits, so a woken reader sees the new row.
        await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, str(ident)))

    async def _row(self, conn: Conn, ident: int) -> PendingRequest | None:
        sql = f"SELECT {rows.PENDING_COLUMNS} FROM {PENDING} WHERE id = %s"
        found = await self._fetch(conn, sql, (ident,))
        parsed = rows.parse_rows(found, rows.pending_from_row, "queued request", self.name)
        return parsed[0] if parsed else None

    async def enqueue(
        self,
        request: ApprovalRequest,
        *,
        session_id: str,
        host: str,
        deadline: float | None,
        budget: float | None = None,
    ) -> int:
        values = rows.pending_values(request, session_id, host, deadline, self.clock())
        self.listener.start()

        async def work(conn: Conn) -> int:
            cursor = await conn.execute(
                f"INSERT INTO {PENDING} ({rows.PENDING_INSERT}) VALUES ({_marks(len(values))}) "
                "RETURNING id",
                values,
            )
            row = await cursor.fetchone()
            assert row is not None
            await self._notify(conn, int(row[0]))
            return int(row[0])

        ident = await self._run("queue request", work, budget)
        self.listener.watch(ident)
        self.prune_soon()
        return ident

    async def pending(self, ident: int, *, budget: float | None = None) -> PendingRequest | None:
        return await self._run("read queued request", lambda c: self._row(c, ident), budget)

    async def list_pending(
        self, *, include_done: bool = False, limit: int = 500
    ) -> list[PendingRequest]:
        where = "" if include_done else "WHERE status = 'pending'"
        sql = f"SELECT {rows.PENDING_COLUMNS} FROM {PENDING} {where} ORDER BY id DESC LIMIT %s"
        found = await self._run("list queued requests", lambda c: self._fetch(c, sql, (limit,)))
        return rows.parse_rows(found, rows.pending_from_row, "queued request", self.name)

    async def answer(self, ident: int, choice: str, answered_by: str) -> AnswerResult:
        now = self.clock()

        async def work(conn: Conn) -> AnswerResult:
            cursor = await conn.execute(
                f"UPDATE {PENDING} SET status = 'answered', choice = %s, answered_by = %s, "
                "answered_at = %s WHERE id = %s AND status = 'pending' "
                "AND (deadline IS NULL OR deadline > %s)",
                (choice, answered_by, now, ident, now),
            )
            won = cursor.rowcount == 1
            if not won:  # past its deadline: the agent has stopped waiting (or is gone)
                await conn.execute(
                    f"UPDATE {PENDING} SET status = 'expired' WHERE id = %s AND status = 'pending'",
                    (ident,),
                )
            row = await self._row(conn, ident)
            if not won and row is not None and row.status == "expired":
                await self._insert_audit(
                    conn, rows.late_audit_values(row, choice, answered_by, now)
                )
            if row is not None:
                await self._notify(conn, ident)
            return AnswerResult(won=won, request=row)

        return await self._run("answer queued request", work)

    async def expire(self, ident: int, *, budget: float | None = None) -> PendingRequest | None:
        async def work(conn: Conn) -> PendingRequest | None:
            cursor = await conn.execute(
                f"UPDATE {PENDING} SET status = 'expired' WHERE id = %s AND status = 'pending'",
                (ident,),
            )
            if cursor.rowcount:
                await self._notify(conn, ident)
            return await self._row(conn, ident)

        return await self._run("expire queued request", work, budget)

    async def settle(self, ident: int, outcome: str, *, budget: float | None = None) -> None:
        async def work(conn: Conn) -> None:
            await conn.execute(f"UPDATE {PENDING} SET outcome = %s WHERE id = %s", (outcome, ident))
            await self._notify(conn, ident)

        try:
            await self._run("settle queued request", work, budget)
        finally:
            self.listener.unwatch(ident)

    async def wait_for_change(self, ident: int | None, timeout: float) -> None:
        if self._closed:  # the question cannot be waited on any more: it fails closed
            raise ApprovalStoreError(f"approval store {self.name} is closed")
        await self.listener.wait(ident, timeout)

    # -- who watches the queue ---------------------------------------------------------

    async def beat(
        self, approver_id: str, name: str, kind: ApproverKind, *, budget: float | None = None
    ) -> None:
        args = (approver_id, name, kind, self.clock())
        sql = beat_sql(APPROVERS, "%s")
        await self._run("record approver", lambda c: c.execute(sql, args), budget)

    async def leave(self, approver_id: str, *, budget: float | None = None) -> None:
        sql = leave_sql(APPROVERS, "%s")
        await self._run("remove approver", lambda c: c.execute(sql, (approver_id,)), budget)

    async def approvers(self, within: float, *, budget: float | None = None) -> list[ApproverSeen]:
        sql, since = seen_sql(APPROVERS, "%s"), self.clock() - within
        found = await self._run("read approvers", lambda c: self._fetch(c, sql, (since,)), budget)
        return parse_approvers(found, self.name)

    # -- pruning -------------------------------------------------------------------------

    def now(self) -> float:
        return self.clock()

    async def prune_queue(self, older_than: float, *, budget: float | None = None) -> int:
        cutoff = self.clock() - older_than

        async def work(conn: Conn) -> int:
            cursor = await conn.execute(
                f"DELETE FROM {PENDING} WHERE (status <> 'pending' OR deadline IS NOT NULL) "
                "AND GREATEST(created_at, deadline, answered_at) < %s",
                (cutoff,),
            )
            return cursor.rowcount

        return await self._run("prune queue", work, budget)

    async def prune_audit(self, older_than: float, *, budget: float | None = None) -> int:
        cutoff = self.clock() - older_than

        async def work(conn: Conn) -> int:
            cursor = await conn.execute(f"DELETE FROM {AUDIT} WHERE at < %s", (cutoff,))
            return cursor.rowcount

        return await self._run("prune audit", work, budget)

    # -- life cycle ----------------------------------------------------------------------

    async def aclose(self) -> None:
        self._closed = True
        await self._stop_pruning()
        await self.listener.aclose()
        if self._pool is not None:
            await self._pool.close()
            self._pool = None
