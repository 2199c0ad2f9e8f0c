"""A shared store that cannot be used is one line naming the cause, at once: connection
refused, authentication failed, no such database — tested against the real server — and
never the driver's own log lines on the user's terminal."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

from amplifier_hooks.approvals.store import ApprovalStoreError, PostgresBackend, open_store
from amplifier_hooks.approvals.store.postgres import redact
from amplifier_hooks.approvals.store.postgres_connect import (
    CONNECT_TIMEOUT,
    connect_failure,
    with_connect_timeout,
)

from .pgserver import PORT, PgServer

REFUSED = "cannot connect: connection refused (is the server running, on that host and port?)"


def _unused_tcp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _cases(server: PgServer) -> dict[str, tuple[str, str]]:
    """URL and expected cause of each way the store cannot be used."""
    return {
        "tcp port with no server": (
            f"postgresql://postgres@127.0.0.1:{_unused_tcp_port()}/postgres",
            REFUSED,
        ),
        "socket of a stopped server": (
            f"postgresql://postgres@/postgres?host={server.root}&port={PORT + 1}",
            REFUSED,
        ),
        "wrong password": (
            server.password_url("wrong"),
            'cannot connect: authentication failed for user "amph_password" '
            "(check the user and password)",
        ),
        "missing database": (
            server.url("no_such_db"),
            'cannot connect: no such database "no_such_db"',
        ),
    }


CASES = [
    "tcp port with no server",
    "socket of a stopped server",
    "wrong password",
    "missing database",
]


@pytest.mark.parametrize("case", CASES)
async def test_the_error_names_the_cause_once_without_retrying(
    pg_server: PgServer, case: str, logs: list[dict[str, object]]
) -> None:
    url, cause = _cases(pg_server)[case]
    backend = open_store(url)
    try:
        with pytest.raises(ApprovalStoreError) as info:
            await backend.list_pending()
    finally:
        await backend.aclose()
    assert str(info.value) == f"approval store {redact(url)}: {cause}"
    assert info.value.transient is False  # retrying cannot fix it: no retries, no storm
    assert [
        r for r in logs if r["event"] in ("approval store retry", "approval store gave up")
    ] == []


@pytest.mark.parametrize("case", CASES)
def test_the_command_prints_that_one_line_and_nothing_else(
    pg_server: PgServer, case: str, tmp_path: Path
) -> None:
    url, cause = _cases(pg_server)[case]
    done = subprocess.run(
        [sys.executable, "-m", "amplifier_hooks.cli", "approve", "--list", "--store", url],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == f"error: approval store {redact(url)}: {cause}\n"


async def test_the_right_password_connects(pg_server: PgServer) -> None:
    backend = open_store(pg_server.password_url("right"))
    try:
        assert await backend.list_pending() == []
    finally:
        await backend.aclose()


async def test_every_connection_is_opened_with_the_connect_timeout(pg_url: str) -> None:
    backend = PostgresBackend(pg_url)
    assert CONNECT_TIMEOUT == 3.0
    assert conninfo_to_dict(backend.conninfo)["connect_timeout"] == "3"
    assert backend.listener.url == backend.conninfo
    try:
        await backend.list_pending()
        assert backend._pool is not None
        async with backend._pool.connection() as conn:
            # what libpq was really given for the pool's connections
            assert conninfo_to_dict(conn.info.dsn)["connect_timeout"] == "3"
    finally:
        await backend.aclose()


def test_a_url_that_sets_its_own_connect_timeout_keeps_it() -> None:
    url = "postgresql://me@db/approvals?connect_timeout=10"
    assert with_connect_timeout(url) == url
    assert (
        conninfo_to_dict(with_connect_timeout("postgresql://me@db/a", 2.2))["connect_timeout"]
        == "3"
    )


@pytest.mark.parametrize(
    ("driver", "cause"),
    [
        ("connection timeout expired", "cannot connect: server unreachable (no answer within 3 s)"),
        (
            'connection failed: could not translate host name "db.internal" to address: '
            "Name or service not known",
            'cannot connect: server unreachable (unknown host "db.internal")',
        ),
        (
            'connection failed: connection to server at "10.0.0.1", port 5432 failed: FATAL:  '
            'role "ghost" does not exist',
            'cannot connect: authentication failed (no such user "ghost")',
        ),
        (
            'connection failed: connection to server at "10.0.0.1", port 5432 failed: FATAL:  '
            "sorry, too many clients already\nmore detail",
            "cannot connect: sorry, too many clients already",
        ),
    ],
)
def test_causes_the_loopback_server_cannot_produce(driver: str, cause: str) -> None:
    # Driver texts copied from psycopg/libpq failures seen elsewhere (no network here).
    assert connect_failure(psycopg.OperationalError(driver)) == cause
