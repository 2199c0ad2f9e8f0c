"""A ``postgresql://`` store without the ``postgres`` extra installed is one line saying
what to install, on every command that opens a store -- never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# psycopg made unimportable the way a plain `pip install amplifier-hooks` leaves it.
WITHOUT_PSYCOPG = """
import sys
sys.modules["psycopg"] = None
sys.modules["psycopg_pool"] = None
from amplifier_hooks.cli import main
raise SystemExit(main(sys.argv[1:]))
"""

URL = "postgresql://me@127.0.0.1:1/approvals"
HINT = (
    "error: a postgresql:// store needs the PostgreSQL driver, which is not installed: "
    "pip install 'amplifier-hooks[postgres]'\n"
)


@pytest.mark.parametrize(
    "command",
    [
        ["approve", "--list", "--store", URL],
        ["approvals", "list", "--store", URL],
        ["run", "--no-tui", "--approvals", "queue", "--store", URL],
    ],
    ids=lambda c: " ".join(c[:2]),
)
def test_a_postgres_store_without_psycopg_says_what_to_install(
    command: list[str], tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_PSYCOPG, *command],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == HINT
    assert "Traceback" not in done.stderr
