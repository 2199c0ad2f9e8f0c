"""Eight processes remembering "always" answers in one SQLite file at once: nothing is
lost to ``database is locked`` (issue 11, point 7)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from pathlib import Path

from amplifier_hooks.approvals import ApprovalStore
from amplifier_hooks.approvals.store.sqlite_schema import VERSION

WRITERS = 8
EACH = 20

_WRITER = textwrap.dedent(
    """
    import asyncio, sys
    from amplifier_hooks.approvals import ApprovalGate, ApprovalStore
    from amplifier_hooks.engine.resolution import ApprovalAsk

    class Always:
        via = "person"
        async def request_approval(self, request):
            return "Allow always"

    async def main(path, name, count):
        # A short busy timeout makes lock contention certain; the gate must retry it.
        store = ApprovalStore(path, busy_timeout=0.005)
        gate = ApprovalGate(Always(), store, store_budget=60)
        sys.stdin.readline()  # start together
        failed = 0
        for i in range(count):
            ask = ApprovalAsk(source=name, prompt=f"step {i}?", options=["Allow always", "Deny"],
                          timeout=60, default="deny")
            decision = await gate.decide(ask, "tool:pre", {})
            failed += not decision.remembered
        print("RESULT", failed, gate.backend.retries)
        store.close()

    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
    """
)


def test_eight_writers_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "approvals.db"
    asyncio.run(ApprovalStore(path).list_remembered())  # the schema exists before the race starts
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(path), f"writer{n}", str(EACH)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for n in range(WRITERS)
    ]
    for writer in writers:
        assert writer.stdin is not None
        writer.stdin.write("go\n")
        writer.stdin.flush()
    results = []
    for writer in writers:
        out, _ = writer.communicate(timeout=120)
        assert writer.returncode == 0
        [line] = [x for x in out.splitlines() if x.startswith("RESULT ")]
        results.append([int(x) for x in line.split()[1:]])
    assert [failed for failed, _ in results] == [0] * WRITERS, results
    store = ApprovalStore(path)
    remembered = {(r.source, r.prompt) for r in asyncio.run(store.list_remembered())}
    expected = {(f"writer{n}", f"step {i}?") for n in range(WRITERS) for i in range(EACH)}
    assert remembered == expected
    assert len(asyncio.run(store.audit_log(limit=None))) == WRITERS * EACH
    store.close()


async def test_a_version_1_file_is_migrated_and_its_answers_apply_everywhere(
    tmp_path: Path,
) -> None:
    """Files written before workspaces and the queue keep their answers (as global)."""
    import sqlite3

    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            CREATE TABLE remembered (key TEXT PRIMARY KEY, allowed INTEGER NOT NULL,
                choice TEXT, source TEXT NOT NULL, prompt TEXT NOT NULL, options TEXT NOT NULL,
                created_at REAL NOT NULL, expires_at REAL);
            CREATE TABLE audit (id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL,
                event TEXT NOT NULL, source TEXT NOT NULL, prompt TEXT NOT NULL,
                options TEXT NOT NULL, details TEXT NOT NULL, key TEXT NOT NULL, choice TEXT,
                allowed INTEGER NOT NULL, via TEXT NOT NULL, scope TEXT NOT NULL, reason TEXT);
            INSERT INTO remembered VALUES ('k', 1, 'Allow always', 'guard', 'Run?',
                '["Allow always", "Deny"]', 1000.0, NULL);
            INSERT INTO audit (at, event, source, prompt, options, details, key, choice,
                allowed, via, scope, reason) VALUES (1000.0, 'tool:pre', 'guard', 'Run?',
                '["Allow always", "Deny"]', '{}', 'k', 'Allow always', 1, 'person', 'always',
                NULL);
            """
        )
    conn.close()
    store = ApprovalStore(path)
    found = await store.lookup("k", "/any/workspace")
    assert found is not None and found.allowed and found.workspace == "*"
    [entry] = await store.audit_log()
    assert entry.workspace == "" and entry.choice == "Allow always"
    assert await store.list_pending() == []
    store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (VERSION,)
    conn.close()
