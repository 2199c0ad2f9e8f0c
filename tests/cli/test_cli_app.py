"""The Textual replay app, driven by a pilot on the demo trace with approvals answered
through the modal screen."""

from __future__ import annotations

import html
import io
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import DataTable, Label, Static

from amplifier_hooks.bundles import load_bundle
from amplifier_hooks.cli.app import ReplayApp
from amplifier_hooks.cli.run import build_app
from amplifier_hooks.cli.session import DEFAULT_BUNDLE, DEMO_TRACE
from amplifier_hooks.cli.store_check import STORE_DOWN
from amplifier_hooks.cli.trace_files import read_trace
from amplifier_hooks.cli.widgets import CALL_MIN_WIDTH, COLUMNS, DetailPane, EventTable, NoteLog
from amplifier_hooks.ui.approval_app import TextualApprovalProvider
from amplifier_hooks.ui.approval_screen import ApprovalScreen

TRACE = read_trace(DEMO_TRACE)
SIZE = (150, 45)


async def until(pilot: Pilot[Any], check: Callable[[], bool], timeout: float = 45.0) -> None:
    """Wait for ``check`` to hold; the timeout only bounds a failure (a loaded machine may
    take seconds to do what an idle one does at once), inside pytest-timeout's 60 s."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        await pilot.pause(0.01)


def text_of(renderable: Any) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=100, color_system=None).print(renderable)
    return buffer.getvalue()


def row(app: ReplayApp, index: int) -> dict[str, str]:
    table: DataTable[Any] = app.query_one("#events", DataTable)
    cells = table.get_row_at(index - 1)
    return dict(zip(("#", "event", "outcome", "by", "call"), (c.plain for c in cells), strict=True))


def command_of(index: int) -> str:
    return str(TRACE.events[index - 1].data["tool_input"].get("command", ""))


async def test_approvals_are_answered_on_the_modal_and_outcomes_fill_the_table() -> None:
    bundle = load_bundle(DEFAULT_BUNDLE)
    app, coordinator = await build_app(
        TRACE, bundle, approvals=None, store=":memory:", delay=0, guard=0
    )
    provider = coordinator.approvals.provider
    assert isinstance(provider, TextualApprovalProvider)
    # The guard lets the shell commands through (tests, git status, git commit) and asks
    # twice: allow reading deploy/secrets.yaml once, deny the write outside the workspace.
    answers = {
        "secrets.yaml": "a",
        "pytest.ini": "d",
    }
    asked: list[str] = []
    try:
        async with app.run_test(size=SIZE) as pilot:
            while not app.done:

                def question_or_done() -> bool:
                    screen = provider.current
                    ready = screen is not None and screen.armed and app.screen is screen
                    return ready or app.done

                await until(pilot, question_or_done)
                screen = provider.current
                if screen is None or app.done:
                    break
                prompt = screen.request.prompt
                key = next(k for text, k in answers.items() if text in prompt)
                asked.append(prompt)
                await pilot.press(key)
                await until(pilot, lambda s=screen: provider.current is not s)  # type: ignore[misc]

            assert app.error is None
            table: DataTable[Any] = app.query_one("#events", DataTable)
            assert table.row_count == len(TRACE.events)
            bash = [s.index for s in app.steps if s.summary.startswith("bash:")]
            bash = [i for i in bash if app.steps[i - 1].event == "tool:pre"]
            assert len(asked) == 2
            assert len(bash) == 4
            for index in bash:
                assert row(app, index)["outcome"] == "allowed", command_of(index)
                assert not app.steps[index - 1].approvals
                assert row(app, index + 1)["outcome"] == "allowed"  # its tool:post ran
            env = next(s.index for s in app.steps if s.summary == "read_file: deploy/secrets.yaml")
            assert row(app, env)["outcome"] == "asked → allowed"
            assert app.steps[env - 1].approvals[0].via == "person"
            write = next(s.index for s in app.steps if s.summary.startswith("write_file: ../"))
            assert (row(app, write)["outcome"], row(app, write)["by"]) == (
                "asked → denied",
                "guard",
            )
            assert row(app, write + 1)["outcome"] == "skipped"
            redacted = [s.index for s in app.steps if s.outcome == "modified"]
            assert redacted and all(row(app, i)["by"] == "redact_secrets" for i in redacted)

            # Selecting the row with the progress monitor's nudge shows it in the detail
            # pane, and the gauge shows that turn's budget.
            nudge = next(s for s in app.steps if s.injected)
            table.focus()
            table.move_cursor(row=nudge.index - 1)
            detail_widget = app.query_one("#detail", Static)
            await until(pilot, lambda: f"#{nudge.index} " in text_of(detail_widget.content))
            detail = text_of(detail_widget.content)
            assert "Injected context" in detail and "Progress note" in detail
            assert "progress-monitor:tool-post" in detail
            gauge = str(app.query_one("#budget-label", Label).content)
            assert f"Turn 1 injection budget: {nudge.injected[0].tokens}/10,000 tokens" in gauge

            await pilot.press("q")
        assert app.return_code == 0
    finally:
        await coordinator.cleanup()


async def test_pause_and_step_replay_one_event_at_a_time() -> None:
    bundle = load_bundle(DEFAULT_BUNDLE)
    app, coordinator = await build_app(TRACE, bundle, approvals="allow", store=":memory:", delay=0)
    app.paused = True  # paused before the first event
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.05)
            assert app.steps == []
            assert "paused" in app.sub_title
            await pilot.press("n")
            await until(pilot, lambda: len(app.steps) == 1)
            await pilot.press("n")
            await until(pilot, lambda: len(app.steps) == 2)
            await pilot.pause(0.05)
            assert len(app.steps) == 2
            # The stepped event is selected and shown.
            assert app.query_one("#events", DataTable).cursor_row == 1
            detail = text_of(app.query_one("#detail", Static).content)
            assert f"#2 {TRACE.events[1].event}" in detail
            await pilot.press("space")
            await until(pilot, lambda: app.done)
            assert len(app.steps) == len(TRACE.events)
            assert "done" in app.sub_title
            # No modal was shown: --approvals allow answered every question.
            assert all(a.via == "policy" for s in app.steps for a in s.approvals)
            await pilot.press("q")
        assert app.return_code == 0
    finally:
        await coordinator.cleanup()


@pytest.mark.parametrize("key", ["q", "ctrl+q"])
async def test_q_and_ctrl_q_quit_even_with_a_question_on_screen(key: str) -> None:
    bundle = load_bundle(DEFAULT_BUNDLE)
    app, coordinator = await build_app(
        TRACE, bundle, approvals=None, store=":memory:", delay=0, guard=0
    )
    provider = coordinator.approvals.provider
    assert isinstance(provider, TextualApprovalProvider)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: provider.current is not None and provider.current.armed)
            screen = provider.current
            assert screen is not None
            # q quits here as it does everywhere in the app, and the hint says so.
            hint = str(screen.query_one("#hint", Label).content)
            assert hint.endswith("q or Ctrl+C: quit (denies)")
            await pilot.press(key)
            await until(pilot, lambda: not app.is_running)
        assert app.return_code == 0
        assert len(app.steps) < len(TRACE.events)
        assert app.stop is not None and app.stop.question is screen.request
    finally:
        await coordinator.cleanup()


def shown(widget: Widget) -> list[str]:
    """The text of ``widget`` as drawn on the screen, one string a line."""
    return [strip.text for strip in widget.render_lines(Region(0, 0, *widget.outer_size))]


def words(text: str) -> list[str]:
    return text.split()


async def check_readable(app: ReplayApp, pilot: Pilot[Any], *, wraps: bool = True) -> None:
    """Every column on screen, every call that does not fit cut with a visible `…`, the
    whole budget line and every character of the log."""
    table = app.query_one("#events", EventTable)
    header = shown(table)[0]
    assert words(header) == list(COLUMNS)
    # No column is pushed past the right edge (a sideways scroll would hide it), and the
    # call column takes what the others leave.
    assert table.virtual_size.width == table.scrollable_content_region.width
    width = table.call_width
    assert width >= CALL_MIN_WIDTH
    cut = [s for s in app.steps if cell_len(s.summary) > width]
    assert cut, "the demo trace has calls too long for the column: the test needs one"
    for step in app.steps:
        call = row(app, step.index)["call"]
        assert cell_len(call) <= width
        if step in cut:
            # Cut between words, with a mark: the start and the end of a command or path
            # (or, when no word-bounded start fits beside the end, the longer of the two).
            head, mark, tail = call.partition("…")
            assert mark and (head or tail), call
            assert step.summary.startswith(head) and step.summary.endswith(tail)
        else:
            assert call == step.summary
    # The cut call as drawn, with its `…`, in the row on screen.
    table.move_cursor(row=cut[-1].index - 1)
    cell = row(app, cut[-1].index)["call"]

    def drawn() -> bool:
        return any(cell in line and line.startswith(f" {cut[-1].index} ") for line in shown(table))

    await until(pilot, drawn)

    label = app.query_one("#budget-label", Label)
    budget = str(label.content)
    assert budget.endswith("/10,000 tokens")
    assert words(" ".join(shown(label))) == words(budget)
    # ... and the label itself is not cut by its pane or by the bar beside it.
    assert app.query_one("#side").content_region.contains_region(label.region)
    assert not label.region.overlaps(app.query_one("#budget").region)

    log = app.query_one("#log", NoteLog)
    room = log.scrollable_content_region.width
    if wraps:
        assert any(cell_len(note.plain) > room for note in log.notes), "no note needed wrapping"
    assert all(line.cell_length <= room for line in log.lines)
    # Wrapping moves words to the next line; it never drops a character.
    assert "".join(words("".join(line.text for line in log.lines))) == "".join(
        words("".join(note.plain for note in log.notes))
    )


async def test_80x24_shows_every_column_the_whole_budget_and_every_log_character() -> None:
    bundle = load_bundle(DEFAULT_BUNDLE)
    app, coordinator = await build_app(TRACE, bundle, approvals="allow", store=":memory:", delay=0)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.done)
            await pilot.pause()
            # Narrow: the detail pane is below the table, not beside it.
            assert app.screen.has_class("-narrow")
            table, side = app.query_one("#events"), app.query_one("#side")
            assert side.region.y >= table.region.bottom and side.region.width == 80
            await check_readable(app, pilot)
            await pilot.press("q")
    finally:
        await coordinator.cleanup()


async def test_a_resize_refits_the_columns_and_rewraps_the_log() -> None:
    bundle = load_bundle(DEFAULT_BUNDLE)
    app, coordinator = await build_app(TRACE, bundle, approvals="allow", store=":memory:", delay=0)
    try:
        async with app.run_test(size=(170, 45)) as pilot:
            await until(pilot, lambda: app.done)
            await pilot.pause()
            table, side = app.query_one("#events", EventTable), app.query_one("#side")
            assert side.region.x >= table.region.right  # wide: side by side
            await check_readable(app, pilot, wraps=False)
            wide = table.call_width

            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            await pilot.pause()
            assert app.screen.has_class("-narrow")
            assert table.call_width != wide
            await check_readable(app, pilot)
            await pilot.press("q")
    finally:
        await coordinator.cleanup()


# -- 80x24, as a new user meets it ---------------------------------------------------------


def footer_keys(app: ReplayApp) -> dict[str, tuple[str, bool]]:
    """The keys the footer of the replay's own screen lists: description and enabled."""
    main = app.screen_stack[0]
    return {
        key: (active.binding.description, active.enabled)
        for key, active in main.active_bindings.items()
        if active.binding.show
    }


def on_screen(app: ReplayApp) -> str:
    """The text of the whole screen as drawn (from the SVG Textual exports)."""
    svg = app.export_screenshot()
    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


async def test_at_80x24_the_details_are_one_listed_key_away() -> None:
    bundle = load_bundle(DEFAULT_BUNDLE)
    app, coordinator = await build_app(TRACE, bundle, approvals="allow", store=":memory:", delay=0)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.done)
            assert footer_keys(app)["i"] == ("Details", True)
            # The event whose hook injected context is marked in the table.
            nudge = next(s for s in app.steps if s.injected)
            assert row(app, nudge.index)["outcome"] == "allowed +ctx"
            assert all("+ctx" not in row(app, s.index)["outcome"] for s in app.steps[:3])
            table = app.query_one("#events", EventTable)
            table.move_cursor(row=nudge.index - 1)
            await until(pilot, lambda: f"#{nudge.index} tool:post" in on_screen(app))
            # Below the table the pane has room for the head of the detail only.
            assert "Handlers" not in on_screen(app)

            await pilot.press("i")
            pane = app.query_one("#detail-scroll", DetailPane)
            await until(pilot, lambda: app.focused is pane and not table.display)
            await until(pilot, lambda: "Progress note" in on_screen(app))
            assert "Injected context" in on_screen(app)
            assert pane.region.height >= 14  # the screen less header, gauge and footer
            await pilot.press("end")
            await until(pilot, lambda: "Handlers" in on_screen(app))
            assert "progress-monitor:tool-post" in on_screen(app)

            await pilot.press("i")
            await until(pilot, lambda: bool(table.display) and app.focused is table)
            assert table.cursor_row == nudge.index - 1  # back where the person was
            await pilot.press("q")
        assert app.return_code == 0
    finally:
        await coordinator.cleanup()


async def test_the_detail_pane_shows_when_it_has_the_focus() -> None:
    bundle = load_bundle(DEFAULT_BUNDLE)
    app, coordinator = await build_app(TRACE, bundle, approvals="allow", store=":memory:", delay=0)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.done)
            side, pane = app.query_one("#side"), app.query_one("#detail-scroll", DetailPane)
            before = (side.styles.border_top, pane.styles.background)
            await pilot.press("tab")
            await until(pilot, lambda: app.focused is pane)
            await until(pilot, lambda: (side.styles.border_top, pane.styles.background) != before)
            nudge = next(s for s in app.steps if s.injected)  # a detail taller than the pane
            app.query_one("#events", EventTable).move_cursor(row=nudge.index - 1)
            await until(pilot, lambda: pane.max_scroll_y > 0)
            await pilot.press("pagedown")
            await until(pilot, lambda: pane.scroll_y > 0)
            await pilot.press("q")
    finally:
        await coordinator.cleanup()


def details_key(app: ReplayApp) -> str:
    """The key the footer lists for the details."""
    return next(k for k, (what, _) in footer_keys(app).items() if what == "Details")


async def open_question(pilot: Pilot[Any], app: ReplayApp) -> ApprovalScreen:
    provider = app.replayer.coordinator.approvals.provider
    assert isinstance(provider, TextualApprovalProvider)

    def asked() -> bool:
        screen = provider.current
        return screen is not None and screen.armed and app.screen is screen

    await until(pilot, asked)
    await pilot.pause()
    assert provider.current is not None
    return provider.current


@pytest.mark.parametrize(("key", "code"), [("ctrl+c", 130), ("ctrl+q", 0)])
async def test_at_80x24_a_question_can_be_left_and_the_stop_is_explained(
    key: str, code: int
) -> None:
    bundle = load_bundle(DEFAULT_BUNDLE)
    app, coordinator = await build_app(
        TRACE, bundle, approvals=None, store=":memory:", delay=0, guard=0
    )
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_question(pilot, app)
            number = len(app.steps) + 1
            assert TRACE.events[number - 1].event == "tool:pre"
            # The title counts the event being asked about, not the last one finished.
            title = f"replay {number}/{len(TRACE.events)} · question open"
            await until(pilot, lambda: app.sub_title == title)
            # The dialog says how to get out, and the footer's q does what it says.
            hint = str(screen.query_one("#hint", Label).content)
            assert "q or Ctrl+C: quit (denies)" in hint
            assert footer_keys(app)["q"] == ("Quit", True)
            # The footer's details key is shown disabled, and pressing it answers nothing
            # (it used to be `d`, which the question read as Deny).
            details = details_key(app)
            assert footer_keys(app)[details] == ("Details", False)
            assert details not in screen.shortcut_keys
            await pilot.press(details)
            await pilot.pause()
            assert screen.answer is not None and not screen.answer.done()
            assert app.is_running and app.screen is screen and len(app.steps) == number - 1

            await pilot.press(key)
            await until(pilot, lambda: not app.is_running)
        assert app.return_code == code
        assert app.stop is not None and app.stop.question is screen.request
        note = app.stop.describe()
        verb = "interrupted" if key == "ctrl+c" else "stopped early"
        assert note.startswith(f"Replay {verb}: {number - 1} of {len(TRACE.events)} events")
        assert f"open question on event #{number} (guard: " in note
        assert note.endswith("was denied: it had no answer.")
    finally:
        await coordinator.cleanup()


async def test_the_title_counts_the_event_being_replayed_and_q_quits_after_a_question() -> None:
    bundle = load_bundle(DEFAULT_BUNDLE)
    app, coordinator = await build_app(
        TRACE, bundle, approvals=None, store=":memory:", delay=0, guard=0
    )
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_question(pilot, app)
            number = len(app.steps) + 1
            app.paused = True  # after this event, wait (the keys are the question's now)
            await pilot.press("d")  # Deny
            await until(pilot, lambda: len(app.steps) == number)
            await until(pilot, lambda: app.screen is not screen)
            assert not isinstance(app.screen, ApprovalScreen)
            title = f"replay {number}/{len(TRACE.events)} · paused"
            await until(pilot, lambda: app.sub_title == title)
            assert footer_keys(app)["q"] == ("Quit", True)
            await pilot.press("q")
            await until(pilot, lambda: not app.is_running)
        assert app.return_code == 0
        assert app.stop is not None and app.stop.question is None
        assert app.stop.describe().startswith("Replay stopped early: ")
    finally:
        await coordinator.cleanup()


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_ctrl_c_while_the_app_starts_stops_cleanly(tmp_path: Path) -> None:
    """SIGINT in the moment between the terminal switching to the app and the app taking
    Ctrl+C as a key: no traceback, the usual exit code, and a word on what was done."""
    import fcntl
    import struct
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "AMPLIFIER_HOOKS_LOG": str(tmp_path / "events.jsonl"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "amplifier_hooks.cli", "run", "--approval-store", ":memory:"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        cwd=tmp_path,
        start_new_session=True,
    )
    os.close(slave)
    seen = b""

    def read(until: Callable[[], bool]) -> None:
        nonlocal seen
        deadline = time.monotonic() + 60
        while not until() and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the child closed the terminal
                    return
                if not chunk:
                    return
                seen += chunk

    try:
        read(lambda: b"\x1b[?1049h" in seen)  # the app has the screen
        assert b"\x1b[?1049h" in seen, seen[-500:]
        os.kill(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=60) == 130
        read(lambda: False)  # whatever is left
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        os.close(master)
    text = seen.decode("utf-8", "replace")
    assert "Traceback" not in text and "never awaited" not in text, text[-2000:]
    assert "Replay interrupted: 0 of" in text


def closed_port() -> int:
    """A loopback port where nothing listens (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


async def test_an_unreachable_store_is_said_at_once_with_what_applies() -> None:
    """`make run` with the store on a stopped PostgreSQL sat at "running" for 20 s and then
    denied without a word: the start-up check says so at once, beside the replay."""
    bundle = load_bundle(DEFAULT_BUNDLE)
    url = f"postgresql://nobody@127.0.0.1:{closed_port()}/approvals?connect_timeout=1"
    app, coordinator = await build_app(TRACE, bundle, approvals=None, store=url, delay=0)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await app.store_checked.wait()
            await pilot.pause()
            assert app.store_problem is not None and "127.0.0.1" in app.store_problem
            notes = [n for n in app._notifications if n.severity == "error"]
            assert len(notes) == 1
            assert notes[0].title == "approval store unreachable"
            assert "every question is denied" in notes[0].message
            assert app.sub_title.endswith("· store unreachable")
            log = app.query_one("#log", NoteLog)
            assert any(n.plain.startswith(STORE_DOWN) for n in log.notes)
            # The replay goes on meanwhile: the app never froze on the store.
            assert app.is_running
            await pilot.press("q")
    finally:
        await coordinator.cleanup()


async def test_a_reachable_store_says_nothing() -> None:
    bundle = load_bundle(DEFAULT_BUNDLE)
    app, coordinator = await build_app(TRACE, bundle, approvals="allow", store=":memory:", delay=0)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await app.store_checked.wait()
            await pilot.pause()
            assert app.store_problem is None
            assert not [n for n in app._notifications if n.severity == "error"]
            await pilot.press("q")
    finally:
        await coordinator.cleanup()
