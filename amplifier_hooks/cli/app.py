"""The Textual replay app: the event stream, each outcome, its details and the turn's
injection budget, with approvals asked as modal screens.

The replay runs as a worker of the app, on the app's event loop, so the
`TextualApprovalProvider` bound to the app can push its `ApprovalScreen` while a dispatch
waits for the answer.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Label, ProgressBar, Static

from amplifier_hooks.approvals.models import clean_text
from amplifier_hooks.cli import replay_layout as layout
from amplifier_hooks.cli.detail import render_detail
from amplifier_hooks.cli.exit_codes import INTERRUPTED
from amplifier_hooks.cli.logsink import LogLines
from amplifier_hooks.cli.replay import Replayer
from amplifier_hooks.cli.report import LEVEL_STYLE, ReplayInfo, Stop, one_line
from amplifier_hooks.cli.steps import Budget, Step
from amplifier_hooks.cli.store_check import STORE_DOWN, unreachable
from amplifier_hooks.cli.trace_files import TraceEvent
from amplifier_hooks.cli.widgets import DetailPane, EventTable, NoteLog
from amplifier_hooks.cli.words import plural
from amplifier_hooks.engine.tasks import describe_exception
from amplifier_hooks.ui.approval_screen import ApprovalScreen

__all__ = ["DEFAULT_DELAY", "ReplayApp"]

DEFAULT_DELAY = 0.3
"""Seconds between events: slow enough to follow, fast enough not to bore."""


class ReplayApp(App[int]):
    """Replays ``events`` through ``replayer`` and shows every step as it happens."""

    TITLE = "amplifier-hooks"
    SUB_TITLE = "replay"
    APPROVAL_QUIT_HINT = "q or Ctrl+C: quit (denies)"
    """What the question's hint line says about quitting: q quits here as everywhere, and
    the open question, left without an answer, is denied."""
    # Where the widgets sit: `replay_layout`.
    HORIZONTAL_BREAKPOINTS = layout.HORIZONTAL_BREAKPOINTS
    VERTICAL_BREAKPOINTS = layout.VERTICAL_BREAKPOINTS
    CSS = layout.REPLAY_CSS
    # Every letter here is in the approval screen's RESERVED_KEYS, so no option of a
    # question takes it: `d` is Deny there, so the details are on `i`.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "leave", "Quit"),
        Binding("space,p", "toggle_pause", "Pause/Resume"),
        Binding("n", "step", "Step"),
        Binding("i", "toggle_detail", "Details"),
        # Textual leaves Ctrl+C to copying text; in a command it is the key that stops,
        # so it stops here too, even with a question on screen.
        Binding("ctrl+c", "interrupt", "Quit", show=False, priority=True),
    ]

    def __init__(
        self,
        replayer: Replayer,
        events: list[TraceEvent],
        info: ReplayInfo,
        *,
        delay: float = DEFAULT_DELAY,
        logs: LogLines | None = None,
    ) -> None:
        super().__init__()
        self.replayer = replayer
        self.events = events
        self.info = info
        self.delay = max(0.0, delay)
        self.logs = logs
        self.steps: list[Step] = []
        self.paused = False
        self.done = False
        self.error: str | None = None
        self.replaying: int | None = None
        """The number of the event being replayed right now, if any."""
        self.stop: Stop | None = None
        """How the replay was stopped before its end (None: it was not)."""
        self.store_problem: str | None = None
        """Why the approval store cannot be reached, once the start-up check found so."""
        self.store_checked = asyncio.Event()
        """Set when the start-up check of the approval store is over (tests wait on it)."""
        self._steps_allowed = 0
        self._wake = asyncio.Event()
        self._leaving = False
        self._mounted = False
        self._interrupt_pending = False

    # -- layout --------------------------------------------------------------------------

    def get_default_screen(self) -> Screen[Any]:
        return layout.MainScreen(id="_default")

    def compose(self) -> ComposeResult:
        return layout.compose_replay()

    def on_mount(self) -> None:
        self.query_one("#events", EventTable).focus()
        usage = self.replayer.coordinator.injector.usage
        self.show_budget(Budget(usage.turn, usage.used, usage.budget))
        self.note(
            f"Replaying {self.info.trace} ({plural(self.info.events, 'event')}) through bundle "
            f"{self.info.bundle}; approvals: {self.info.approvals}"
        )
        # Lines of their own: each says what this replay changes, and none is cut.
        if self.info.answers:
            self.note(f"answers: {self.info.answers}")
        if self.info.side_effects:
            self.note(f"side effects: {self.info.side_effects}")
        for failure in self.info.failures:
            self.note(f"warning: {failure}", "yellow")
        if self.logs is not None:
            self.set_interval(0.25, self._drain_logs)
        self.refresh_status()
        self._mounted = True
        if self._interrupt_pending:
            self.interrupt()
            return
        self.run_worker(self._check_store(), name="store-check", exit_on_error=False)
        self.run_worker(self._replay(), name="replay", exit_on_error=False)

    async def _check_store(self) -> None:
        """Say at once, beside the replay, if the approval store cannot be reached: what
        applies then is that questions are denied."""
        try:
            problem = await unreachable(self.replayer.coordinator.approvals.backend)
            if problem is not None:
                self.store_problem = problem
                self.notify(
                    f"{clean_text(problem, 300)}\nUntil it can be reached, every question is "
                    "denied without being asked.",
                    title=STORE_DOWN.split(":")[0],
                    severity="error",
                    timeout=30,
                )
                self.note(f"{STORE_DOWN}: {problem}", "bold red")
                self.refresh_status()
        finally:
            self.store_checked.set()

    # -- the replay ----------------------------------------------------------------------

    async def _replay(self) -> None:
        try:
            for item in self.events:
                await self._wait_turn()
                self.replaying = len(self.steps) + 1
                self.refresh_status()
                step = await self.replayer.step(item)
                self.replaying = None
                if self._leaving:
                    return  # the widgets are going away; the stop note tells the rest
                self._add(step)
                if self.delay:
                    await asyncio.sleep(self.delay)
        except Exception as exc:
            self.error = describe_exception(exc)
            self.note(f"replay failed: {self.error}", "bold red")
        else:
            self.done = True
            summary = self.replayer.summary
            counts = ", ".join(f"{n} {k}" for k, n in summary.outcomes.items())
            events = plural(summary.events, "event")
            self.note(f"Replay finished: {events} ({counts}). Press q to quit.")
        self.replaying = None
        self._drain_logs()
        self.refresh_status()

    async def _wait_turn(self) -> None:
        while self.paused:
            if self._steps_allowed:
                self._steps_allowed -= 1
                return
            self._wake.clear()
            await self._wake.wait()

    def _add(self, step: Step) -> None:
        self.steps.append(step)
        table = self.query_one("#events", EventTable)
        table.add_step(step)
        for approval in step.approvals:
            answer = approval.choice or ("allowed" if approval.allowed else "denied")
            self.note(
                f"#{step.index} {answer} ({approval.via}) · asked by {approval.source}: "
                f"{one_line(approval.prompt)}",
                "green" if approval.allowed else "red",
            )
        for message in step.messages:
            self.note(
                f"#{step.index} {message.level} from {message.source}: {message.text}",
                LEVEL_STYLE.get(message.level, ""),
            )
        # Follow the newest event. Events only arrive while running or when stepped with
        # `n`, so a person browsing a paused replay is never pulled away.
        table.move_cursor(row=len(self.steps) - 1)
        self.show_detail(step)
        self._drain_logs()
        self.refresh_status()

    # -- widgets -------------------------------------------------------------------------

    @property
    def question(self) -> ApprovalScreen | None:
        """The approval question on screen, if one is open."""
        top = self.screen_stack[-1] if self.screen_stack else None
        return top if isinstance(top, ApprovalScreen) else None

    def show_budget(self, budget: Budget) -> None:
        """The gauge: tokens of injected context used in the current turn."""
        label = self.query_one("#budget-label", Label)
        bar = self.query_one("#budget", ProgressBar)
        if budget.budget is None:
            used = plural(budget.used, "token")
            label.update(f"Turn {budget.turn} injected context: {used} (no budget)")
            bar.display = False
            return
        # No spaces around the slash: a wrap never separates the figures.
        label.update(
            f"Turn {budget.turn} injection budget: {budget.used:,}/{budget.budget:,} tokens"
        )
        bar.display = True
        bar.update(total=max(budget.budget, 1), progress=min(budget.used, budget.budget))

    def show_detail(self, step: Step) -> None:
        """Everything about ``step`` in the side pane, and the budget as it left the turn."""
        self.show_budget(step.budget)
        self.query_one("#detail", Static).update(render_detail(step))

    def note(self, text: str, style: str = "") -> None:
        """A line in the log pane at the bottom."""
        self.query_one("#log", NoteLog).add(Text(clean_text(text, 400), style=style))

    def _drain_logs(self) -> None:
        if self.logs is None or not self.is_running:
            return
        for line in self.logs.take():
            self.note(line, "dim")

    def refresh_status(self) -> None:
        """The title: which event is being replayed (or was last) and what the replay is
        doing. The number is the event a question on screen is about."""
        if self.error:
            state = "failed"
        elif self.done:
            state = "done"
        elif self.question is not None:
            state = "question open"
        elif self.paused:
            state = "paused"
        else:
            state = "running"
        number = self.replaying or len(self.steps)
        store = " · store unreachable" if self.store_problem else ""
        self.sub_title = f"replay {number}/{len(self.events)} · {state}{store}"

    # -- events and actions ------------------------------------------------------------

    def on_data_table_row_highlighted(self, message: DataTable.RowHighlighted) -> None:
        if 0 <= message.cursor_row < len(self.steps):
            self.show_detail(self.steps[message.cursor_row])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The details are of the screen under the question: shown disabled meanwhile.
        # q quits under a question too (denying it), as the question's hint says.
        if action == "toggle_detail" and self.question is not None:
            return None
        return True

    def action_toggle_pause(self) -> None:
        """Pause or resume the replay; resuming follows the latest event again."""
        if self.done:
            return
        self.paused = not self.paused
        self._wake.set()
        self.refresh_status()

    def action_step(self) -> None:
        """Pause if running, then replay one more event."""
        if self.done:
            return
        self.paused = True
        self._steps_allowed += 1
        self._wake.set()
        self.refresh_status()

    def action_toggle_detail(self) -> None:
        """Swap the table and log for the selected event's details at full height, and
        back. The detail pane takes the focus, so the arrow and page keys scroll it."""
        detail = not self.screen.has_class("-detail")
        self.screen.set_class(detail, "-detail")
        if detail:
            self.query_one("#detail-scroll", DetailPane).focus()
        else:
            self.query_one("#events", EventTable).focus()

    async def action_leave(self) -> None:
        """``q``: quit (the footer's key)."""
        await self.action_quit()

    async def action_quit(self) -> None:
        self._record_stop(interrupted=False)
        self._leaving = True
        code = 1 if self.error else 0
        self.exit(code, return_code=code)

    def action_interrupt(self) -> None:
        """Ctrl+C: stop the replay, as an interrupted command does."""
        self.interrupt()

    def interrupt(self) -> None:
        """Stop and exit with `INTERRUPTED`; also what SIGINT does while the app starts or
        closes (Textual reads Ctrl+C as a key only once it owns the terminal)."""
        if not self._mounted:
            # Exiting before the widgets are mounted leaves Textual's own mounting
            # half done (and a traceback); exit as soon as they are.
            self._interrupt_pending = True
            return
        self._record_stop(interrupted=True)
        self._leaving = True
        self.exit(INTERRUPTED, return_code=INTERRUPTED)

    def _record_stop(self, *, interrupted: bool) -> None:
        if self.done or self.stop is not None:
            return
        question = self.question
        self.stop = Stop(
            replayed=len(self.steps),
            total=len(self.events),
            question=question.request if question is not None else None,
            interrupted=interrupted,
        )
