"""The Textual replay app: the event stream, each outcome, its details and the turn's
injection budget, with approvals asked as modal screens.

The replay runs as a worker of the app, on the app's event loop, so the
`TextualApprovalProvider` bound to the app can push its `ApprovalScreen` while a dispatch
waits for the answer.
"""

from __future__ import annotations

import asyncio
import io
from collections import deque
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Footer, Header, Label, ProgressBar, RichLog, Static
from textual.widgets.data_table import ColumnKey

from amplifier_hooks._tasks import describe_exception
from amplifier_hooks.approvals.models import clean_text
from amplifier_hooks.cli.replay import Budget, Replayer, Step
from amplifier_hooks.cli.report import LEVEL_STYLE, OUTCOME_STYLE, ReplayInfo, one_line
from amplifier_hooks.cli.trace import TraceEvent

DEFAULT_DELAY = 0.3
"""Seconds between events: slow enough to follow, fast enough not to bore."""
WIDE = 128
"""Terminal width from which the detail pane sits beside the table rather than below it:
narrower, the table would leave the call column too few cells to be worth showing."""
TALL = 36
"""Terminal height from which the log pane gets its full height."""
COLUMNS = ("#", "event", "outcome", "by", "call")
"""The table's columns; outcome and handler come before the call, which takes what is left."""
EVENT_WIDTH = 24
"""The widest the event column gets (a trace may name events anything)."""
BY_WIDTH = 18
"""The widest the handler column gets; more handlers than fit end in `…`."""
CALL_MIN_WIDTH = 16
"""The call column is never narrower; a terminal too narrow for it scrolls sideways."""
LOG_LIMIT = 1000
"""Notes kept in the log pane."""


def fit(text: str, width: int, style: str = "") -> Text:
    """``text`` made safe and cut to ``width`` cells, ending in `…` when cut, so that a cut
    is visible (the table would otherwise crop a cell silently)."""
    cell = Text(clean_text(text, None), style=style, no_wrap=True)
    cell.truncate(max(width, 1), overflow="ellipsis")
    return cell


class EventTable(DataTable[Text]):
    """The event table. The columns are sized here rather than by their content: each
    fixed column as wide as its widest cell, the call column whatever the table's width
    leaves, and every call cut to that with a visible `…`. Sized by content, a long call
    would push the column past the right edge, where it is cropped without a sign."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.calls: dict[str, str] = {}
        """Each row's call in full, by row key, to cut again when the width changes."""
        self.call_width = 0

    def on_mount(self) -> None:
        self._add_columns()

    def _add_columns(self) -> None:
        if not self.columns:
            for name in COLUMNS:
                self.add_column(name, width=len(name), key=name)

    def on_resize(self, event: events.Resize) -> None:
        self.fit_calls()
        if self.row_count:
            # A shorter table can leave the selected row out of view.
            self.call_after_refresh(self.move_cursor, row=self.cursor_row)

    def add_step(self, step: Step) -> None:
        """A row for ``step``; widens a fixed column (and so narrows the call) if needed."""
        self._add_columns()
        cells = {
            "#": Text(str(step.index), style="dim"),
            "event": fit(step.event, EVENT_WIDTH),
            "outcome": Text(step.verdict_text, style=OUTCOME_STYLE[step.outcome]),
            "by": fit(", ".join(step.by), BY_WIDTH, style="magenta"),
        }
        grew = False
        for key, cell in cells.items():
            column = self.columns[ColumnKey(key)]
            if cell.cell_len > column.width:
                column.width = cell.cell_len
                grew = True
        key = str(step.index)
        self.calls[key] = step.summary
        call = fit(step.summary, self.call_width or CALL_MIN_WIDTH)
        self.add_row(*cells.values(), call, key=key)
        if grew or not self.call_width:
            self.fit_calls()

    def fit_calls(self) -> None:
        """Give the call column the width the other columns leave, and cut every call to
        it. Only the calls are cut: they are the least needed to follow the replay."""
        if not self.columns:
            return
        padding = 2 * self.cell_padding
        fixed = sum(self.columns[ColumnKey(key)].width + padding for key in COLUMNS[:-1])
        available = self.scrollable_content_region.width - fixed - padding
        width = max(CALL_MIN_WIDTH, available)
        if width == self.call_width:
            return
        self.call_width = width
        self.columns[ColumnKey("call")].width = width
        for count, (key, summary) in enumerate(self.calls.items(), start=1):
            # Re-measuring only the last cell makes the table recompute its virtual width
            # once, not once per row.
            last = count == len(self.calls)
            self.update_cell(key, "call", fit(summary, width), update_width=last)


class NoteLog(RichLog):
    """The log pane. It keeps its notes and wraps them again when its width changes: a
    RichLog wraps a line once, when written, so a narrower pane would crop it."""

    def __init__(self, *, id: str | None = None) -> None:
        # min_width=1: RichLog's default renders at least 78 cells and crops the rest.
        super().__init__(id=id, markup=False, wrap=True, min_width=1, max_lines=LOG_LIMIT)
        self.notes: deque[Text] = deque(maxlen=LOG_LIMIT)
        self._wrapped_at = 0

    def add(self, note: Text) -> None:
        """Write ``note``, wrapped to the pane."""
        self.notes.append(note)
        self.write(note)

    def on_resize(self, event: events.Resize) -> None:
        # After the refresh: RichLog's own handler may still hold writes made before the
        # size was known.
        self.call_after_refresh(self._rewrap)

    def _rewrap(self) -> None:
        width = self.scrollable_content_region.width
        if not width or width == self._wrapped_at:
            return
        first = not self._wrapped_at
        self._wrapped_at = width
        if first:
            return  # the first writes were made at this width
        self.clear()
        for note in self.notes:
            self.write(note)


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
    # Wide: the detail pane beside the table. Narrow: below it, the gauge on one line, and
    # on a short terminal a shorter log, so that 80x24 still shows rows, detail and notes.
    HORIZONTAL_BREAKPOINTS = [
        (0, "-narrow"),
        (WIDE, "-wide"),
    ]
    VERTICAL_BREAKPOINTS = [
        (0, "-short"),
        (TALL, "-tall"),
    ]
    CSS = """
    #main { height: 1fr; }
    #events { width: 1fr; height: 1fr; scrollbar-gutter: stable; }
    #side { width: 35%; min-width: 40; padding: 0 1; border-left: tall $panel; }
    #gauge { height: auto; layout: vertical; margin: 1 0; }
    #budget-label { width: 1fr; text-style: bold; }
    #detail-scroll { height: 1fr; }
    #log { height: 7; border-top: tall $panel; padding: 0 1; scrollbar-gutter: stable; }
    Screen.-narrow #main { layout: vertical; }
    Screen.-narrow #events { height: 3fr; }
    Screen.-narrow #side {
        width: 1fr; min-width: 0; height: 2fr; border-left: none; border-top: tall $panel;
    }
    Screen.-narrow #gauge { layout: horizontal; margin: 0; }
    Screen.-narrow #budget { width: auto; margin-left: 1; }
    Screen.-narrow #budget Bar { width: 20; }
    Screen.-short #log { height: 5; }
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
            yield EventTable(id="events")
            with Vertical(id="side"):
                with Horizontal(id="gauge"):
                    yield Label("", id="budget-label")
                    yield ProgressBar(id="budget", show_eta=False)
                with VerticalScroll(id="detail-scroll"):
                    yield Static("", id="detail")
        yield NoteLog(id="log")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#events", EventTable).focus()
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
        table = self.query_one("#events", EventTable)
        table.add_step(step)
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
