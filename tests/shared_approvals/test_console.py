"""The approver's console (Textual pilot): lists every agent's requests, answers through
the same approval modal as the replay app, loses the race gracefully, survives restarts."""

from __future__ import annotations

import asyncio
import html
import re
import time
from pathlib import Path

import pytest
from textual.pilot import Pilot

from amplifier_hooks.approvals import (
    ApprovalBackend,
    ApprovalGate,
    ApprovalRequest,
    QueueApprovalProvider,
    open_store,
)
from amplifier_hooks.cli.approve_app import ApproverApp
from amplifier_hooks.engine.resolution import ApprovalAsk
from amplifier_hooks.ui.approval_screen import ApprovalScreen


def _request(prompt: str, timeout: float = 300.0) -> ApprovalRequest:
    return ApprovalRequest(
        prompt=prompt, options=["Allow", "Deny"], timeout=timeout, event="tool:pre",
        source="guard", workspace="/w", details={"command": "make"},
    )  # fmt: skip


async def _queue(backend: ApprovalBackend, prompt: str, host: str, left: float) -> int:
    return await backend.enqueue(
        _request(prompt), session_id=f"s-{host}", host=host, deadline=time.time() + left
    )


async def _listed(app: ApproverApp, pilot: Pilot[None], count: int) -> None:
    while len(app.rows) != count:
        app.refreshed.clear()
        app.action_refresh()
        await app.refreshed.wait()
    await pilot.pause()


async def _modal(app: ApproverApp, pilot: Pilot[None]) -> ApprovalScreen:
    while not (isinstance(app.screen, ApprovalScreen) and app.screen.armed):
        await pilot.pause(0.01)
    assert isinstance(app.screen, ApprovalScreen)
    return app.screen


async def test_the_console_lists_every_agent_and_answers_one(either_store: str) -> None:
    backend = open_store(either_store)
    agent = ApprovalGate(QueueApprovalProvider(either_store, session_id="agent-1"), backend)
    ask = ApprovalAsk(
        source="guard", prompt="Deploy?", options=["Allow", "Deny"], timeout=300, default="deny"
    )
    asking = asyncio.ensure_future(agent.decide(ask, "tool:pre", {"command": "make deploy"}))
    while not await backend.list_pending():  # the agent's request is in, first
        await backend.wait_for_change(None, 1.0)
    await _queue(backend, "Other agent, far deadline", "build-2", 900)
    app = ApproverApp(open_store(either_store), approver="alice@console", guard=0.0)
    async with app.run_test(size=(120, 30)) as pilot:
        await _listed(app, pilot, 2)
        assert [r.prompt for r in app.rows] == ["Other agent, far deadline", "Deploy?"]
        await pilot.press("o")  # nearest deadline first
        while app.rows[0].prompt != "Deploy?":
            app.refreshed.clear()
            await app.refreshed.wait()
        assert app.selected is not None and app.selected.prompt == "Deploy?"
        await pilot.press("enter")
        screen = await _modal(app, pilot)
        assert screen.request.prompt == "Deploy?" and screen.request.details["command"]
        await pilot.press("a")  # Allow: the same shortcut as in the replay app
        decision = await asyncio.wait_for(asking, 30)
        assert (decision.allowed, decision.choice) == (True, "Allow")
        await _listed(app, pilot, 1)
        assert any("answered 'Allow'" in m for m in app.messages)
    row = await backend.pending(decision_id(agent))
    assert row is not None and row.answered_by == "alice@console"
    await agent.aclose()
    await backend.aclose()


def decision_id(gate: ApprovalGate) -> int:
    provider = gate.provider
    assert isinstance(provider, QueueApprovalProvider) and provider.last_id is not None
    return provider.last_id


async def test_two_consoles_one_winner_the_other_shows_who(pg_url: str) -> None:
    backend = open_store(pg_url)
    ident = await _queue(backend, "Drop the table?", "db-1", 600)
    first = ApproverApp(open_store(pg_url), approver="alice@a", guard=0.0)
    second = ApproverApp(open_store(pg_url), approver="bob@b", guard=0.0)
    async with first.run_test() as one, second.run_test() as two:
        await _listed(first, one, 1)
        await _listed(second, two, 1)
        await one.press("enter")
        await two.press("enter")
        await _modal(first, one)
        await _modal(second, two)
        await two.press("d")  # bob denies first...
        while not any("answered 'Deny'" in m for m in second.messages):
            await two.pause(0.01)
        # ...and alice's open question is withdrawn, saying who answered.
        while not any("by bob@b" in m for m in first.messages):
            first.action_refresh()
            await one.pause(0.02)
        assert not isinstance(first.screen, ApprovalScreen)
    row = await backend.pending(ident)
    assert row is not None and (row.choice, row.answered_by) == ("Deny", "bob@b")
    await backend.aclose()


async def test_a_late_click_in_a_second_console_is_not_applied(pg_url: str) -> None:
    backend = open_store(pg_url)
    ident = await _queue(backend, "Push to main?", "ci-3", 600)
    app = ApproverApp(open_store(pg_url), approver="alice@a", guard=0.0)
    async with app.run_test() as pilot:
        await _listed(app, pilot, 1)
        await pilot.press("enter")
        await _modal(app, pilot)
        assert (await backend.answer(ident, "Allow", "carol@c")).won
        await pilot.press("d")  # alice answers before her console has seen carol's answer
        while not any("carol@c" in m for m in app.messages):
            await pilot.pause(0.01)
        assert any(m.startswith("not applied") or "by carol@c" in m for m in app.messages)
    row = await backend.pending(ident)
    assert row is not None and (row.choice, row.answered_by) == ("Allow", "carol@c")
    await backend.aclose()


async def test_restarting_the_console_loses_nothing(pg_url: str) -> None:
    backend = open_store(pg_url)
    for n in range(3):
        await _queue(backend, f"Question {n}?", f"host-{n}", 600)
    for _ in range(2):  # the second console sees exactly what the first did
        app = ApproverApp(open_store(pg_url), approver="alice@a", guard=0.0)
        async with app.run_test() as pilot:
            await _listed(app, pilot, 3)
            assert [r.prompt for r in app.rows] == ["Question 2?", "Question 1?", "Question 0?"]
    await backend.aclose()


async def test_the_console_answers_agent_processes(pg_url: str) -> None:
    """Two agent processes ask at once; the approver answers both in the console."""
    from .test_queue import collect_agents, spawn_agents

    agents = spawn_agents(pg_url, count=2, questions=1)
    app = ApproverApp(open_store(pg_url), approver="alice@console", guard=0.0)
    try:
        async with app.run_test(size=(120, 30)) as pilot:
            await _listed(app, pilot, 2)
            assert {r.session_id for r in app.rows} == {"agent0", "agent1"}
            for key in ("a", "d"):  # allow the newest, deny the other
                await pilot.press("enter")
                await _modal(app, pilot)
                await pilot.press(key)
                while isinstance(app.screen, ApprovalScreen):
                    await pilot.pause(0.01)
                await _listed(app, pilot, 1 if key == "a" else 0)
        results = await collect_agents(agents)
    finally:
        for agent in agents:
            if agent.poll() is None:
                agent.kill()
    assert sorted((r["allowed"], r["choice"]) for r in results) == [
        (False, "Deny"),
        (True, "Allow"),
    ]


async def test_the_queue_refreshes_while_the_approval_modal_is_open(either_store: str) -> None:
    """A request arriving while the approver reads another used to crash the console: the
    refresh looked its list up on the active screen, which was the modal."""
    backend = open_store(either_store)
    await _queue(backend, "First?", "ci-1", 600)
    app = ApproverApp(open_store(either_store), approver="alice@a", guard=0.0)
    async with app.run_test() as pilot:
        await _listed(app, pilot, 1)
        await pilot.press("enter")
        await _modal(app, pilot)
        await _queue(backend, "Second?", "ci-2", 600)
        await _listed(app, pilot, 2)  # refreshes with the modal still on top
        assert isinstance(app.screen, ApprovalScreen) and app.is_running
        assert app.table.row_count == 2
    await backend.aclose()


# -- 80x24, as a new approver meets it ------------------------------------------------------

COMMAND = "python -m pytest -q tests/test_calc.py && git push origin main"
WORKSPACE = "/home/ada/src/projects/calculator-service"


async def _queue_bash(backend: ApprovalBackend, session: str, host: str) -> int:
    """A request as the ah-approval module words it: the command on a line of its own."""
    request = ApprovalRequest(
        prompt=f"Allow bash to run this command?\n{COMMAND}",
        options=["Allow once", "Allow always", "Deny"], timeout=300, event="tool:pre",
        source="approval_rules", workspace=WORKSPACE, remember_scope=WORKSPACE,
        details={"tool": "bash", "command": COMMAND},
    )  # fmt: skip
    return await backend.enqueue(request, session_id=session, host=host, deadline=time.time() + 300)


def _on_screen(app: ApproverApp) -> str:
    """The text of the whole screen as drawn (from the SVG Textual exports)."""
    svg = app.export_screenshot()
    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


@pytest.mark.parametrize("key", ["q", "ctrl+q"])
async def test_at_80x24_the_console_shows_the_command_and_who_asks_and_quitting_answers_nothing(
    tmp_path: Path, key: str
) -> None:
    store = str(tmp_path / "approvals.db")
    backend = open_store(store)
    first = await _queue_bash(backend, "agent-0c81f2", "build-2")
    second = await _queue_bash(backend, "agent-9d3e11", "laptop-ada")
    app = ApproverApp(open_store(store), approver="alice@console", guard=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _listed(app, pilot, 2)
        # The footer names Enter, the key that answers.
        keys = {k: b.binding.description for k, b in app.screen.active_bindings.items()}
        assert keys["enter"] == "Answer"
        assert app.screen.active_bindings["enter"].binding.show
        # The command is what the list shows of each request, cut in the middle at most,
        # between whole words.
        cell = app.table.get_row(str(second))[3].plain
        head, mark, tail = cell.partition("…")
        assert mark and head.startswith("bash: python") and COMMAND.endswith(tail)
        whole = f"bash: {COMMAND}"
        assert whole.startswith(head) and whole[len(head)] == " "
        assert head.strip() and tail.strip()
        # Below the list, the selected request whole: the prompt's line break a real one.
        drawn = _on_screen(app)
        assert "Allow bash to run this command?\n" in drawn and "\\x0a" not in drawn
        assert COMMAND in drawn and WORKSPACE in drawn
        assert f"#{second} · session agent-9d3e11 · host laptop-ada" in drawn

        await pilot.press("enter")
        screen = await _modal(app, pilot)
        drawn = _on_screen(app)
        # Two agents' identical questions told apart: the id, session and host.
        assert f"#{second} · session agent-9d3e11 · host laptop-ada" in drawn
        assert "agent-0c81f2" not in drawn.split("Approval required", 1)[1].split("Denies")[0]
        hint = str(screen.query_one("#hint").render())
        assert hint.endswith("q or Ctrl+C: quit (it stays waiting)")

        await pilot.press(key)
        while app.is_running:
            await pilot.pause(0.01)
    # ... as the hint said: quitting answered nothing, both still wait for an approver.
    rows = {r.id: r for r in await backend.list_pending()}
    assert set(rows) == {first, second}
    assert all(r.status == "pending" and r.choice is None for r in rows.values())
    await backend.aclose()
