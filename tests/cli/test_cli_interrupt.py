"""Ctrl+C means one thing everywhere: quit, as q does, with the exit code of an interrupted
command (130) and one line saying what was left -- in the replay app (also with a question
open), in the approver's console (also with a question open), and in ``run --no-tui``.
Quitting the app after the replay's end prints the report's summary."""

from __future__ import annotations

import asyncio
import io
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from amplifier_hooks.approvals import open_store
from amplifier_hooks.bundles import load_bundle
from amplifier_hooks.cli.approve_app import ApproverApp
from amplifier_hooks.cli.run import build_app, say_goodbye
from amplifier_hooks.cli.session import DEFAULT_BUNDLE, DEMO_TRACE
from amplifier_hooks.cli.trace_files import read_trace
from amplifier_hooks.ui.approval_screen import ApprovalScreen

TRACE = read_trace(DEMO_TRACE)
TOTAL = len(TRACE.events)


async def until(pilot: Pilot[Any], check: Callable[[], bool], timeout: float = 45.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "condition not reached in time"
        await pilot.pause(0.01)


def test_ctrl_c_in_run_no_tui_says_what_was_replayed(tmp_path: Path) -> None:
    """A real SIGINT to the process, sent while the replay waits on a queued question (so
    the moment is known, not guessed)."""
    store = tmp_path / "approvals.db"
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "COLUMNS": "120"}
    env["AMPLIFIER_HOOKS_LOG"] = str(tmp_path / "events.jsonl")
    command = [sys.executable, "-m", "amplifier_hooks.cli", "run", "--no-tui"]
    process = subprocess.Popen(
        [*command, "--approvals", "queue", "--store", str(store)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )

    async def queued() -> int:
        while not store.exists():  # noqa: ASYNC110  # a file appearing: nothing to wait on
            await asyncio.sleep(0.05)
        backend = open_store(str(store))
        try:
            while not (rows := await backend.list_pending()):
                await backend.wait_for_change(None, 1.0)
            return rows[0].id
        finally:
            await backend.aclose()

    try:
        ident = asyncio.run(asyncio.wait_for(queued(), 90))
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=90)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    [line] = err.splitlines()
    found = re.fullmatch(rf"Replay interrupted: (\d+) of {TOTAL} events replayed\.", line)
    assert found, err
    replayed = int(found.group(1))
    assert 0 < replayed < TOTAL
    assert re.search(rf"^ *{replayed}  ", out, re.MULTILINE)  # the report so far: stdout

    # Nobody waits for the queued question any more: it is withdrawn, not left pending.
    async def row() -> Any:
        backend = open_store(str(store))
        try:
            return await backend.pending(ident)
        finally:
            await backend.aclose()

    gone = asyncio.run(row())
    assert (gone.status, gone.outcome) == ("expired", "withdrawn")


async def _replay_at_80x24(approvals: str | None, wait: Callable[[Any], bool], key: str) -> str:
    """Run the replay app at 80x24 until ``wait(app)``, press ``key``, and return the
    exit code and what it says once the terminal is back (`say_goodbye`)."""
    app, coordinator = await build_app(
        TRACE,
        load_bundle(DEFAULT_BUNDLE),
        approvals=approvals,  # type: ignore[arg-type]
        store=":memory:",
        delay=0,
        guard=0,
    )
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: wait(app))
            await pilot.press(key)
            await until(pilot, lambda: not app.is_running)
    finally:
        await coordinator.cleanup()
    said = io.StringIO()
    say_goodbye(app, said)
    return f"{app.return_code}\n{said.getvalue()}"


def _asking(app: Any) -> bool:
    """A question is on screen, armed, and its hint names Ctrl+C."""
    screen = app.screen
    if not (isinstance(screen, ApprovalScreen) and screen.armed):
        return False
    assert "q or Ctrl+C: quit (denies)" in str(screen.query_one("#hint").render())
    return True


async def test_ctrl_c_in_the_replay_app_with_a_question_open_quits_and_says_so() -> None:
    code, said = (await _replay_at_80x24(None, _asking, "ctrl+c")).split("\n", 1)
    assert code == "130"
    assert said.startswith("Replay interrupted: ")
    assert "was denied: it had no answer." in said


async def test_quitting_the_replay_app_after_the_end_prints_the_summary() -> None:
    code, text = (await _replay_at_80x24("deny", lambda app: app.done, "q")).split("\n", 1)
    assert code == "0"
    assert "Summary" in text and f"events              {TOTAL}" in text
    assert "outcomes" in text and "approvals" in text


async def _console_with_one_question(tmp_path: Path) -> tuple[ApproverApp, Any, int]:
    store = str(tmp_path / "approvals.db")
    backend = open_store(store)
    from amplifier_hooks.approvals import ApprovalRequest

    request = ApprovalRequest(
        prompt="Deploy?", options=["Allow", "Deny"], timeout=300, event="tool:pre",
        source="guard", workspace="/w",
    )  # fmt: skip
    ident = await backend.enqueue(request, session_id="s", host="h", deadline=time.time() + 300)
    return ApproverApp(open_store(store), approver="me", guard=0.0), backend, ident


async def _listed(app: ApproverApp) -> None:
    """Until the console's own watch has read the one queued request."""
    while len(app.rows) != 1:
        app.refreshed.clear()
        await app.refreshed.wait()


async def test_ctrl_c_in_the_approver_console_quits_and_says_what_stays_waiting(
    tmp_path: Path,
) -> None:
    app, backend, ident = await _console_with_one_question(tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await _listed(app)
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)
        assert app.return_code == 130
        assert app.stop_note == (
            "Approver console interrupted: 1 request still waiting "
            "(each waits for another approver or its deadline)."
        )
        row = await backend.pending(ident)
        assert row is not None and row.status == "pending"  # nothing answered
    finally:
        await backend.aclose()


async def test_ctrl_c_in_the_approver_console_with_a_question_open(tmp_path: Path) -> None:
    app, backend, ident = await _console_with_one_question(tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await _listed(app)
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
            screen = app.screen
            assert isinstance(screen, ApprovalScreen)
            await until(pilot, lambda: screen.armed)
            assert "q or Ctrl+C: quit (it stays waiting)" in str(screen.query_one("#hint").render())
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)
        assert app.return_code == 130
        assert app.stop_note is not None
        assert f"request #{ident}, open on screen, was not answered" in app.stop_note
        row = await backend.pending(ident)
        assert row is not None and row.status == "pending"
    finally:
        await backend.aclose()
