"""Fixtures for shared approvals: one real PostgreSQL server for the whole run, a fresh
database per test. Without PostgreSQL binaries the tests that need it skip and say why --
except under ``CI``, where they fail (`tests.unavailable`)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.unavailable import unavailable

from .pgserver import PgServer, ServerUnavailable


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    try:
        server = PgServer()
        server.init()
    except ServerUnavailable as exc:
        unavailable(f"PostgreSQL is not available: {exc}")
    try:
        yield server
    finally:
        server.destroy()


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """The URL of a new, empty database on the test server."""
    return pg_server.create_database()


@pytest.fixture(params=["sqlite", "postgres"])
async def either_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A new store of each kind: a SQLite file path, then a PostgreSQL database URL."""
    if request.param == "sqlite":
        yield str(tmp_path / "approvals.db")
    else:
        server: PgServer = request.getfixturevalue("pg_server")
        yield server.create_database()
