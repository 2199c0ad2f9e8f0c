"""Questions have one owner (issue 37): a queued question records the hook server that
waits for it (machine, pid, start time). A server killed with ``kill -9`` leaves its
question pending; the next server that starts withdraws it, and an answer to it says it
was withdrawn and why (``won: false``), in the command-line approver and the browser one
alike. Questions of another machine in a shared store are left alone; a pid the kernel
gave to another process does not keep a dead owner's question alive. On SQLite and on
a real PostgreSQL."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import sqlite3
import subprocess
import threading
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest

from amplifier_hooks.approvals import ApprovalBackend, ApprovalRequest, open_store
from amplifier_hooks.approvals.store import is_postgres_url
from amplifier_hooks.approvals.store.owners import this_machine, this_process
from amplifier_hooks.cli import main as cli_main
from amplifier_hooks.web import ServerOptions, start_site
from amplifier_hooks.web.approver import ApproverSettings, make_approver_app
from tests.shared_approvals.queued import queue_bundle, until_pending
from tests.transports.processes import COMMAND, WAIT
from tests.transports.support import TOKEN, bash, decision
from tests.web.test_approver import TOKEN as WEB_TOKEN
from tests.web.test_approver import _answer_headers

COMMAND_ASKED = "make deploy-orphan"


def environment(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("AMPLIFIER_HOOKS_", "XDG_"))
    }
    env.update(
        HOME=str(home),
        XDG_STATE_HOME=str(home / "state"),
        AMPLIFIER_HOOKS_TOKEN=TOKEN,
        COLUMNS="200",
    )
    return env


class Server:
    """A real ``amplifier-hooks serve`` process, its stderr drained in a thread."""

    def __init__(self, bundle: Path, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [COMMAND, "serve", "--bundle", str(bundle), "--port", "0"],
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        self.said: list[str] = []
        assert self.process.stderr is not None
        for line in self.process.stderr:  # it says where it listens once it does
            self.said.append(line)
            if "listening on " in line:
                self.url = line.split()[2].rstrip(":")
                break
        else:
            raise AssertionError(f"the server never listened: {''.join(self.said)}")
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.said.append(line)

    def ask(self, payload: dict[str, Any]) -> dict[str, Any]:
        """POST a Claude Code hook input; the answer (blocks until there is one)."""
        parts = urlsplit(self.url)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=WAIT * 2)
        try:
            headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
            connection.request("POST", "/claude-code", json.dumps(payload), headers)
            answer: dict[str, Any] = json.loads(connection.getresponse().read())
            return answer
        finally:
            connection.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
        self.process.wait(WAIT)


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        if server.process.poll() is None:
            server.process.kill()
        server.process.wait(WAIT)


async def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The command line's exit code, stdout and stderr (in this process: the servers are
    the processes this test is about)."""
    capsys.readouterr()
    code = await asyncio.to_thread(cli_main, list(argv))
    out, err = capsys.readouterr()
    return code, out, err


async def web_answer(backend: ApprovalBackend, ident: int, choice: str) -> dict[str, Any]:
    """Answer ``ident`` through the browser approver's API, as its page does."""
    app = make_approver_app(backend, WEB_TOKEN, ApproverSettings(approver="web@test"))
    runner, address = await start_site(app, ServerOptions(port=0))
    try:
        async with aiohttp.ClientSession() as client:
            headers = {**_answer_headers(address), "Content-Type": "application/json"}
            body = json.dumps({"id": ident, "choice": choice})
            async with client.post(f"{address}/api/answer", data=body, headers=headers) as reply:
                assert reply.status == 200
                answer: dict[str, Any] = await reply.json()
                return answer
    finally:
        await runner.cleanup()


@pytest.mark.timeout(300)  # two real servers on a busy machine; a bound on a hang
async def test_a_killed_servers_question_is_withdrawn_by_the_next_server(
    tmp_path: Path, either_store: str, servers: list[Server], capsys: pytest.CaptureFixture[str]
) -> None:
    env = environment(tmp_path)
    bundle = queue_bundle(tmp_path, either_store)
    backend = open_store(either_store)
    pool = ThreadPoolExecutor(2)
    try:
        first = Server(bundle, env)
        servers.append(first)
        asking: Future[dict[str, Any]] = pool.submit(first.ask, bash(COMMAND_ASKED))
        [row] = await until_pending(backend)
        assert (row.owner_machine, row.owner_pid) == (this_machine(), first.process.pid)
        assert row.owner_started  # the kernel's start time: a reused pid is not the owner

        first.process.kill()  # kill -9: nothing of it closes the row
        first.process.wait(WAIT)
        with pytest.raises(OSError):  # the hook call gets no answer (the relay asks again)
            asking.result(WAIT)
        still = await backend.pending(row.id)
        assert still is not None and still.status == "pending"

        second = Server(bundle, env)  # withdraws before it listens
        servers.append(second)
        gone = await backend.pending(row.id)
        assert gone is not None and (gone.status, gone.outcome) == ("expired", "withdrawn")
        reason = f"process {first.process.pid} on "
        assert gone.closed_reason is not None and gone.closed_reason.startswith(reason)
        assert await backend.list_pending() == []

        # Nobody lists it as waiting, and neither approver's answer is applied.
        code, out, err = await cli(capsys, "approve", "--list", "--json", "--store", either_store)
        assert code == 0, err
        assert json.loads(out)["pending"] == []
        code, out, err = await cli(
            capsys, "approve", str(row.id), "--allow", "--store", either_store
        )
        assert (code, out) == (1, "")
        assert err == (
            f"request {row.id} was withdrawn: {gone.closed_reason}; this answer was not applied\n"
        )
        from_web = await web_answer(backend, row.id, row.options[0])
        assert from_web["won"] is False
        assert from_web["message"] == err.strip()
        audit = [e for e in await backend.audit_log() if e.via == "late"]
        assert audit and all("which was withdrawn" in (e.reason or "") for e in audit)

        # The new server's own question is the one that counts.
        asking = pool.submit(second.ask, bash(COMMAND_ASKED))
        rows = await until_pending(backend)
        assert [r.owner_pid for r in rows] == [second.process.pid]
        won = await backend.answer(rows[0].id, rows[0].options[0], "alice")
        assert won.won
        verdict = decision(asking.result(WAIT))
        assert verdict is not None and verdict[0] == "allow"
        second.stop()
    finally:
        pool.shutdown(wait=False)
        await backend.aclose()


def set_owner(store: str, ident: int, machine: str, pid: int, started: str | None) -> None:
    """Give queued row ``ident`` another owner, as another process would have written it."""
    sql = "UPDATE {} SET owner_machine = ?, owner_pid = ?, owner_started = ? WHERE id = ?"
    args = (machine, pid, started, ident)
    if is_postgres_url(store):
        import psycopg

        with psycopg.connect(store, autocommit=True) as conn:
            conn.execute(sql.format("amplifier_pending").replace("?", "%s").encode(), args)
    else:
        with sqlite3.connect(store) as conn:
            conn.execute(sql.format("pending"), args)


def dead_pid() -> int:
    """The pid of a process that has exited and been reaped."""
    done = subprocess.Popen(["true"])
    done.wait(WAIT)
    return done.pid


async def queue(backend: ApprovalBackend, prompt: str) -> int:
    request = ApprovalRequest(prompt=prompt, options=["Allow", "Deny"], timeout=600)
    return await backend.enqueue(request, session_id="s1", host="h1", deadline=None)


async def test_only_questions_of_gone_owners_on_this_machine_are_withdrawn(
    either_store: str,
) -> None:
    backend = open_store(either_store)
    try:
        live = await queue(backend, "asked by this process, which runs")
        elsewhere = await queue(backend, "asked on another machine")
        set_owner(either_store, elsewhere, "other-host:0123456789ab", dead_pid(), None)
        dead = await queue(backend, "asked by a process that exited")
        set_owner(either_store, dead, this_machine(), dead_pid(), None)
        reused = await queue(backend, "asked by a process whose pid is now this one's")
        me = this_process()
        set_owner(either_store, reused, me.machine, me.pid, "another-boot/12345")
        older = await queue(backend, "queued by a version that recorded no owner")
        set_owner(either_store, older, None, None, None)  # type: ignore[arg-type]

        assert sorted(await backend.withdraw_orphans()) == [dead, reused]
        waiting = {r.id for r in await backend.list_pending()}
        assert waiting == {live, elsewhere, older}
        assert await backend.withdraw_orphans() == []  # once is enough
    finally:
        await backend.aclose()


async def test_a_starting_server_creates_no_store_to_look_for_orphans(tmp_path: Path) -> None:
    from amplifier_hooks.bundles import load_bundle
    from amplifier_hooks.transports.http.orphans import withdraw_orphans

    store = tmp_path / "approvals.db"
    bundle = load_bundle(queue_bundle(tmp_path, str(store)))
    assert await withdraw_orphans(bundle, {}) == []
    assert not store.exists()  # no file: no question in it, and none made by looking
    backend = open_store(str(store))
    try:
        ident = await queue(backend, "asked by a process that exited")
        set_owner(str(store), ident, this_machine(), dead_pid(), None)
        assert await withdraw_orphans(bundle, {}) == [ident]
        assert await withdraw_orphans(bundle, {"approval_store": ":memory:"}) == []
    finally:
        await backend.aclose()


async def test_a_sqlite_queue_of_schema_4_keeps_its_rows_and_gains_owners(tmp_path: Path) -> None:
    store = str(tmp_path / "approvals.db")
    backend = open_store(store)
    ident = await queue(backend, "queued before owners were recorded")
    await backend.aclose()
    with sqlite3.connect(store) as conn:  # as schema 4 kept it
        for column in ("owner_machine", "owner_pid", "owner_started", "closed_reason"):
            conn.execute(f"ALTER TABLE pending DROP COLUMN {column}")
        conn.execute("PRAGMA user_version = 4")

    backend = open_store(store)
    try:
        [kept] = await backend.list_pending()
        assert (kept.id, kept.prompt, kept.owner_machine) == (
            ident,
            "queued before owners were recorded",
            None,
        )
        assert await backend.withdraw_orphans() == []  # no owner: nobody to find gone
        new = await queue(backend, "queued now")
        row = await backend.pending(new)
        assert row is not None and row.owner_pid == os.getpid()
    finally:
        await backend.aclose()
    with sqlite3.connect(store) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (5,)


async def test_an_answer_to_a_gone_owners_question_withdraws_it(either_store: str) -> None:
    """No server started since the owner died: the answer itself finds nobody waits."""
    backend = open_store(either_store)
    try:
        ident = await queue(backend, "asked by a process that was killed")
        pid = dead_pid()
        set_owner(either_store, ident, this_machine(), pid, None)
        result = await backend.answer(ident, "Allow", "alice")
        assert not result.won
        assert result.request is not None and result.request.outcome == "withdrawn"
        assert result.explain() == (
            f"request {ident} was withdrawn: process {pid} on {this_machine().rsplit(':', 1)[0]}, "
            "which asked it and waited for the answer, is gone; this answer was not applied"
        )
        live = await queue(backend, "asked by this process")
        assert (await backend.answer(live, "Allow", "alice")).won
    finally:
        await backend.aclose()


async def test_the_console_says_an_orphan_was_withdrawn_when_answered(either_store: str) -> None:
    """The approver's console (Textual) lists a question whose owner dies while the
    console is open, before any server starts again; answering it there says it was
    withdrawn and why."""
    from amplifier_hooks.cli.approve_app import ApproverApp
    from amplifier_hooks.ui.approval_screen import ApprovalScreen

    backend = open_store(either_store)
    ident = await queue(backend, "asked by a server that will be killed")
    pid = dead_pid()
    app = ApproverApp(open_store(either_store), approver="alice@console", guard=0.0)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            while len(app.rows) != 1:
                app.refreshed.clear()
                app.action_refresh()
                await app.refreshed.wait()
            set_owner(either_store, ident, this_machine(), pid, None)  # now it is gone
            await pilot.press("enter")
            while not (isinstance(app.screen, ApprovalScreen) and app.screen.armed):
                await pilot.pause(0.01)
            await pilot.press("1")  # the first option: Allow
            said = f"not applied: request {ident} was withdrawn: process {pid} on "
            while not any(m.startswith(said) for m in app.messages):
                await pilot.pause(0.01)
            assert any(
                "which asked it and waited for the answer, is gone" in m for m in app.messages
            )
        row = await backend.pending(ident)
        assert row is not None and (row.status, row.outcome, row.choice) == (
            "expired",
            "withdrawn",
            None,
        )
    finally:
        await backend.aclose()


async def test_the_approvers_withdraw_orphans_when_they_open_the_store(
    either_store: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``approve --list``, the console and the browser approver each withdraw, as they
    open the store, the questions of owners on this machine that are gone: a person is
    never offered one. A live owner's question, and another machine's, stay."""
    from amplifier_hooks.cli.approve_app import ApproverApp

    backend = open_store(either_store)

    async def orphan(prompt: str) -> int:
        ident = await queue(backend, prompt)
        set_owner(either_store, ident, this_machine(), dead_pid(), None)
        return ident

    async def withdrawn(ident: int) -> bool:
        row = await backend.pending(ident)
        assert row is not None
        return (row.status, row.outcome) == ("expired", "withdrawn")

    try:
        live = await queue(backend, "asked by this process, which runs")
        elsewhere = await queue(backend, "asked on another machine")
        set_owner(either_store, elsewhere, "other-host:0123456789ab", dead_pid(), None)

        listed = await orphan("left by a killed server, then listed")
        code, out, err = await cli(capsys, "approve", "--list", "--json", "--store", either_store)
        assert code == 0, err
        assert {r["id"] for r in json.loads(out)["pending"]} == {live, elsewhere}
        assert await withdrawn(listed)

        shown = await orphan("left by a killed server, then the console opened")
        app = ApproverApp(open_store(either_store), approver="alice@console")
        async with app.run_test(size=(100, 30)):
            await app.refreshed.wait()  # the first list: after the withdrawal
            assert {r.id for r in app.rows} == {live, elsewhere}
        await app.backend.aclose()
        assert await withdrawn(shown)

        served = await orphan("left by a killed server, then the browser approver started")
        app_web = make_approver_app(backend, WEB_TOKEN, ApproverSettings(approver="web@test"))
        runner, _ = await start_site(app_web, ServerOptions(port=0))
        try:
            assert await withdrawn(served)  # before the first page could show it
        finally:
            await runner.cleanup()

        assert {r.id for r in await backend.list_pending()} == {live, elsewhere}
    finally:
        await backend.aclose()
