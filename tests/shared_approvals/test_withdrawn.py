"""A question whose session ends (or is interrupted) while it waits is withdrawn: the
approver's list loses it, and an answer to it says nobody waits any more (exit 1), instead
of "answered" with nobody to apply it. On the SQLite queue store, through a coordinator
built from a bundle as a hook server builds one per session."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from amplifier_hooks.approvals import open_store
from amplifier_hooks.cli import main as cli_main
from amplifier_hooks.session.coordinator import Coordinator
from tests.shared_approvals.queued import queue_bundle, until_pending


@pytest.mark.parametrize("how", ["session ended", "interrupted"])
async def test_a_question_of_a_session_that_ended_is_withdrawn(
    tmp_path: Path, how: str, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "approvals.db"
    coordinator = await Coordinator.from_bundle(queue_bundle(tmp_path, store))
    call = {"tool_name": "bash", "tool_input": {"command": "make deploy"}}
    asking = asyncio.ensure_future(coordinator.dispatch("tool:pre", call))
    approver = open_store(str(store))
    try:
        [row] = await until_pending(approver)
        if how == "interrupted":
            asking.cancel()  # the hook call went away (Claude Code interrupted)
        await coordinator.cleanup()  # the session is over
        if how == "session ended":
            outcome = await asking
            assert not outcome.allowed
        else:
            with pytest.raises(asyncio.CancelledError):
                await asking
        # The approver's list no longer shows it; its row says why.
        assert [r.id for r in await approver.list_pending()] == []
        gone = await approver.pending(row.id)
        assert gone is not None and (gone.status, gone.outcome) == ("expired", "withdrawn")
    finally:
        await approver.aclose()
    capsys.readouterr()
    code = await asyncio.to_thread(
        cli_main, ["approve", str(row.id), "--allow", "--store", str(store)]
    )
    out, err = capsys.readouterr()
    assert code == 1
    assert out == ""
    assert err == (
        f"request {row.id} is no longer waiting: its session ended or was interrupted "
        "before an answer; this answer was not applied\n"
    )


async def test_the_approver_console_sees_a_withdrawn_question_go(tmp_path: Path) -> None:
    from amplifier_hooks.cli.approve_app import ApproverApp

    store = tmp_path / "approvals.db"
    coordinator = await Coordinator.from_bundle(queue_bundle(tmp_path, store))
    call = {"tool_name": "bash", "tool_input": {"command": "make deploy"}}
    asking = asyncio.ensure_future(coordinator.dispatch("tool:pre", call))
    app = ApproverApp(open_store(str(store)), approver="alice@console", guard=0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        while len(app.rows) != 1:  # the console's own watch finds it
            app.refreshed.clear()
            await app.refreshed.wait()
        await coordinator.cleanup()
        assert not (await asking).allowed
        while app.rows:  # ... and sees it go, with no key pressed
            app.refreshed.clear()
            await app.refreshed.wait()
        await pilot.pause()
        assert app.table.row_count == 0


async def test_an_empty_console_says_what_it_waits_for_and_how_to_queue_a_question(
    tmp_path: Path,
) -> None:
    from amplifier_hooks.cli.approve_app import ApproverApp

    store = str(tmp_path / "approvals.db")
    app = ApproverApp(open_store(store), approver="alice@console", guard=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.refreshed.clear()
        await app.refreshed.wait()
        await pilot.pause()
        assert app.detail.display
        shown = " ".join(str(app.detail.render()).split())
        assert shown.startswith("Nothing waiting. Questions appear here as agents ask them")
        assert "session.approvals.provider: queue" in shown
        assert f"amplifier-hooks run --no-tui --approvals queue --store {store}" in shown
