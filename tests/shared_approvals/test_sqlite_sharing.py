"""Processes sharing one SQLite store see each other's questions, whatever else uses it.

SQLite's locks on the file are POSIX locks, which a process loses whenever it closes *any*
descriptor of the file. A process that opened a second store on a file it already had
open (an approver's command beside its console, a gate and its queue provider given one
path) used to lose the lock of the first: the next process to close the file then took
itself for the last user, folded the write-ahead log into the file and deleted it, and
the first store went on reading the deleted log for ever -- it never saw another
question (a test of three agent processes waited for ever for the third one's).
"""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

from amplifier_hooks.approvals import ApprovalStore
from amplifier_hooks.approvals.store.operations import Operation
from amplifier_hooks.approvals.store.records import ApprovalStoreError

_USER = textwrap.dedent(
    """
    import asyncio, sys
    from amplifier_hooks.approvals import ApprovalRequest, ApprovalStore

    async def main(path, asks):
        store = ApprovalStore(path)
        await store.list_pending()
        if asks:
            request = ApprovalRequest(prompt="Deploy?", event="tool:pre", source="guard")
            ident = await store.enqueue(request, session_id="s", host="h", deadline=None)
            print(ident, flush=True)
            sys.stdin.read()  # waits for its answer until the test lets it go
        await store.aclose()

    asyncio.run(main(sys.argv[1], sys.argv[2] == "ask"))
    """
)


def _user(path: Path, what: str) -> subprocess.Popen[str]:
    """Another process on the store: ``read`` opens it, reads and exits; ``ask`` queues a
    question, prints its id and keeps the store open until its stdin closes."""
    return subprocess.Popen(
        [sys.executable, "-c", _USER, str(path), what],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


async def test_a_second_store_on_the_file_leaves_the_first_seeing_other_processes(
    tmp_path: Path,
) -> None:
    path = tmp_path / "approvals.db"
    watcher = ApprovalStore(path)
    second = ApprovalStore(path)
    asker = None
    try:
        assert await watcher.list_pending() == []
        assert await second.list_pending() == []  # opened while the watcher has the file
        await second.aclose()
        reader = _user(path, "read")
        assert await asyncio.to_thread(reader.wait) == 0
        asker = _user(path, "ask")
        assert asker.stdout is not None
        ident = int(await asyncio.to_thread(asker.stdout.readline))
        assert [row.id for row in await watcher.list_pending()] == [ident]
    finally:
        if asker is not None:
            await asyncio.to_thread(asker.communicate, "")
        await watcher.aclose()


class _Signalling(ApprovalStore):
    """A store that tells the test's loop when one of its attempts met a lock."""

    def __init__(self, path: Path, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(path, busy_timeout=0.01)
        self.loop = loop
        self.met_lock = asyncio.Event()

    def run(self, what: str, operation: Operation[object]) -> object:  # type: ignore[override]
        try:
            return super().run(what, operation)
        except ApprovalStoreError as exc:
            if exc.transient:
                self.loop.call_soon_threadsafe(self.met_lock.set)
            raise


async def test_a_first_open_meeting_another_processes_schema_lock_waits_its_turn(
    tmp_path: Path,
) -> None:
    """Agents started together open a new file at once: the one that does not make the
    schema meets its lock, and retries instead of failing its question closed."""
    path = tmp_path / "approvals.db"
    creating = sqlite3.connect(path, isolation_level=None)  # as another process making it
    creating.execute("BEGIN EXCLUSIVE")
    store = _Signalling(path, asyncio.get_running_loop())
    try:
        listing = asyncio.ensure_future(store.list_pending())
        await store.met_lock.wait()
        assert not listing.done()
        creating.execute("COMMIT")
        creating.close()
        assert await listing == []
        assert store.retries >= 1
    finally:
        creating.close()
        await store.aclose()
