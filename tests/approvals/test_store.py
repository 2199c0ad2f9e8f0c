"""The SQLite memory and audit trail: what is committed stays, what is broken says so."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from amplifier_hooks.approvals import (
    ApprovalDecision,
    ApprovalRequest,
    ApprovalStore,
    ApprovalStoreError,
    default_store_path,
)


def _request(key: str = "k", prompt: str = "Run it?") -> ApprovalRequest:
    return ApprovalRequest(
        prompt=prompt,
        options=["Allow always", "Deny"],
        event="tool:pre",
        source="guard",
        key=key,
        details={"tool": "bash"},
    )


def _decision(request: ApprovalRequest, allowed: bool = True) -> ApprovalDecision:
    return ApprovalDecision(
        allowed=allowed,
        choice="Allow always" if allowed else "Deny",
        via="person",
        remembered=True,
        scope="always",
        source=request.source,
        prompt=request.prompt,
        key=request.key,
    )


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def test_remember_lookup_and_audit_in_memory() -> None:
    store = ApprovalStore(":memory:")
    request = _request()
    assert await store.lookup("k") is None
    await store.remember(request, _decision(request))
    found = await store.lookup("k")
    assert found is not None and found.allowed and found.choice == "Allow always"
    assert found.source == "guard" and found.options == ["Allow always", "Deny"]
    [entry] = await store.audit_log()
    assert (entry.key, entry.via, entry.scope, entry.allowed) == ("k", "person", "always", True)
    assert entry.details == {"tool": "bash"}


async def test_remembering_again_replaces_the_answer() -> None:
    store = ApprovalStore(":memory:")
    request = _request()
    await store.remember(request, _decision(request, allowed=True))
    await store.remember(request, _decision(request, allowed=False))
    found = await store.lookup("k")
    assert found is not None and not found.allowed
    assert len(await store.list_remembered()) == 1 and len(await store.audit_log()) == 2


async def test_expired_decisions_are_not_found_but_can_be_listed() -> None:
    clock = Clock()
    store = ApprovalStore(":memory:", clock=clock)
    request = _request()
    await store.remember(request, _decision(request), ttl=60)
    clock.now += 59
    assert await store.lookup("k") is not None
    clock.now += 2
    assert await store.lookup("k") is None
    assert await store.list_remembered() == []
    [expired] = await store.list_remembered(include_expired=True)
    assert expired.expired(clock.now) and not expired.expired(clock.now - 10)


async def test_forget_one_or_all_keeps_the_audit_trail() -> None:
    store = ApprovalStore(":memory:")
    for key in ("a", "b", "c"):
        request = _request(key)
        await store.remember(request, _decision(request))
    assert await store.forget("b") == 1
    assert await store.forget("b") == 0
    assert [r.key for r in await store.list_remembered()] == ["a", "c"]
    assert await store.forget_all() == 2
    assert await store.list_remembered() == []
    assert len(await store.audit_log(limit=None)) == 3
    assert [e.key for e in await store.audit_log(limit=2)] == ["b", "c"]


async def test_default_path_follows_xdg_state_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert default_store_path() == tmp_path / "state" / "amplifier-hooks" / "approvals.db"
    store = ApprovalStore()
    request = _request()
    await store.audit(request, _decision(request))
    assert (tmp_path / "state" / "amplifier-hooks" / "approvals.db").is_file()
    store.close()
    monkeypatch.setenv("XDG_STATE_HOME", "relative/ignored")
    assert default_store_path() == Path.home() / ".local/state/amplifier-hooks/approvals.db"


async def test_file_store_uses_wal_and_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "approvals.db"
    store = ApprovalStore(path)
    request = _request()
    await store.remember(request, _decision(request))
    store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    again = ApprovalStore(path)
    again.check()
    assert await again.lookup("k") is not None


async def test_corrupt_file_gives_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "approvals.db"
    path.write_bytes(b"this is not a database" * 100)
    store = ApprovalStore(path)
    with pytest.raises(ApprovalStoreError, match=r"approvals\.db.*corrupt"):
        await store.lookup("k")


async def test_locked_database_gives_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "approvals.db"
    ApprovalStore(path).check()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process is writing
    try:
        store = ApprovalStore(path, busy_timeout=0.05)
        assert await store.lookup("k") is None  # WAL readers are not blocked
        request = _request()
        with pytest.raises(ApprovalStoreError, match="locked"):
            # A short budget: the error after the retries is what is checked, not their length.
            await store.remember(request, _decision(request), budget=0.2)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    await store.remember(request, _decision(request))  # usable again once the lock is gone
    assert await store.lookup("k") is not None


async def test_closed_store_refuses_work() -> None:
    store = ApprovalStore(":memory:")
    store.close()
    with pytest.raises(ApprovalStoreError, match="closed"):
        await store.lookup("k")


async def test_unopenable_path_gives_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    store = ApprovalStore(blocker / "approvals.db")  # parent is a file, not a folder
    with pytest.raises(ApprovalStoreError, match="cannot open"):
        await store.audit(_request(), _decision(_request()))


_WRITER = textwrap.dedent(
    """
    import asyncio, sys
    from amplifier_hooks.approvals import ApprovalDecision, ApprovalRequest, ApprovalStore

    store = ApprovalStore(sys.argv[1])
    i = 0
    while True:
        key = f"key-{i}"
        request = ApprovalRequest(prompt=f"op {i}", key=key, source="writer", event="tool:pre")
        decision = ApprovalDecision(
            allowed=i % 2 == 0, choice="Allow always" if i % 2 == 0 else "Deny always",
            via="person", remembered=True, scope="always", source="writer", prompt=request.prompt,
        )
        asyncio.run(store.remember(request, decision))
        print(key, flush=True)
        i += 1
    """
)


def test_killing_a_writer_loses_no_committed_decision(tmp_path: Path) -> None:
    path = tmp_path / "approvals.db"
    proc = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    committed: list[str] = []
    try:
        assert proc.stdout is not None
        while len(committed) < 40:
            line = proc.stdout.readline()
            if not line:
                pytest.fail(f"writer stopped early: {proc.stderr.read() if proc.stderr else ''}")
            committed.append(line.strip())
        # Kill it mid-stream: it is in the middle of writing the next decisions.
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        committed += [line.strip() for line in proc.stdout if line.strip()]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    store = ApprovalStore(path)
    store.check()
    remembered = {r.key: r for r in asyncio.run(store.list_remembered())}
    for index, key in enumerate(committed):
        assert key in remembered, f"committed decision {key} was lost"
        assert remembered[key].allowed == (index % 2 == 0)
    audited = {e.key for e in asyncio.run(store.audit_log(limit=None))}
    assert set(committed) <= audited


async def test_a_file_in_a_missing_folder_is_an_error_and_nothing_is_created(
    tmp_path: Path,
) -> None:
    path = tmp_path / "nested" / "approvals.db"
    with pytest.raises(ApprovalStoreError) as info:
        await ApprovalStore(path).lookup("k")
    assert str(info.value) == (
        f"approval store {path}: cannot open: the folder {tmp_path / 'nested'} does not exist "
        "(create it, or name a file elsewhere)"
    )
    assert not (tmp_path / "nested").exists()


def test_the_state_file_creates_its_own_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    ApprovalStore().check()
    assert (tmp_path / "state" / "amplifier-hooks" / "approvals.db").is_file()
