"""Fixtures for shared approvals: one real PostgreSQL server for the whole run, a fresh
database per test. Without PostgreSQL binaries the tests that need it skip and say why --
except under ``CI``, where they fail (`tests.unavailable`)."""

from __future__ import annotations

from collections.abc import Iterator

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
