"""The replay app's widgets: the event table, the detail pane and the log pane.

Each sizes or wraps its own content for the width it is given, so that nothing is cut
without a visible sign at any terminal size (see `ReplayApp` for the layout).
"""

from __future__ import annotations

from collections import deque

from rich.text import Text
from textual import events
from textual.containers import VerticalScroll
from textual.widgets import DataTable, RichLog
from textual.widgets.data_table import ColumnKey

from amplifier_hooks.approvals.models import clean_text
from amplifier_hooks.cli.report import OUTCOME_STYLE
from amplifier_hooks.cli.shorten import shorten_words
from amplifier_hooks.cli.steps import Step

__all__ = [
    "CALL_MIN_WIDTH",
    "COLUMNS",
    "DetailPane",
    "EventTable",
    "NoteLog",
    "fit",
    "outcome_cell",
]

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
CONTEXT_MARK = " +ctx"
"""Appended to the outcome of an event whose hooks injected context into the model's view."""


def fit(text: str, width: int, style: str = "", *, middle: bool = False) -> Text:
    """``text`` made safe and cut to ``width`` cells, ending in `…` when cut, so that a cut
    is visible (the table would otherwise crop a cell silently). ``middle`` (a call: a
    command or a path) puts the `…` in the middle instead, between whole words, and keeps
    the end in view (`shorten_words`)."""
    clean = clean_text(text, None)
    if middle:
        clean = shorten_words(clean, max(width, 1))
    cell = Text(clean, style=style, no_wrap=True)
    cell.truncate(max(width, 1), overflow="ellipsis")
    return cell


def outcome_cell(step: Step) -> Text:
    """The outcome, marked when hooks injected context on the event: an injection changes
    what the model sees next without changing the outcome, so it would go unnoticed."""
    cell = Text(step.outcome_text, style=OUTCOME_STYLE[step.outcome], no_wrap=True)
    if step.injected:
        cell.append(CONTEXT_MARK, style="bold blue")
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
            # A shorter table can leave the selected row out of view. The row is read when
            # the callback runs: read now, it could move the cursor back to where it was
            # before a key or a new event moved it.
            self.call_after_refresh(self._show_cursor)

    def _show_cursor(self) -> None:
        self.move_cursor(row=self.cursor_row)

    def add_step(self, step: Step) -> None:
        """A row for ``step``; widens a fixed column (and so narrows the call) if needed."""
        self._add_columns()
        cells = {
            "#": Text(str(step.index), style="dim"),
            "event": fit(step.event, EVENT_WIDTH),
            "outcome": outcome_cell(step),
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
        call = fit(step.summary, self.call_width or CALL_MIN_WIDTH, middle=True)
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
            self.update_cell(key, "call", fit(summary, width, middle=True), update_width=last)


class DetailPane(VerticalScroll):
    """The scrollable pane that holds the selected event's details. It takes focus (Tab,
    or `d` for the full-height view) so the keys scroll it, and shows when it has it."""

    DEFAULT_CSS = """
    DetailPane { height: 1fr; }
    DetailPane:focus { background: $boost; }
    """


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
