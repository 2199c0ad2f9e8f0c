"""Agents asking through the shared queue; approvers answering through the CLI; faults.

Waits are on the store's own state (a request appearing, an answer arriving), never on
wall-clock slack.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks.approvals import (
    ApprovalBackend,
    ApprovalGate,
    ApprovalStore,
    PendingRequest,
    QueueApprovalProvider,
    open_store,
)
from amplifier_hooks.approvals.queue import GATE_STORE
from amplifier_hooks.cli import main as cli_main
from amplifier_hooks.engine.resolution import ApprovalAsk
from amplifier_hooks.engine.result import HookResult
from amplifier_hooks.session.coordinator import Coordinator
from tests.shared_approvals.queued import until_pending

from .pgserver import PgServer

ROOT = Path(__file__).resolve().parents[2]


def _ask(prompt: str = "Deploy?", timeout: float = 60.0, default: str = "deny") -> ApprovalAsk:
    return ApprovalAsk(
        source="guard",
        prompt=prompt,
        options=["Allow", "Allow always", "Deny"],
        timeout=timeout,
        default=default,  # type: ignore[arg-type]
    )


QUIET_LIMIT = 40.0
"""Seconds with no question pending while agents still run before the test reports what
the store and the agents say (under the test's 60 s limit, which would say nothing)."""


def _tails(logs: Path) -> dict[str, str]:
    """The end of each agent's log."""
    return {p.name: p.read_text(errors="replace")[-2000:] for p in logs.glob("*.log")}


async def _until_pending_while_running(
    backend: ApprovalBackend, agents: list[subprocess.Popen[str]], logs: Path
) -> list[PendingRequest]:
    """`until_pending`, failing with the agents' output when they have all exited
    instead (a question that is never queued would otherwise be waited for until the
    test's time runs out), or with every row the store holds when nothing is pending
    for `QUIET_LIMIT` seconds while they run."""
    loop = asyncio.get_running_loop()
    quiet_since = loop.time()
    while True:
        rows = await backend.list_pending()
        if rows:
            return rows
        if all(agent.poll() is not None for agent in agents):
            outputs = [agent.communicate()[0] for agent in agents]
            pytest.fail(f"the agents exited with questions never queued: {outputs}")
        if loop.time() - quiet_since > QUIET_LIMIT:
            held = [await backend.pending(ident) for ident in range(1, 10)]
            states = [agent.poll() for agent in agents]
            stderr = _tails(logs)
            pytest.fail(
                f"nothing pending for {QUIET_LIMIT} s while agents run ({states}); rows: "
                f"{[r for r in held if r is not None]}; audit: {await backend.audit_log()}; "
                f"agents' logs: {stderr}"
            )
        await backend.wait_for_change(None, 1.0)


async def test_an_answer_wakes_the_agent_and_always_is_shared(either_store: str) -> None:
    agent_store = open_store(either_store)
    gate = ApprovalGate(QueueApprovalProvider(agent_store, session_id="a1"), agent_store)
    asking = asyncio.ensure_future(gate.decide(_ask(), "tool:pre", {"command": "make deploy"}))
    approver = open_store(either_store)
    [row] = await until_pending(approver)
    assert (row.session_id, row.event, row.prompt) == ("a1", "tool:pre", "Deploy?")
    assert row.details == {"command": "make deploy"} and row.deadline is not None
    assert (await approver.answer(row.id, "Allow always", "alice@console")).won
    decision = await asking
    assert (decision.allowed, decision.via, decision.remembered) == (True, "person", True)
    settled = await approver.pending(row.id)
    assert settled is not None and settled.outcome == "applied"
    # A second agent on the same store is answered from the shared memory.
    other = ApprovalGate(
        QueueApprovalProvider(either_store), either_store, workspace=gate.workspace
    )
    again = await other.decide(_ask(), "tool:pre", {"command": "make deploy"})
    assert (again.via, again.allowed) == ("remembered", True)
    for closing in (gate, other):
        await closing.aclose()
    await agent_store.aclose()
    await approver.aclose()


async def test_no_answer_the_default_decides_and_a_late_answer_is_not_applied(
    either_store: str,
) -> None:
    backend = open_store(either_store)
    provider = QueueApprovalProvider(backend)
    gate = ApprovalGate(provider, backend)
    decision = await gate.decide(_ask(timeout=1.0, default="deny"), "tool:pre", {})
    assert (decision.allowed, decision.via) == (False, "timeout")
    assert provider.last_id is not None
    await gate.drain()
    late = await backend.answer(provider.last_id, "Allow", "slow@console")
    assert not late.won and "late" in late.explain()
    row = await backend.pending(provider.last_id)
    assert row is not None and row.status == "expired" and row.outcome == "timeout"
    assert [e.via for e in await backend.audit_log()] == ["timeout", "late"]
    await backend.aclose()


class _SlowToQueue(ApprovalStore):
    """A store whose queueing waits until the test lets it finish (a disk that stalls)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.go = asyncio.Event()

    async def enqueue(self, *args: Any, **kwargs: Any) -> int:
        await self.go.wait()
        return await super().enqueue(*args, **kwargs)


async def test_a_deadline_that_passes_while_queueing_closes_the_question_as_timed_out(
    tmp_path: Path,
) -> None:
    """The row says why nobody waits for it, as the audit does: the deadline passed."""
    backend = _SlowToQueue(tmp_path / "approvals.db")
    gate = ApprovalGate(QueueApprovalProvider(backend), backend)
    decision = await gate.decide(_ask(timeout=0.5, default="deny"), "tool:pre", {})
    assert (decision.allowed, decision.via) == (False, "timeout")
    backend.go.set()  # the insert finishes after the gate stopped waiting
    await gate.drain()
    [row] = await backend.list_pending(include_done=True)
    assert (row.status, row.outcome) == ("expired", "timeout")
    await gate.aclose()
    await backend.aclose()


async def test_the_database_down_fails_closed_naming_the_store(tmp_path: Path) -> None:
    url = f"postgresql://postgres@/nowhere?host={tmp_path}&port=5432"
    gate = ApprovalGate(QueueApprovalProvider(url), url, store_budget=0.5)
    decision = await gate.decide(_ask(), "tool:pre", {})
    assert (decision.allowed, decision.via) == (False, "error")
    assert decision.reason is not None and "approval store postgresql://" in decision.reason
    assert "fail closed" in decision.reason
    await gate.aclose()


async def test_the_server_restarting_mid_wait_loses_nothing(pg_server: PgServer) -> None:
    url = pg_server.create_database()
    backend = open_store(url)
    gate = ApprovalGate(QueueApprovalProvider(backend), backend)
    asking = asyncio.ensure_future(gate.decide(_ask(), "tool:pre", {}))
    approver = open_store(url)
    [row] = await until_pending(approver)
    await approver.aclose()
    await asyncio.to_thread(pg_server.restart)
    assert not asking.done()
    approver = open_store(url)
    assert (await approver.answer(row.id, "Allow", "alice")).won
    decision = await asyncio.wait_for(asking, 30)
    assert (decision.allowed, decision.choice) == (True, "Allow")
    assert backend.listener.reconnects >= 1  # type: ignore[attr-defined]
    await gate.aclose()
    await backend.aclose()
    await approver.aclose()


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = cli_main(list(args))
    finally:
        sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


def spawn_agents(
    either_store: str, *, count: int, questions: int, logs: Path | None = None
) -> list[subprocess.Popen[str]]:
    """Start ``count`` agent processes that each ask ``questions`` through the queue; their
    logs go to ``logs/agentN.log`` when given."""
    agents = []
    for n in range(count):
        if logs is None:
            stderr: int | io.TextIOWrapper = subprocess.DEVNULL
        else:
            stderr = open(logs / f"agent{n}.log", "w")  # noqa: SIM115  # the child holds it
        agents.append(
            subprocess.Popen(
                [sys.executable, "-m", "tests.shared_approvals.agent", either_store, f"agent{n}",
                 str(questions)],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
        )  # fmt: skip
        if not isinstance(stderr, int):
            stderr.close()
    return agents


async def collect_agents(agents: list[subprocess.Popen[str]]) -> list[dict[str, object]]:
    """Every decision the agent processes printed, once they have all exited cleanly."""
    results: list[dict[str, object]] = []
    for agent in agents:
        stdout, _ = await asyncio.to_thread(agent.communicate, timeout=60)
        assert agent.returncode == 0
        results += [json.loads(line) for line in stdout.splitlines()]
    return results


async def test_agent_processes_answered_through_the_cli(either_store: str, tmp_path: Path) -> None:
    # The store is made before the agents start: three processes creating one SQLite
    # file at once wait on each other's schema lock, and one that waits past the busy
    # timeout on a loaded machine fails closed (a deny) without queueing its question.
    watcher = open_store(either_store)
    await watcher.list_pending()
    agents = spawn_agents(either_store, count=3, questions=2, logs=tmp_path)
    answered: dict[int, str] = {}
    try:
        while len(answered) < 6:
            rows = await _until_pending_while_running(watcher, agents, tmp_path)
            for row in rows:
                if row.id in answered:
                    continue
                verdict = "--allow" if row.id % 2 else "--deny"
                code, out, err = await asyncio.to_thread(
                    _cli, "approve", str(row.id), verdict, "--store", either_store, "--as", "ci"
                )
                assert code == 0, err
                answered[row.id] = verdict
        code, out, _ = await asyncio.to_thread(
            _cli, "approve", "--list", "--json", "--store", either_store
        )
        assert code == 0 and json.loads(out)["pending"] == []
        results = await collect_agents(agents)
    finally:
        for agent in agents:
            if agent.poll() is None:
                agent.kill()
        await watcher.aclose()
    assert len(results) == 6
    for result in results:
        assert result["allowed"] == (answered[result["id"]] == "--allow")
        assert result["via"] == "person"
    code, _, err = await asyncio.to_thread(
        _cli, "approve", str(next(iter(answered))), "--deny", "--store", either_store
    )
    assert code == 1 and "already answered" in err


async def test_approve_list_shows_what_waits(either_store: str) -> None:
    backend = open_store(either_store)
    hostile = "[bold red]s9[/bold red]\x1b[2J"  # markup and an escape, shown literally
    await backend.enqueue(_request_for_list(), session_id=hostile, host="build-7", deadline=None)
    code, out, _ = await asyncio.to_thread(_cli, "approve", "--list", "--store", either_store)
    assert code == 0 and "build-7" in out and "Ship it?" in out
    assert "[bold red]" in out and "\x1b" not in out
    code, out, _ = await asyncio.to_thread(
        _cli, "approve", "--list", "--json", "--store", either_store
    )
    [row] = json.loads(out)["pending"]
    assert (row["host"], row["session_id"], row["seconds_left"]) == ("build-7", hostile, None)
    code, _, err = await asyncio.to_thread(
        _cli, "approve", str(row["id"]), "--choice", "Maybe", "--store", either_store
    )
    assert code == 2 and "not one of the options" in err
    await backend.aclose()


def _request_for_list():  # type: ignore[no-untyped-def]
    from amplifier_hooks.approvals import ApprovalRequest

    return ApprovalRequest(prompt="Ship it?", event="tool:pre", source="guard", workspace="/w")


async def test_approvals_list_and_forget_work_on_the_shared_store(pg_url: str) -> None:
    gate = ApprovalGate(QueueApprovalProvider(pg_url), pg_url, workspace="/srv/app")
    approver = open_store(pg_url)
    asking = asyncio.ensure_future(gate.decide(_ask("Restart?"), "tool:pre", {}))
    [row] = await until_pending(approver)
    await approver.answer(row.id, "Allow always", "alice")
    assert (await asking).remembered
    code, out, _ = await asyncio.to_thread(_cli, "approvals", "list", "--json", "--store", pg_url)
    [item] = json.loads(out)["remembered"]
    assert code == 0 and (item["workspace"], item["choice"]) == ("/srv/app", "Allow always")
    assert "postgres@" in json.loads(out)["store"]
    code, out, _ = await asyncio.to_thread(
        _cli, "approvals", "forget", item["key"], "--store", pg_url
    )
    assert code == 0 and "forgot 1 remembered decision" in out
    assert await approver.list_remembered() == []
    await gate.aclose()
    await approver.aclose()


async def test_a_queue_that_cannot_be_reached_fails_closed_naming_it(tmp_path: Path) -> None:
    """The memory is reachable but the queue is not: the reason names the queue's store."""
    url = f"postgresql://agent:s3cret@/nowhere?host={tmp_path}&port=5432"
    gate = ApprovalGate(QueueApprovalProvider(url), ":memory:")
    decision = await gate.decide(_ask(timeout=4), "tool:pre", {})
    assert (decision.allowed, decision.via) == (False, "error")
    reason = decision.reason or ""
    assert reason.startswith("approval store postgresql://agent:***@/nowhere")
    assert "s3cret" not in reason and "fail closed" in reason
    await gate.aclose()


async def test_approve_list_at_80_columns_breaks_no_word_and_shows_line_breaks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An eight-column table broke `workspace` into `workspac`/`e` at 80 columns, and every
    prompt showed a literal \\x0a where its line broke."""
    from amplifier_hooks.approvals import ApprovalRequest

    monkeypatch.setenv("COLUMNS", "80")
    store = str(tmp_path / "approvals.db")
    backend = open_store(store)
    command = "python -m pytest -q tests/test_calc.py && git push origin main"
    workspace = "/home/ada/src/projects/calculator-service"
    request = ApprovalRequest(
        prompt=f"Allow bash to run this command?\n{command}", event="tool:pre",
        source="approval_rules", workspace=workspace, details={"tool": "bash", "command": command},
    )  # fmt: skip
    ident = await backend.enqueue(
        request, session_id="agent-9d3e11", host="laptop-ada", deadline=None
    )
    code, out, _ = await asyncio.to_thread(_cli, "approve", "--list", "--store", store)
    assert code == 0
    assert "\\x0a" not in out
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 80
    words = out.split()
    expected = f"#{ident} workspace {workspace} {command} agent-9d3e11 laptop-ada"
    for word in ["Allow", "bash", "to", "run", "this", "command?", "/", *expected.split()]:
        assert word in words, word  # whole, never cut by a wrap
    # The prompt's line break reads " / " between its lines.
    assert "command? / python" in " ".join(words)
    await backend.aclose()


async def test_a_queued_request_names_the_asking_coordinators_session(tmp_path: Path) -> None:
    """A Claude Code session's questions show its session id to the approver."""
    store = str(tmp_path / "q.db")
    coordinator = Coordinator(
        approval_provider=QueueApprovalProvider(GATE_STORE),
        approval_store=store,
        session_id="claude-session-7",
    )
    coordinator.hooks.register(
        "tool:pre",
        lambda event, data: HookResult(
            action="ask_user", approval_prompt="Run it?", approval_timeout=30
        ),
    )
    asking = asyncio.create_task(coordinator.dispatch("tool:pre", {"tool_name": "bash"}))
    backend = open_store(store)
    try:
        rows = await until_pending(backend)
        assert [row.session_id for row in rows] == ["claude-session-7"]
        await backend.answer(rows[0].id, "Allow", "test@console")
        assert (await asking).allowed
    finally:
        await backend.aclose()
        await coordinator.cleanup()
