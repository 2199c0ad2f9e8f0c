"""`ApprovalScreen`: the modal a person answers an approval request on.

Everything shown comes from hooks and event data, which may be hostile or careless, so all
of it is rendered as literal text (never markup) after `clean_text` has made control
characters visible. Keys pressed in the first moments after the screen appears are thrown
away (``guard``), so typing meant for something else cannot approve an operation.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Mapping
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Button, Label, Static

from amplifier_hooks.approvals.models import (
    ApprovalDismissed,
    ApprovalRequest,
    ApprovalTimeout,
    classify_option,
    clean_text,
    pick_option,
)
from amplifier_hooks.ui.choosing import DEFAULT_GUARD, format_remaining, shortcuts

__all__ = ["ApprovalScreen"]

QUESTION_FRAME_ROWS = 14
"""Rows of the dialog around the prompt and details (border, title, buttons, countdown,
hint, margins): what is left of the screen's height is the most the question takes."""
SHORT_SCREEN_ROWS = 30
"""Below this height the dialog drops its spacing margins (three rows), so that on 80x24
the question's details (the reason last) fit without scrolling."""
SHORT_FRAME_ROWS = QUESTION_FRAME_ROWS - 3


def _label(option: str, digit: str | None, letter: str | None) -> Content:
    parts: list[str | tuple[str, str]] = []
    if digit is not None:
        parts.append((f"{digit} ", "bold"))
    at = option.lower().find(letter) if letter else -1
    if at >= 0:
        parts += [option[:at], (option[at], "underline"), option[at + 1 :]]
    else:
        parts.append(option)
    return Content.assemble(*parts)


class ApprovalScreen(ModalScreen[str | None]):
    """Shows one `ApprovalRequest` and returns the chosen option (None: no choice).

    ``answer``, when given, receives the outcome too: the option, `ApprovalTimeout` when the
    countdown reaches zero, or `ApprovalDismissed` if the screen goes away unanswered.
    ``clock`` is what the countdown reads (`time.monotonic` unless a test drives the time);
    ``deadline`` is a reading of it.
    """

    DEFAULT_CSS = """
    ApprovalScreen { align: center middle; }
    ApprovalScreen #dialog {
        width: 90%; max-width: 96; height: auto; max-height: 100%;
        border: round $warning; background: $surface; padding: 0 2;
    }
    ApprovalScreen #title-row { height: 1; margin-top: 1; }
    ApprovalScreen #title { width: 1fr; text-style: bold; color: $warning; }
    ApprovalScreen #queue { width: auto; color: $text-muted; }
    ApprovalScreen #prompt { margin: 1 0; text-style: bold; }
    ApprovalScreen #details { height: auto; }
    ApprovalScreen #question { height: auto; scrollbar-gutter: stable; }
    ApprovalScreen #options { height: auto; margin-top: 1; grid-gutter: 0 1; }
    ApprovalScreen #options Button { width: 100%; }
    ApprovalScreen #memory { width: 100%; color: $text-muted; }
    ApprovalScreen #countdown { margin-top: 1; }
    ApprovalScreen #countdown.-urgent { color: $error; text-style: bold; }
    ApprovalScreen #hint { width: 100%; color: $text-muted; margin-bottom: 1; }
    ApprovalScreen.-short #title-row { margin-top: 0; }
    ApprovalScreen.-short #prompt { margin: 0 0 1 0; }
    ApprovalScreen.-short #countdown { margin-top: 0; }
    ApprovalScreen.-short #hint { margin-bottom: 0; }
    """

    waiting: reactive[int] = reactive(0)
    """How many more requests are queued behind this one."""

    TICK: ClassVar[float] = 0.2
    QUIT_HINT: ClassVar[str | None] = "Ctrl+Q: quit (denies)"
    """How to get out from under the question, shown in the hint line (None: not shown).
    Closing the app answers nothing, so the provider fails the question closed. An app
    that quits otherwise says so in an ``APPROVAL_QUIT_HINT`` attribute of its own, or
    whoever opens the screen passes ``quit_hint``."""
    DISMISS_HINT: ClassVar[str] = "dismiss (deny)"
    """What Escape does when no option means the request's default."""

    class Answered(Message):
        """Posted to the app when the screen closes (choice None: timed out or dismissed)."""

        def __init__(self, request: ApprovalRequest, choice: str | None, timed_out: bool) -> None:
            super().__init__()
            self.request = request
            self.choice = choice
            self.timed_out = timed_out

    def __init__(
        self,
        request: ApprovalRequest,
        *,
        answer: asyncio.Future[str] | None = None,
        waiting: int = 0,
        guard: float = DEFAULT_GUARD,
        deadline: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        context: Mapping[str, str] | None = None,
        quit_hint: str | None = None,
        dismiss_hint: str | None = None,
    ) -> None:
        super().__init__()
        self.request = request
        self.context = dict(context or {})
        """Rows shown above the details: which request this is and who asks (the
        approver's console: the request id, session, host and workspace)."""
        self.quit_hint = quit_hint
        self.dismiss_hint = dismiss_hint or self.DISMISS_HINT
        self.answer = answer
        self.guard = guard
        self.clock = clock
        self.deadline = deadline if deadline is not None else clock() + request.timeout
        """``clock`` value at which the default applies."""
        self.shortcut_keys = shortcuts(request.options)
        self.armed = False
        self._answered = False
        self._ticker: Timer | None = None
        self.set_reactive(ApprovalScreen.waiting, waiting)

    # -- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        request = self.request
        digits = {option: key for key, option in self.shortcut_keys.items() if key.isdigit()}
        letters = {option: key for key, option in self.shortcut_keys.items() if not key.isdigit()}
        with Vertical(id="dialog"):
            with Horizontal(id="title-row"):
                yield Label("Approval required", id="title")
                yield Label(self._queue_text(), id="queue")
            # The question scrolls when the terminal is too short for all of it; the
            # buttons, the countdown and the hint below it always stay in view.
            with VerticalScroll(id="question"):
                yield Static(Content(clean_text(request.prompt, 600, newlines=True)), id="prompt")
                yield Static(self._details(), id="details")
            options = Grid(id="options")
            # Side by side up to three; more wrap onto further rows.
            options.styles.grid_size_columns = min(len(request.options), 3)
            with options:
                for index, option in enumerate(request.options):
                    decision, scope = classify_option(option)
                    variant = {"allow": "success", "deny": "error"}.get(decision or "", "default")
                    if decision == "allow" and scope != "once":
                        variant = "warning"
                    yield Button(
                        _label(option, digits.get(option), letters.get(option)),
                        variant=variant,  # type: ignore[arg-type]  # one of the four above
                        id=f"option-{index}",
                        disabled=True,
                    )
            note = request.memory_note()
            if note:
                yield Label(Content(clean_text(note)), id="memory")
            yield Label(self._countdown_text(), id="countdown")
            yield Label(self._hint_text(), id="hint")

    def _details(self) -> Table:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column(overflow="fold")
        rows = list(self.context.items())
        rows += [("Event", self.request.event), ("Handler", self.request.source)]
        rows += [(k.capitalize(), v) for k, v in self.request.details.items()]
        if self.request.reason:
            rows.append(("Reason", self.request.reason))
        for name, value in rows:
            if value:
                # Wrapped, never cut: a path or command is shown whole (long ones were cut in
                # the middle when the request was made).
                table.add_row(Text(clean_text(name, 40)), Text(clean_text(value, None)))
        return table

    def _queue_text(self) -> str:
        return f"{self.waiting} more waiting" if self.waiting else ""

    def _hint_text(self) -> str:
        count = len(self.request.options)
        numbers = "1" if count == 1 else f"1-{min(count, 9)}"
        letters = "/".join(k for k in self.shortcut_keys if not k.isdigit())
        escape = self.request.default_option
        parts = [f"{numbers} or {letters} to choose" if letters else f"{numbers} to choose"]
        parts.append(f"Esc: {escape}" if escape else f"Esc: {self.dismiss_hint}")
        quit_hint = self.quit_hint
        if quit_hint is None:
            quit_hint = getattr(self.app, "APPROVAL_QUIT_HINT", self.QUIT_HINT)
        if quit_hint:
            parts.append(str(quit_hint))
        return " · ".join(parts)

    def _countdown_text(self) -> str:
        if math.isinf(self.deadline):
            return "No time limit: waits for an answer"
        left = format_remaining(self.deadline - self.clock())
        verb = "Allows" if self.request.default == "allow" else "Denies"
        return f"{verb} automatically in {left} (the default)"

    # -- life cycle ----------------------------------------------------------------------

    def on_mount(self) -> None:
        # The queue may have grown between compose and mount, when the watcher skips.
        self.query_one("#queue", Label).update(self._queue_text())
        self._fit_question_twice()
        self._ticker = self.set_interval(self.TICK, self.tick)
        if self.guard > 0:
            self.set_timer(self.guard, self.arm)
        else:
            self.arm()

    def on_resize(self, event: events.Resize) -> None:
        self._fit_question_twice()

    def _fit_question(self) -> None:
        # Rows the dialog needs besides the question: its border, the title row, the
        # buttons, the countdown and the hint, with their margins; the memory note and
        # the hint wrap on a narrow terminal, and take what they need once laid out.
        # A fit queued after a refresh can run once the screen is answered and its
        # widgets are gone; there is nothing left to fit then.
        found = self.query("#question").results(VerticalScroll)
        question = next(iter(found), None)
        if question is None:
            return
        short = self.size.height < SHORT_SCREEN_ROWS
        self.set_class(short, "-short")
        frame = SHORT_FRAME_ROWS if short else QUESTION_FRAME_ROWS
        for label in self.query("#memory, #hint").results(Label):
            frame += max(0, label.outer_size.height - 1)
        question.styles.max_height = max(3, self.size.height - frame)

    def _fit_question_twice(self) -> None:
        # The labels' heights at a new width are known after the next layout.
        self._fit_question()
        self.call_after_refresh(self._fit_question)

    def on_unmount(self) -> None:
        # Gone without an answer (the app closed, the screen was popped): say so, so the
        # provider fails closed instead of waiting for the timeout's default.
        self._settle(None, ApprovalDismissed("the approval screen closed without an answer"))

    def watch_waiting(self) -> None:
        if self.is_mounted:
            self.query_one("#queue", Label).update(self._queue_text())

    def arm(self) -> None:
        """Start accepting answers (the early-keypress guard has passed)."""
        if self.armed or self._answered:
            return
        self.armed = True
        for button in self.query(Button):
            button.disabled = False
        # Focus rests on a deny option, never on an allow, so a stray Enter cannot approve
        # (Escape, not Enter, is the key that answers the default).
        safe = pick_option(self.request.options, "deny")
        if safe is not None:
            self.query_one(f"#option-{self.request.options.index(safe)}", Button).focus()

    def tick(self) -> None:
        """Update the countdown from the clock; at zero, close with a timeout. Runs every
        `TICK` seconds; a test that moves its clock calls it rather than waiting."""
        if self._answered:
            return
        left = self.deadline - self.clock()
        countdown = self.query_one("#countdown", Label)
        countdown.update(self._countdown_text())
        countdown.set_class(left <= 10, "-urgent")
        if left <= 0:
            self._close(None, ApprovalTimeout(f"no answer within {self.request.timeout:g}s"))

    # -- answering -----------------------------------------------------------------------

    def withdraw(self) -> None:
        """Close without an answer (whoever asked has stopped waiting)."""
        self._close(None, ApprovalDismissed("the approval request was withdrawn"))

    def choose(self, option: str) -> bool:
        """Answer with ``option`` (as a click or shortcut would); False if not accepted now."""
        if not self.armed or self._answered or option not in self.request.options:
            return False
        self._close(option, None)
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        button_id = event.button.id or ""
        if button_id.startswith("option-"):
            self.choose(self.request.options[int(button_id.removeprefix("option-"))])

    def _app_action(self, key: str) -> str | None:
        """The action the app under this screen binds ``key`` to, if it does. A modal
        screen keeps the app's own keys from it (only priority ones pass)."""
        for binding in self.app.BINDINGS:
            keys, action = (
                (binding.key, binding.action) if isinstance(binding, Binding) else binding[:2]
            )
            if key in (k.strip() for k in keys.split(",")):
                return action
        return None

    async def on_key(self, event: events.Key) -> None:
        if event.key == "q" and (quit_action := self._app_action("q")) is not None:
            # q does here what it does everywhere else in the app: quit. Its hint line
            # says what becomes of the question (the app's `APPROVAL_QUIT_HINT`).
            event.stop()
            event.prevent_default()
            await self.app.run_action(quit_action)
            return
        key = event.key if event.key == "escape" else (event.character or event.key).lower()
        if not self.armed:
            # Swallow everything during the guard, including Enter and Tab.
            event.stop()
            event.prevent_default()
            return
        if key == "escape":
            event.stop()
            event.prevent_default()
            default = self.request.default_option
            if default is not None:
                self.choose(default)
            else:
                self._close(None, ApprovalDismissed("the question was dismissed with Escape"))
        elif key in self.shortcut_keys:
            event.stop()
            event.prevent_default()
            self.choose(self.shortcut_keys[key])

    def _settle(self, option: str | None, error: Exception | None) -> None:
        if self.answer is not None and not self.answer.done():
            if option is not None:
                self.answer.set_result(option)
            else:
                self.answer.set_exception(error or ApprovalDismissed())

    def _close(self, option: str | None, error: Exception | None) -> None:
        if self._answered:
            return
        self._answered = True
        if self._ticker is not None:
            self._ticker.stop()
        self._settle(option, error)
        timed_out = isinstance(error, ApprovalTimeout) or self.clock() >= self.deadline
        self.app.post_message(self.Answered(self.request, option, timed_out=timed_out))
        self.dismiss(option)
