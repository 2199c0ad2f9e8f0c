"""A replay changes nothing: an "Allow always" answered in the replay app is kept for that
replay only, never written to the person's approval store, so the next replay asks again;
``--store`` or ``--live`` keep it, and the header says where and how to undo it."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from amplifier_hooks.approvals import ApprovalStore, default_store_path
from amplifier_hooks.bundles import load_bundle
from amplifier_hooks.cli import main
from amplifier_hooks.cli.run import build_app
from amplifier_hooks.cli.session import DEFAULT_BUNDLE, DEMO_TRACE
from amplifier_hooks.cli.trace_files import read_trace
from amplifier_hooks.cli.widgets import NoteLog
from amplifier_hooks.ui.approval_app import TextualApprovalProvider

TRACE = read_trace(DEMO_TRACE)


async def until(pilot: Pilot[Any], check: Callable[[], bool], timeout: float = 45.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "condition not reached in time"
        await pilot.pause(0.01)


async def first_question_always(store: str | None, live: bool = False) -> tuple[str, str]:
    """Run the replay app (as `make run` does: no --store) until its first question,
    answer "Allow always", quit; the question and the app's first log line."""
    app, coordinator = await build_app(
        TRACE, load_bundle(DEFAULT_BUNDLE), approvals=None, store=store, delay=0, guard=0,
        live=live,
    )  # fmt: skip
    provider = coordinator.approvals.provider
    assert isinstance(provider, TextualApprovalProvider)
    try:
        async with app.run_test(size=(150, 45)) as pilot:
            await until(pilot, lambda: provider.current is not None and provider.current.armed)
            screen = provider.current
            assert screen is not None
            prompt = screen.request.prompt
            await pilot.press("l")  # Allow always
            await until(pilot, lambda: provider.current is not screen)
            header = " ".join(n.plain for n in app.query_one("#log", NoteLog).notes)
            await pilot.press("q")
            await until(pilot, lambda: not app.is_running)
    finally:
        await coordinator.cleanup()
    assert "Allow" in prompt
    return prompt, header


async def test_an_always_answer_in_a_replay_is_not_kept_and_the_next_replay_asks_again() -> None:
    state = default_store_path()
    first, header = await first_question_always(None)
    assert "answers: kept for this replay only: nothing is written to your approval store" in (
        header
    )
    assert not state.exists()  # nothing created, nothing remembered
    again, _ = await first_question_always(None)
    assert again == first  # asked again: not "remembered"


async def test_with_store_the_answer_is_kept_and_the_header_says_how_to_undo_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(tmp_path / "approvals.db")
    _, header = await first_question_always(path)
    assert (
        f"answers: 'always' answers are kept in {path}; undo one with: "
        f"amplifier-hooks approvals forget KEY --store {path}"
    ) in header
    store = ApprovalStore(path)
    try:
        [kept] = await store.list_remembered()
    finally:
        store.close()
    assert kept.key.startswith("guard:")  # the default bundle's guard asked


def test_the_report_says_where_answers_go(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--no-tui"]) == 0
    out = capsys.readouterr().out
    assert "answers: kept for this replay only" in " ".join(out.split())
    assert not default_store_path().exists()
