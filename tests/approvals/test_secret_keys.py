"""No secret in an approval key (issue 37): a hook's own key is often the command itself
(``ah-approval:shell:{command}``), so it is scrubbed like the question's details before
it is stored. ``approvals list`` and ``approve --list --json`` (run as a person runs them)
print no secret, a remembered "always" still answers the same call, and a store written
by an older version, with raw keys, is scrubbed when it is opened."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from amplifier_hooks.approvals import ApprovalGate, QueueApprovalProvider, open_store
from amplifier_hooks.engine.resolution import ApprovalAsk

PASSWORD = "hunter2secret"
GITHUB = "ghp_" + "Zq3" * 12
COMMAND = f"sudo ls /root  # password={PASSWORD} token {GITHUB}"
KEY = f"ah-approval:shell:{COMMAND}"
SECRETS = (PASSWORD, GITHUB)


def ask() -> ApprovalAsk:
    return ApprovalAsk(
        source="ah-approval",
        prompt="Run a command as root?",
        options=["Allow once", "Always allow", "Deny"],
        timeout=60.0,
        default="deny",  # type: ignore[arg-type]
        data={"approval_key": KEY},
    )


DATA = {"tool_name": "bash", "tool_input": {"command": COMMAND}}


def cli(store: Path, *argv: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "amplifier_hooks.cli", *argv, "--store", str(store)],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def raw_rows(store: Path) -> str:
    with sqlite3.connect(store) as conn:
        keys = [
            key
            for table in ("remembered", "audit", "pending")
            for (key,) in conn.execute(f"SELECT key FROM {table}")
        ]
    return "\n".join(keys)


async def test_a_remembered_answer_keeps_no_secret_and_still_matches(tmp_path: Path) -> None:
    store = tmp_path / "approvals.db"
    backend = open_store(str(store))
    gate = ApprovalGate(QueueApprovalProvider(backend, session_id="a1"), backend)
    asking = asyncio.ensure_future(gate.decide(ask(), "tool:pre", dict(DATA)))
    while not (rows := await backend.list_pending()):
        await backend.wait_for_change(None, 1.0)
    assert (await backend.answer(rows[0].id, "Always allow", "alice")).won
    assert (await asking).allowed
    again = await gate.decide(ask(), "tool:pre", dict(DATA))  # the same call: remembered
    assert again.allowed and again.via == "remembered"
    await gate.aclose()
    await backend.aclose()

    kept = raw_rows(store)
    assert "sudo ls /root" in kept and "[REDACTED:" in kept
    listed = cli(store, "approvals", "list") + cli(store, "approvals", "list", "--json")
    listed += cli(store, "approve", "--list", "--json")
    for secret in SECRETS:
        assert secret not in kept
        assert secret not in listed
    assert "sudo ls /root" in listed


async def test_an_older_store_with_raw_keys_is_scrubbed_on_open(tmp_path: Path) -> None:
    store = tmp_path / "approvals.db"
    backend = open_store(str(store))
    gate = ApprovalGate(QueueApprovalProvider(backend, session_id="a1"), backend)
    asking = asyncio.ensure_future(gate.decide(ask(), "tool:pre", dict(DATA)))
    while not (rows := await backend.list_pending()):
        await backend.wait_for_change(None, 1.0)
    await backend.answer(rows[0].id, "Always allow", "alice")
    await asking
    await gate.aclose()
    await backend.aclose()
    with sqlite3.connect(store) as conn:  # as version 3 kept it: the raw key
        for table in ("remembered", "audit", "pending"):
            conn.execute(f"UPDATE {table} SET key = ?", (KEY,))
        conn.execute("PRAGMA user_version = 3")
    assert PASSWORD in raw_rows(store)

    backend = open_store(str(store))
    gate = ApprovalGate(QueueApprovalProvider(backend, session_id="a2"), backend)
    again = await gate.decide(ask(), "tool:pre", dict(DATA))
    assert again.allowed and again.via == "remembered"  # kept through the migration
    await gate.aclose()
    await backend.aclose()
    for secret in SECRETS:
        assert secret not in raw_rows(store)
