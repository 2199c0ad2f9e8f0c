"""The Textual replay app: the event stream, each outcome, its details and the turn's
injection budget, with approvals asked as modal screens.

The replay runs as a worker of the app, on the app's event loop, so the
`TextualApprovalProvider` bound to the app can push its `ApprovalScreen` while a dispatch
waits for the answer.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Footer, Header, Label, ProgressBar, RichLog, Static

from amplifier_hooks._tasks import describe_exception
from amplifier_hooks.approvals.models import clean_text
from amplifier_hooks.cli.replay import Budget, Replayer, Step
from amplifier_hooks.cli.report import LEVEL_STYLE, OUTCOME_STYLE, ReplayInfo, one_line
from amplifier_hooks.cli.trace import TraceEvent

DEFAULT_DELAY = 0.3
"""Seconds between events: slow enough to follow, fast enough not to bore."""


class LogLines(io.StringIO):
    """A text stream that keeps what is written, for structlog while the app owns the
    terminal (a write to the real stderr would tear the screen)."""

    def __init__(self) -> None:
        super().__init__()
        self.pending: list[str] = []
        self._partial = ""

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        lines = (self._partial + text).split("\n")
        self._partial = lines.pop()
        self.pending.extend(line for line in lines if line.strip())
        return len(text)

    def take(self) -> list[str]:
        """The complete lines written since the last call."""
        lines, self.pending = self.pending, []
        return lines


class ReplayApp(App[int]):
    """Replays ``events`` through ``replayer`` and shows every step as it happens."""

    TITLE = "amplifier-hooks"
    SUB_TITLE = "replay"
    CSS = """
    #main { height: 1fr; }
    #events { width: 1fr; }
    #side { width: 40%; min-width: 36; padding: 0 1; border-left: tall $panel; }
    #budget-label { margin-top: 1; text-style: bold; }
    #budget { margin-bottom: 1; }
    #detail-scroll { height: 1fr; }
    #log { height: 7; border-top: tall $panel; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit"),
        Binding("space,p", "toggle_pause", "Pause/Resume"),
        Binding("n", "step", "Step"),
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
        self._steps_allowed = 0
        self._wake = asyncio.Event()

    # -- layout --------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            yield DataTable(id="events", cursor_type="row", zebra_stripes=True)
            with Vertical(id="side"):
                yield Label("", id="budget-label")
                yield ProgressBar(id="budget", show_eta=False)
                with VerticalScroll(id="detail-scroll"):
                    yield Static("", id="detail")
        yield RichLog(id="log", markup=False, wrap=True, max_lines=1000)
        yield Footer()

    def on_mount(self) -> None:
        table: DataTable[Any] = self.query_one("#events", DataTable)
        # Outcome and handler before the call: on a narrow terminal the call is what is cut.
        table.add_columns("#", "event", "outcome", "by", "call")
        table.focus()
        usage = self.replayer.coordinator.injector.usage
        self.show_budget(Budget(usage.turn, usage.used, usage.budget))
        self.note(
            f"Replaying {self.info.trace} ({self.info.events} events) through bundle "
            f"{self.info.bundle}; approvals: {self.info.approvals}"
        )
        for failure in self.info.failures:
            self.note(f"warning: {failure}", "yellow")
        if self.logs is not None:
            self.set_interval(0.25, self._drain_logs)
        self._status()
        self.run_worker(self._replay(), name="replay", exit_on_error=False)

    # -- the replay ----------------------------------------------------------------------

    async def _replay(self) -> None:
        try:
            for item in self.events:
                await self._wait_turn()
                step = await self.replayer.step(item)
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
            self.note(f"Replay finished: {summary.events} events ({counts}). Press q to quit.")
        self._drain_logs()
        self._status()

    async def _wait_turn(self) -> None:
        while self.paused:
            if self._steps_allowed:
                self._steps_allowed -= 1
                return
            self._wake.clear()
            await self._wake.wait()

    def _add(self, step: Step) -> None:
        self.steps.append(step)
        table: DataTable[Any] = self.query_one("#events", DataTable)
        table.add_row(
            Text(str(step.index), style="dim"),
            Text(step.event),
            Text(step.verdict_text, style=OUTCOME_STYLE[step.outcome]),
            Text(clean_text(", ".join(step.by), 24), style="magenta"),
            Text(clean_text(step.summary, 48)),
            key=str(step.index),
        )
        for approval in step.approvals:
            answer = approval.choice or ("allowed" if approval.allowed else "denied")
            self.note(
                f"#{step.index} approval {approval.source}: {one_line(approval.prompt)} → "
                f"{answer} ({approval.via})",
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
        self._status()

    # -- widgets -------------------------------------------------------------------------

    def show_budget(self, budget: Budget) -> None:
        """The gauge: tokens of injected context used in the current turn."""
        label = self.query_one("#budget-label", Label)
        bar = self.query_one("#budget", ProgressBar)
        if budget.budget is None:
            label.update(f"Turn {budget.turn} injected context: {budget.used:,} tokens (no budget)")
            bar.display = False
            return
        label.update(
            f"Turn {budget.turn} injection budget: {budget.used:,} / {budget.budget:,} tokens"
        )
        bar.display = True
        bar.update(total=max(budget.budget, 1), progress=min(budget.used, budget.budget))

    def show_detail(self, step: Step) -> None:
        """Everything about ``step`` in the side pane, and the budget as it left the turn."""
        self.show_budget(step.budget)
        self.query_one("#detail", Static).update(render_detail(step))

    def note(self, text: str, style: str = "") -> None:
        """A line in the log pane at the bottom."""
        self.query_one("#log", RichLog).write(Text(clean_text(text, 400), style=style))

    def _drain_logs(self) -> None:
        if self.logs is None or not self.is_running:
            return
        for line in self.logs.take():
            self.note(line, "dim")

    def _status(self) -> None:
        state = (
            "failed"
            if self.error
            else "done"
            if self.done
            else "paused"
            if self.paused
            else "running"
        )
        self.sub_title = f"replay {len(self.steps)}/{len(self.events)} · {state}"

    # -- events and actions ------------------------------------------------------------

    def on_data_table_row_highlighted(self, message: DataTable.RowHighlighted) -> None:
        if 0 <= message.cursor_row < len(self.steps):
            self.show_detail(self.steps[message.cursor_row])

    def action_toggle_pause(self) -> None:
        """Pause or resume the replay; resuming follows the latest event again."""
        if self.done:
            return
        self.paused = not self.paused
        self._wake.set()
        self._status()

    def action_step(self) -> None:
        """Pause if running, then replay one more event."""
        if self.done:
            return
        self.paused = True
        self._steps_allowed += 1
        self._wake.set()
        self._status()

    async def action_quit(self) -> None:
        self.exit(1 if self.error else 0)


def render_detail(step: Step) -> RenderableType:
    """The detail pane for one step: what happened and which handler did what."""
    parts: list[RenderableType] = []
    head = Table.grid(padding=(0, 1))
    head.add_column(style="bold", no_wrap=True, min_width=8)
    head.add_column(overflow="fold")
    head.add_row("Event", Text(f"#{step.index} {step.event} (trace line {step.line})"))
    head.add_row("Call", Text(clean_text(step.summary, 300)))
    head.add_row("Outcome", Text(step.verdict_text, style=OUTCOME_STYLE[step.outcome]))
    if step.by:
        head.add_row("By", Text(", ".join(step.by), style="magenta"))
    if step.reason:
        head.add_row("Reason", Text(clean_text(step.reason, 500)))
    if step.note:
        head.add_row("Replay", Text(step.note))
    parts.append(head)

    def section(title: str, lines: list[Text]) -> None:
        if lines:
            parts.append(Text(f"\n{title}", style="bold underline"))
            parts.extend(lines)

    section(
        "Approvals",
        [
            Text(
                f"{a.source}: {clean_text(a.prompt, 300, newlines=True)}\n  → "
                f"{a.choice or ('allowed' if a.allowed else 'denied')} via {a.via}"
                + (" (remembered)" if a.remembered else ""),
                style="green" if a.allowed else "red",
            )
            for a in step.approvals
        ],
    )
    section("Changed", [Text(f"{c.path}: {c.after}", style="cyan") for c in step.changes])
    section(
        "Injected context",
        [
            Text(
                f"[{i.role}, {'ephemeral' if i.ephemeral else 'persisted'}, {i.tokens} tokens, "
                f"from {i.source}]\n{clean_text(i.text, 2000, newlines=True)}",
                style="blue",
            )
            for i in step.injected
        ],
    )
    section(
        "Dropped",
        [Text(f"{d.source}: {d.reason} ({d.bytes} bytes)", style="yellow") for d in step.dropped],
    )
    section(
        "Messages",
        [
            Text(
                f"{m.level} [{m.source}] {clean_text(m.text, 500)}",
                style=LEVEL_STYLE.get(m.level, ""),
            )
            for m in step.messages
        ],
    )
    if step.handlers:
        handlers = Table(title="Handlers", title_justify="left", box=None, padding=(0, 1))
        for column in ("handler", "prio", "action", "ms"):
            handlers.add_column(column, justify="right" if column in ("prio", "ms") else "left")
        for run in step.handlers:
            action = run.action if run.failure is None else f"{run.action} ({run.failure})"
            handlers.add_row(
                Text(run.handler),
                str(run.priority),
                Text(action, style="red" if run.failure else ""),
                f"{run.ms:.2f}",
            )
        parts.append(Text(""))
        parts.append(handlers)
    return Group(*parts)
