"""A throwaway PostgreSQL server for tests: ``initdb`` into a temporary directory and
``pg_ctl`` on a Unix socket there (no TCP port, nothing shared with the machine).

initdb and postgres refuse to run as root; when the tests run as root, the server runs as
the ``postgres`` system user, which owns the temporary directory.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Any

PORT = 5432
"""Only names the socket file (``.s.PGSQL.5432``): the server listens on no TCP port."""


PASSWORD_ROLE = "amph_password"
"""The one role that must give its password (see `PgServer.password_url`)."""


class ServerUnavailable(RuntimeError):
    """PostgreSQL cannot be started here; the message says why."""


def find_bindir() -> Path:
    """The directory holding initdb and pg_ctl (version 15 preferred)."""
    candidates = ["/usr/lib/postgresql/15/bin", *sorted(glob.glob("/usr/lib/postgresql/*/bin"))]
    for candidate in candidates:
        if (Path(candidate) / "initdb").exists() and (Path(candidate) / "pg_ctl").exists():
            return Path(candidate)
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    raise ServerUnavailable("initdb/pg_ctl not found (install postgresql: `make test` does)")


def _scratch() -> str | None:
    """A RAM-backed directory when there is one with room (each test's database is a
    few megabytes to create and delete), else the default temporary directory."""
    try:
        stats = os.statvfs("/dev/shm")
    except OSError:
        return None
    free = stats.f_bavail * stats.f_frsize
    return "/dev/shm" if free > 2 * 1024**3 and os.access("/dev/shm", os.W_OK) else None


class PgServer:
    """One server; `create_database` gives each test its own database."""

    def __init__(self) -> None:
        self.bindir = find_bindir()
        self.root = Path(tempfile.mkdtemp(prefix="amph-pg-", dir=_scratch()))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._run_as: dict[str, Any] = {}
        if os.geteuid() == 0:
            try:
                account = pwd.getpwnam("postgres")
            except KeyError:
                raise ServerUnavailable("running as root and there is no postgres user") from None
            os.chown(self.root, account.pw_uid, account.pw_gid)
            self._run_as = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bindir / args[0]), *args[1:]],
            cwd=self.root,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            env={**os.environ, "LC_ALL": "C.UTF-8"},
            **self._run_as,
        )

    def init(self) -> None:
        done = self._run(
            "initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
            "--no-sync",
        )  # fmt: skip
        if done.returncode != 0:
            raise ServerUnavailable(f"initdb failed: {done.stderr.strip()[-500:]}")
        # Every role logs in without a password (trust), except PASSWORD_ROLE, so that a
        # wrong password can be tested. Written before the start: no reload to wait for.
        hba = self.data / "pg_hba.conf"
        hba.write_text(f"local all {PASSWORD_ROLE} scram-sha-256\n" + hba.read_text())
        self.start()

    def start(self) -> None:
        options = (
            f"-k {self.root} -c listen_addresses='' -p {PORT} -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        done = self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start"
        )
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-800:] if self.log.exists() else ""
            raise ServerUnavailable(f"pg_ctl start failed: {done.stderr.strip()} {log}")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        self.stop()
        self.start()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.root}&port={PORT}"

    def password_url(self, password: str) -> str:
        """A URL for `PASSWORD_ROLE` and its own database (both created on first use; its
        password is "right") with ``password``."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            exists = conn.execute(
                "SELECT 1 FROM pg_roles WHERE rolname = %s", (PASSWORD_ROLE,)
            ).fetchone()
            if exists is None:
                conn.execute(f"CREATE ROLE {PASSWORD_ROLE} LOGIN PASSWORD 'right'")
                conn.execute(f"CREATE DATABASE {PASSWORD_ROLE} OWNER {PASSWORD_ROLE}")
        return (
            f"postgresql://{PASSWORD_ROLE}:{password}@/{PASSWORD_ROLE}?host={self.root}&port={PORT}"
        )

    def create_database(self) -> str:
        """A new empty database; its URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def destroy(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)
