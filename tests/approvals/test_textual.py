"""Pilot tests of the approval screen, its provider and the app runner."""

from __future__ import annotations

import asyncio
import io
import os
import select
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Button, Label, RichLog, Static

from amplifier_hooks.approvals import (
    ApprovalDismissed,
    ApprovalGate,
    ApprovalRequest,
    ApprovalTimeout,
)
from amplifier_hooks.ui.approval_app import (
    ApprovalApp,
    ApprovalUIClosed,
    TextualApprovalProvider,
    run_with_approval_ui,
)
from amplifier_hooks.ui.approval_screen import ApprovalScreen

from .conftest import TOOL_DATA, ask

OPTIONS = ["Allow once", "Allow always", "Deny"]
REQUEST = ApprovalRequest(
    prompt="Allow write to production file?",
    options=OPTIONS,
    timeout=300,
    event="tool:pre",
    source="production_guard",
    details={"tool": "write_file", "path": "/srv/production/app.env"},
)
SIZE = (100, 30)
LONG = 45.0
"""Seconds before a wait is declared hung (inside pytest-timeout's 60 s). Nothing in these
tests depends on time passing: they wait for what they expect to happen, and this only
bounds a failure."""


class Clock:
    """A clock that moves only when the test says, for the screens' countdowns."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


async def until(pilot: Pilot[Any], check: Callable[[], bool], timeout: float = LONG) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        await pilot.pause(0.01)


async def shown(pilot: Pilot[Any], provider: TextualApprovalProvider) -> ApprovalScreen:
    """The screen on top, once it is mounted and accepting answers."""

    def ready() -> bool:
        screen = provider.current
        return (
            screen is not None
            and screen.armed
            and pilot.app.screen is screen
            and all(button.region.width for button in screen.query(Button))  # laid out
        )

    await until(pilot, ready)
    await pilot.pause()
    assert provider.current is not None
    return provider.current


def host(guard: float = 0.0, clock: Clock | None = None) -> ApprovalApp[None]:
    return ApprovalApp(guard=guard, clock=clock or time.monotonic)


def text_of(renderable: object) -> str:
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


async def test_clicking_each_option_answers_with_it() -> None:
    app = host()
    async with app.run_test(size=SIZE) as pilot:
        for index, option in enumerate(OPTIONS):
            task = asyncio.create_task(app.provider.request_approval(REQUEST))
            screen = await shown(pilot, app.provider)
            assert await pilot.click(f"#option-{index}", offset=(2, 1))
            assert await asyncio.wait_for(task, LONG) == option
            await until(pilot, lambda: app.screen is not screen)  # noqa: B023


SHORTCUTS = [
    ("1", "Allow once"),
    ("2", "Allow always"),
    ("3", "Deny"),
    ("a", "Allow once"),
    ("l", "Allow always"),
    ("d", "Deny"),
    ("D", "Deny"),
]


async def test_shortcut_keys_answer() -> None:
    app = host()
    async with app.run_test(size=SIZE) as pilot:
        for key, option in SHORTCUTS:
            task = asyncio.create_task(app.provider.request_approval(REQUEST))
            await shown(pilot, app.provider)
            await pilot.press(key)
            assert await asyncio.wait_for(task, LONG) == option, key


@pytest.mark.parametrize("default", ["deny", "allow"])
async def test_focus_rests_on_deny_so_a_stray_enter_never_approves(default: str) -> None:
    request = REQUEST.model_copy(update={"default": default})
    app = host()
    async with app.run_test(size=SIZE) as pilot:
        task = asyncio.create_task(app.provider.request_approval(request))
        screen = await shown(pilot, app.provider)
        assert app.focused is screen.query_one("#option-2", Button)
        await pilot.press("enter")
        assert await asyncio.wait_for(task, LONG) == "Deny"


@pytest.mark.parametrize(
    ("options", "default", "expected"),
    [(OPTIONS, "deny", "Deny"), (["Allow", "Deny"], "allow", "Allow")],
)
async def test_escape_answers_the_default(options: list[str], default: str, expected: str) -> None:
    request = REQUEST.model_copy(update={"options": options, "default": default})
    app = host()
    async with app.run_test(size=SIZE) as pilot:
        task = asyncio.create_task(app.provider.request_approval(request))
        await shown(pilot, app.provider)
        await pilot.press("escape")
        assert await asyncio.wait_for(task, LONG) == expected


async def test_escape_without_a_default_option_dismisses() -> None:
    request = REQUEST.model_copy(update={"options": ["Allow", "Later"]})
    app = host()
    async with app.run_test(size=SIZE) as pilot:
        task = asyncio.create_task(app.provider.request_approval(request))
        screen = await shown(pilot, app.provider)
        assert "Esc: dismiss (deny)" in str(screen.query_one("#hint", Label).content)
        await pilot.press("escape")
        with pytest.raises(ApprovalDismissed):
            await asyncio.wait_for(task, LONG)


async def test_countdown_follows_the_clock_and_turns_urgent() -> None:
    clock = Clock()
    app = host(clock=clock)
    request = REQUEST.model_copy(update={"timeout": 300, "default": "allow"})
    async with app.run_test(size=SIZE) as pilot:
        task = asyncio.create_task(app.provider.request_approval(request))
        screen = await shown(pilot, app.provider)
        countdown = screen.query_one("#countdown", Label)
        assert str(countdown.content) == "Allows automatically in 5:00 (the default)"
        assert not countdown.has_class("-urgent")
        clock.advance(290.5)
        screen.tick()
        assert str(countdown.content) == "Allows automatically in 0:10 (the default)"
        assert countdown.has_class("-urgent")
        assert not task.done()
        await pilot.press("3")
        assert await asyncio.wait_for(task, LONG) == "Deny"


async def test_the_gate_timeout_applies_the_default_and_takes_the_screen_away() -> None:
    app = host()
    gate = ApprovalGate(app.provider)
    async with app.run_test(size=SIZE) as pilot:
        # The gate's own deadline decides, whether or not the screen was seen in time.
        decision = await asyncio.wait_for(
            gate.decide(ask(options=OPTIONS, timeout=0.2, default="allow"), "tool:pre", {}),
            LONG,
        )
        assert (decision.allowed, decision.via, decision.choice) == (True, "timeout", None)
        await until(pilot, lambda: not isinstance(app.screen, ApprovalScreen))
        assert app.provider.current is None


async def test_no_time_limit_is_said_plainly() -> None:
    app = host()
    async with app.run_test(size=SIZE) as pilot:
        request = REQUEST.model_copy(update={"timeout": float("inf")})
        task = asyncio.create_task(app.provider.request_approval(request))
        screen = await shown(pilot, app.provider)
        countdown = str(screen.query_one("#countdown", Label).content)
        assert countdown == "No time limit: waits for an answer"
        await pilot.press("1")
        assert await asyncio.wait_for(task, LONG) == "Allow once"


async def test_screen_countdown_alone_reports_a_timeout() -> None:
    clock = Clock()
    app = host(clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        task = asyncio.create_task(app.provider.request_approval(REQUEST))
        screen = await shown(pilot, app.provider)
        clock.advance(REQUEST.timeout)
        # No call to tick(): the screen's own ticker notices that the time is up.
        with pytest.raises(ApprovalTimeout):
            await asyncio.wait_for(task, LONG)
        history = app.query_one("#history", RichLog)

        def noted() -> str:
            return "\n".join(line.text for line in history.lines)

        # The app was told it timed out (not that it was dismissed).
        await until(pilot, lambda: "production_guard" in noted())
        assert noted().endswith("— timed out (deny)")
        assert app.screen is not screen


async def test_waiting_requests_are_counted_and_asked_in_order() -> None:
    app = host()
    provider = app.provider
    async with app.run_test(size=SIZE) as pilot:
        tasks = [
            asyncio.create_task(
                provider.request_approval(REQUEST.model_copy(update={"prompt": f"Request {i}?"}))
            )
            for i in range(3)
        ]
        for remaining, key in ((2, "1"), (1, "3"), (0, "2")):
            screen = await shown(pilot, provider)
            await until(pilot, lambda: provider.waiting == remaining)  # noqa: B023
            queue = str(screen.query_one("#queue", Label).content)
            assert queue == (f"{remaining} more waiting" if remaining else "")
            assert screen.request.prompt == f"Request {2 - remaining}?"
            await pilot.press(key)
            await until(pilot, lambda: provider.current is not screen)  # noqa: B023
        answers = await asyncio.wait_for(asyncio.gather(*tasks), LONG)
        assert answers == ["Allow once", "Deny", "Allow always"]


async def test_queue_count_follows_arrivals_and_withdrawals() -> None:
    app = host()
    provider = app.provider
    async with app.run_test(size=SIZE) as pilot:
        first = asyncio.create_task(provider.request_approval(REQUEST))
        screen = await shown(pilot, provider)
        assert str(screen.query_one("#queue", Label).content) == ""
        late = asyncio.create_task(provider.request_approval(REQUEST))
        await until(pilot, lambda: screen.waiting == 1)
        assert str(screen.query_one("#queue", Label).content) == "1 more waiting"
        # The queued request is withdrawn before its turn (as the gate does at its
        # deadline): the count drops again and the screen on top stays.
        late.cancel()
        with pytest.raises(asyncio.CancelledError):
            await late
        await until(pilot, lambda: screen.waiting == 0)
        assert app.screen is screen
        await pilot.press("d")
        assert await asyncio.wait_for(first, LONG) == "Deny"


async def test_early_keypresses_and_clicks_are_ignored() -> None:
    app = host(guard=60.0)  # the guard never ends on its own in this test
    async with app.run_test(size=SIZE) as pilot:
        task = asyncio.create_task(app.provider.request_approval(REQUEST))
        await until(pilot, lambda: app.provider.current is not None)
        screen = app.provider.current
        assert screen is not None
        await until(pilot, lambda: app.screen is screen)
        await pilot.press("1", "a", "enter", "space", "escape", "tab", "enter")
        await pilot.click("#option-0", offset=(2, 1))
        await pilot.pause()
        assert not task.done() and app.screen is screen
        assert all(button.disabled for button in screen.query(Button))
        screen.arm()
        await pilot.pause()
        assert not any(button.disabled for button in screen.query(Button))
        await pilot.press("1")
        assert await asyncio.wait_for(task, LONG) == "Allow once"


async def test_guard_ends_by_itself() -> None:
    # What the guard swallows is shown above (with a guard that never ends); here, that
    # its timer arms the screen without help.
    app = host(guard=0.2)
    async with app.run_test(size=SIZE) as pilot:
        task = asyncio.create_task(app.provider.request_approval(REQUEST))
        await until(pilot, lambda: app.provider.current is not None)
        screen = app.provider.current
        assert screen is not None
        await until(pilot, lambda: screen.armed)
        assert not any(button.disabled for button in screen.query(Button))
        await pilot.press("2")
        assert await asyncio.wait_for(task, LONG) == "Allow always"


async def test_screen_shows_prompt_event_handler_and_details_literally() -> None:
    request = REQUEST.model_copy(
        update={
            "prompt": "[b]Run[/b] this? \x1b[2J",
            "reason": "touches production",
            "details": {"tool": "bash", "command": "[red]rm[/red] -rf build"},
        }
    )
    app = host()
    async with app.run_test(size=SIZE) as pilot:
        task = asyncio.create_task(app.provider.request_approval(request))
        screen = await shown(pilot, app.provider)
        prompt = str(screen.query_one("#prompt", Static).content)
        assert prompt == "[b]Run[/b] this? \\x1b[2J"
        details = text_of(screen.query_one("#details", Static).content)
        for expected in (
            "Event    tool:pre",
            "Handler  production_guard",
            "Tool     bash",
            "Command  [red]rm[/red] -rf build",
            "Reason   touches production",
        ):
            assert expected in details
        labels = [str(b.label) for b in screen.query(Button)]
        assert labels == ["1 Allow once", "2 Allow always", "3 Deny"]
        hint = str(screen.query_one("#hint", Label).content)
        assert hint == "1-3 or a/l/d to choose · Esc: Deny · Ctrl+Q: quit (denies)"
        task.cancel()


async def test_cancelled_request_is_taken_off_the_screen() -> None:
    app = host()
    async with app.run_test(size=SIZE) as pilot:
        task = asyncio.create_task(app.provider.request_approval(REQUEST))
        screen = await shown(pilot, app.provider)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await until(pilot, lambda: app.screen is not screen)
        assert app.provider.current is None


async def test_closing_the_app_with_a_question_open_denies() -> None:
    app = host()
    gate = ApprovalGate(app.provider)
    async with app.run_test(size=SIZE) as pilot:
        task = asyncio.create_task(gate.decide(ask(default="allow"), "tool:pre", {}))
        await shown(pilot, app.provider)
    decision = await asyncio.wait_for(task, LONG)
    assert (decision.allowed, decision.via) == (False, "person")
    assert "closed without an answer" in (decision.reason or "")


async def test_provider_without_a_running_app_fails_closed() -> None:
    app = host()  # never run
    gate = ApprovalGate(app.provider)
    decision = await gate.decide(ask(default="allow"), "tool:pre", {})
    assert (decision.allowed, decision.via) == (False, "error")
    assert "not running" in (decision.reason or "")


async def test_approval_app_runs_the_agent_as_a_worker() -> None:
    async def agent(provider: TextualApprovalProvider) -> list[bool]:
        gate = ApprovalGate(provider)
        decisions = await gate.decide_all(
            [ask("first?", OPTIONS), ask("second?", OPTIONS)], "tool:pre", TOOL_DATA
        )
        return [d.allowed for d in decisions]

    app = ApprovalApp(agent, guard=0.0)
    async with app.run_test(size=SIZE) as pilot:
        first = await shown(pilot, app.provider)
        await pilot.press("a")
        await until(pilot, lambda: app.provider.current not in (None, first))
        await pilot.press("d")
        await until(pilot, lambda: app.return_code is not None)
        history = "\n".join(line.text for line in app.query_one("#history", RichLog).lines)
    assert app.agent_result() == [True, False]
    assert "guard: first? — answered 'Allow once'" in history
    assert "guard: second? — answered 'Deny'" in history


async def test_run_with_approval_ui_returns_or_raises_what_the_agent_does() -> None:
    async def answers(provider: TextualApprovalProvider) -> str:
        gate = ApprovalGate(provider)
        pending = asyncio.create_task(gate.decide(ask(timeout=LONG), "tool:pre", {}))
        while not pending.done() and (provider.current is None or not provider.current.armed):
            await asyncio.wait([pending], timeout=0.01)  # bounded by the question's timeout
        assert provider.current is not None and provider.current.choose("Allow")
        return (await pending).reason or ""

    assert (
        await run_with_approval_ui(answers, guard=0, headless=True) == "allowed by the user (Allow)"
    )

    async def fails(provider: TextualApprovalProvider) -> None:
        raise KeyError("agent broke")

    with pytest.raises(KeyError, match="agent broke"):
        await run_with_approval_ui(fails, headless=True)


async def test_an_agent_raising_system_exit_closes_the_app_first() -> None:
    # Escaping the worker, SystemExit would stop the event loop with the terminal still
    # in Textual's hands; instead the app closes and the exit goes on from there.
    async def quits(provider: TextualApprovalProvider) -> None:
        raise SystemExit(4)

    app = ApprovalApp(quits)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.return_code is not None)
    with pytest.raises(SystemExit) as info:
        app.agent_result()
    assert info.value.code == 4


async def test_closing_the_app_before_the_agent_finishes_is_reported() -> None:
    async def slow(provider: TextualApprovalProvider) -> None:
        await asyncio.sleep(30)

    app = ApprovalApp(slow)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.exit()
    with pytest.raises(ApprovalUIClosed):
        app.agent_result()


_INLINE_CHILD = """
import asyncio
from amplifier_hooks.approvals import ApprovalRequest
from amplifier_hooks.ui.approval_app import TextualApprovalProvider

async def main():
    provider = TextualApprovalProvider(guard=0.05)  # no app: a one-shot inline prompt
    request = ApprovalRequest(prompt="Inline question?", options=["Allow", "Deny"],
                              timeout=30, event="tool:pre", source="guard")
    print("ANSWER=" + await provider.request_approval(request), flush=True)

asyncio.run(main())
"""


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_without_an_app_the_provider_asks_inline_in_a_real_terminal() -> None:
    import fcntl
    import struct
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color"}
    proc = subprocess.Popen(
        [sys.executable, "-c", _INLINE_CHILD],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    seen = b""

    def read_until(marker: bytes, timeout: float = LONG) -> None:
        nonlocal seen
        deadline = time.monotonic() + timeout
        while marker not in seen:
            if time.monotonic() > deadline:
                raise AssertionError(f"{marker!r} never appeared; got {seen[-500:]!r}")
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    seen += os.read(master, 65536)
                except OSError as exc:  # the child closed the terminal
                    raise AssertionError(f"{marker!r} never appeared; got {seen[-500:]!r}") from exc

    try:
        read_until(b"Inline question?")
        read_until(b"Esc: Deny")
        # Keys inside the early-keypress guard are dropped, so keep pressing until the
        # answer arrives rather than guessing when the guard has passed.
        deadline = time.monotonic() + LONG
        while time.monotonic() < deadline:
            os.write(master, b"d")
            try:
                read_until(b"ANSWER=Deny", timeout=0.25)
                break
            except AssertionError:
                continue
        assert b"ANSWER=Deny" in seen
        assert proc.wait(timeout=LONG) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        os.close(master)


def test_screenshot_script_renders_the_real_screen(tmp_path: Path) -> None:
    script = Path(__file__).resolve().parents[2] / "scripts" / "screenshot_approval.py"
    output = tmp_path / "approval.svg"
    subprocess.run([sys.executable, str(script), str(output)], check=True, timeout=120)
    svg = output.read_text(encoding="utf-8")
    assert svg.startswith("<svg")
    for words in ("Approval&#160;required", "2&#160;more&#160;waiting", "production_guard"):
        assert words in svg


async def test_at_80x24_a_long_question_scrolls_and_the_buttons_stay_in_view() -> None:
    prompt = "\n".join(f"Line {i} of a long question" for i in range(1, 16))
    request = REQUEST.model_copy(update={"prompt": prompt})
    app = host()
    async with app.run_test(size=(80, 24)) as pilot:
        task = asyncio.create_task(app.provider.request_approval(request))
        screen = await shown(pilot, app.provider)
        whole = screen.region
        for selector in ("#option-0", "#option-1", "#option-2", "#countdown", "#hint"):
            widget = screen.query_one(selector)
            assert whole.contains_region(widget.region), selector
        hint = str(screen.query_one("#hint", Label).content)
        assert "Ctrl+Q: quit (denies)" in hint
        question = screen.query_one("#question")
        assert question.max_scroll_y > 0  # the rest of the question is a scroll away
        await pilot.press("3")
        assert await asyncio.wait_for(task, LONG) == "Deny"


@pytest.mark.parametrize("size", [(80, 24), (140, 45)])
async def test_the_memory_note_and_the_details_show_whole_paths(size: tuple[int, int]) -> None:
    """At 80 columns the note used to stop at "in /home/ada/src/pro", naming a parent
    folder: it wraps now, and so does every detail."""
    workspace = "/home/ada/src/projects/calculator-service/packages/core-engine"
    command = "python -m pytest -q tests/test_calc.py && git push --force origin main"
    request = REQUEST.model_copy(
        update={
            "remember_scope": workspace,
            "workspace": workspace,
            "details": {"tool": "bash", "command": command, "path": workspace + "/setup.cfg"},
        }
    )
    app = host()
    async with app.run_test(size=size) as pilot:
        task = asyncio.create_task(app.provider.request_approval(request))
        screen = await shown(pilot, app.provider)
        note = screen.query_one("#memory", Label)
        await until(pilot, lambda: note.region.height >= 1)
        drawn = [line.text for line in note.render_lines(note.region.reset_offset)]
        # Every word of the note on screen, the path whole on a line of its own if need be.
        assert " ".join(" ".join(drawn).split()) == request.memory_note()
        assert any(workspace in line for line in drawn)
        details = "\n".join(
            line.text
            for line in screen.query_one("#details", Static).render_lines(
                screen.query_one("#details", Static).region.reset_offset
            )
        )
        assert "…" not in details
        assert command.replace(" ", "") in details.replace(" ", "").replace("\n", "")
        await pilot.press("d")
        assert await asyncio.wait_for(task, LONG) == "Deny"


async def test_at_80x24_the_reason_line_is_whole_and_never_behind_the_scrollbar() -> None:
    """The write-outside-the-workspace question of the demo: its reason wraps to a second
    line, and at 80x24 that line used to sit behind the question's scrollbar."""
    request = REQUEST.model_copy(
        update={
            "prompt": "Allow write_file to write outside the workspace?\n"
            "/home/ada/src/calc-shared/pytest.ini",
            "details": {"tool": "write_file", "path": "../calc-shared/pytest.ini"},
            "reason": "writes outside the workspace (/home/ada/src/calc) need approval",
            "remember_scope": "/home/ada/src/calc",
        }
    )
    app = host()
    async with app.run_test(size=(80, 24)) as pilot:
        task = asyncio.create_task(app.provider.request_approval(request))
        screen = await shown(pilot, app.provider)
        await pilot.pause()
        question = screen.query_one("#question")
        assert question.max_scroll_y == 0  # all of it in view: nothing to scroll to
        details = screen.query_one("#details", Static)
        # The details never run under the scrollbar's columns, shown or not.
        assert details.region.right <= question.region.right - 2
        drawn = " ".join(line.text for line in details.render_lines(details.region.reset_offset))
        assert "writes outside the workspace (/home/ada/src/calc) need approval" in " ".join(
            drawn.split()
        )
        for selector in ("#option-0", "#countdown", "#hint"):
            assert screen.region.contains_region(screen.query_one(selector).region), selector
        await pilot.press("3")
        assert await asyncio.wait_for(task, LONG) == "Deny"


async def test_a_fit_queued_before_the_answer_is_harmless_after_the_screen_is_gone() -> None:
    # A resize queues a second fit for after the next refresh; when the answer pops the
    # screen first, that fit finds no widgets and must leave the app running.
    app = host()
    async with app.run_test(size=SIZE) as pilot:
        task = asyncio.create_task(app.provider.request_approval(REQUEST))
        screen = await shown(pilot, app.provider)
        await pilot.press("1")
        assert await asyncio.wait_for(task, LONG) == "Allow once"
        await until(pilot, lambda: not screen.query("#question"))
        screen._fit_question()
        await pilot.pause()
        assert app.is_running
