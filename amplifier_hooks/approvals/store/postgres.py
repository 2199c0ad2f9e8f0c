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

import functools
import time
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from amplifier_hooks.approvals.store.base import ApprovalBackend
from amplifier_hooks.approvals.store.operations import (
    Changed,
    Fetch,
    Insert,
    Operation,
    Tables,
)
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
from amplifier_hooks.approvals.store.records import ApprovalStoreError
from amplifier_hooks.approvals.store.retrying import DEFAULT_BUDGET

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


TABLES = Tables(remembered=REMEMBERED, audit=AUDIT, pending=PENDING, approvers=APPROVERS)


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
        self.tables = TABLES
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

    async def _transact(self, what: str, operation: Operation[T], budget: float | None) -> T:
        # One attempt may wait up to a second for a connection even on a short budget: a
        # fresh pool on a busy machine needs that long to hand out its first one.
        wait = min(self.connect_timeout, DEFAULT_BUDGET if budget is None else max(budget, 1.0))
        pool = await self._open_pool()
        try:
            async with pool.connection(timeout=wait) as conn:
                if not self._migrated:
                    await migrate(conn)
                    self._migrated = True
                async with conn.transaction():
                    return await _drive(conn, operation)
        except (PoolTimeout, psycopg.Error) as exc:
            raise self._error(what, exc) from exc
        except ValueError as exc:  # a schema from a newer version
            raise ApprovalStoreError(f"approval store {self.name}: {exc}") from exc

    def _queued(self, ident: int) -> None:
        self.listener.start()
        self.listener.watch(ident)

    def _settled(self, ident: int) -> None:
        self.listener.unwatch(ident)

    async def wait_for_change(self, ident: int | None, timeout: float) -> None:
        if self._closed:  # the question cannot be waited on any more: it fails closed
            raise ApprovalStoreError(f"approval store {self.name} is closed")
        await self.listener.wait(ident, timeout)

    async def aclose(self) -> None:
        self._closed = True
        await self._stop_pruning()
        await self.listener.aclose()
        if self._pool is not None:
            await self._pool.close()
            self._pool = None


@functools.lru_cache(maxsize=128)  # bounded: the statements are the constants of `operations`
def _psycopg_sql(sql: str) -> bytes:
    """``?`` marks as psycopg's ``%s`` (the statements hold no other ``?`` or ``%``)."""
    return sql.replace("?", "%s").encode()


async def _drive(conn: Conn, operation: Operation[T]) -> T:
    """Run ``operation``'s statements on ``conn``, in its transaction."""
    reply: object = None
    while True:
        try:
            step = operation.send(reply)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        if isinstance(step, Changed):
            # Delivered when the transaction commits, so a woken reader sees the new row.
            await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, str(step.ident)))
            reply = None
        elif isinstance(step, Insert):
            cursor = await conn.execute(_psycopg_sql(step.sql + " RETURNING id"), step.args)
            row = await cursor.fetchone()
            reply = None if row is None else int(row[0])
        else:
            cursor = await conn.execute(_psycopg_sql(step.sql), step.args)
            reply = await cursor.fetchall() if isinstance(step, Fetch) else cursor.rowcount
