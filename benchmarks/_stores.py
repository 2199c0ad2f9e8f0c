"""The stores the approval benchmarks run against."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def postgres_url(given: str | None) -> Iterator[str]:
    """``given`` (an existing server's URL), else a throwaway server started as the tests
    start theirs (initdb + pg_ctl) and destroyed afterwards."""
    if given is not None:
        yield given
        return
    sys.path.insert(0, str(ROOT))
    from tests.shared_approvals.pgserver import PgServer

    server = PgServer()
    server.init()
    try:
        yield server.create_database()
    finally:
        server.destroy()
