"""`ApproverApp`: the approver's console over the shared queue.

It lists every request that agents have queued (what is asked: the command, path or URL,
else the prompt; who asks: session and host; the workspace, age and a live countdown),
newest first or nearest deadline first, and shows the selected one in full below the
list. Enter opens the same `ApprovalScreen` the replay app uses (same keys, same
early-keypress guard), with the request's id, session, host and workspace; the answer is
written in one transaction. If another console answers first, or the agent stops
waiting, the open question is withdrawn and the console says who answered. Quitting
answers nothing: the open request stays waiting for another approver or its deadline.
The list is the database's: restarting the console loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import ClassVar, Literal

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Footer, Header, Static
from textual.widgets.data_table import ColumnKey

from amplifier_hooks.approvals import ApprovalBackend, ApprovalStoreError, PendingRequest
from amplifier_hooks.approvals.models import clean_text
from amplifier_hooks.approvals.store.orphans import withdraw_at_open
from amplifier_hooks.cli.exit_codes import INTERRUPTED
from amplifier_hooks.cli.report import one_line
from amplifier_hooks.cli.widgets import fit
from amplifier_hooks.cli.words import plural
from amplifier_hooks.ui.approval_screen import ApprovalScreen
from amplifier_hooks.ui.choosing import DEFAULT_GUARD, format_remaining

Order = Literal["newest", "deadline"]

MIN_REFRESH = 0.25
"""Seconds between two reads of the queue, however often it is notified."""


COLUMNS = ("id", "left", "age", "request", "from", "workspace")
"""The list's columns: what is asked comes right after the clock, so that an 80-column
terminal shows it; who asks and where follow, shortened in the middle when they must be."""
QUIT_HINT = "q or Ctrl+C: quit (it stays waiting)"
"""Quitting the console answers nothing: another approver, or the agent's deadline, will."""
DISMISS_HINT = "close (it stays waiting)"


def _age(row: PendingRequest, now: float) -> str:
    seconds = max(0, int(now - row.created_at.timestamp()))
    return f"{seconds}s" if seconds < 120 else f"{seconds // 60}m"


def asked_for(row: PendingRequest) -> str:
    """What the request is about, in one line: the command (what matters most), else the
    path or URL, else the prompt (its line breaks as " / ")."""
    for name in ("command", "path", "url"):
        value = row.details.get(name)
        if value:
            tool = row.details.get("tool")
            return f"{tool}: {value}" if tool else value
    return one_line(row.prompt)


def origin(row: PendingRequest) -> dict[str, str]:
    """Which request this is and who asks: what tells two agents' questions apart."""
    return {
        "Request": f"#{row.id} · session {row.session_id} · host {row.host}",
        "Workspace": row.workspace or "-",
    }


def describe(row: PendingRequest) -> Group:
    """The selected request in full, below the list: nothing cut, line breaks kept."""
    head = Table.grid(padding=(0, 1))
    head.add_column(style="bold", no_wrap=True)
    head.add_column(overflow="fold")
    for name, value in origin(row).items():
        head.add_row(name, Text(clean_text(value, None)))
    head.add_row("Asked by", Text(clean_text(f"{row.source} on {row.event}", None)))
    head.add_row("Options", Text(clean_text(" / ".join(row.options), None)))
    prompt = Text(clean_text(row.prompt, 600, newlines=True), style="bold")
    return Group(prompt, head)


class QueueTable(DataTable[Text]):
    """The list of requests: Enter answers the one under the cursor, and the footer says so
    (the table's own Enter binding is hidden, and shadowed the app's)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "select_cursor", "Answer")]


class ApproverApp(App[None]):
    """Lists pending requests from every agent and answers them."""

    TITLE = "amplifier-hooks approve"
    CSS = """
    #status { height: 1; padding: 0 1; color: $text-muted; }
    QueueTable { height: 1fr; scrollbar-gutter: stable; }
    #selected {
        height: auto; max-height: 40%; padding: 0 1; border-top: tall $panel; overflow-y: auto;
    }
    """
    APPROVAL_QUIT_HINT = QUIT_HINT
    # Every letter here is in the approval screen's RESERVED_KEYS: no option takes it.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("o", "toggle_order", "Order"),
        Binding("r", "refresh", "Refresh"),
        Binding("q", "quit", "Quit"),
        # Ctrl+C quits as q does (not Textual's "press ctrl+q to quit"), also with a
        # question open, with the exit code of an interrupted command.
        Binding("ctrl+c", "interrupt", "Quit", show=False, priority=True),
    ]

    def __init__(
        self,
        backend: ApprovalBackend,
        *,
        approver: str,
        order: Order = "newest",
        guard: float = DEFAULT_GUARD,
    ) -> None:
        super().__init__()
        self.backend = backend
        self.approver = approver
        self.order: Order = order
        self.guard = guard
        self.rows: list[PendingRequest] = []
        self.messages: list[str] = []
        """What the console told the approver (answers, races lost), newest last."""
        self.open_request: tuple[int, ApprovalScreen] | None = None
        self.stop_note: str | None = None
        """The line printed once the terminal is back, when the console was interrupted."""
        self.refreshed = asyncio.Event()
        """Set after each read of the queue (tests wait on it)."""
        self._wake = asyncio.Event()
        # Held, not looked up with query_one: the App queries its *active* screen, and while
        # the approval modal is open the list's widgets are not on it (a refresh of the
        # queue then crashed the console). Widgets need the app running: made in compose.
        self.status: Static
        self.table: QueueTable
        self.detail: Static

    def compose(self) -> ComposeResult:
        self.status = Static(
            f"store {self.backend.name} · answering as {self.approver}", id="status"
        )
        self.table = QueueTable(cursor_type="row", zebra_stripes=True)
        for column in COLUMNS:
            self.table.add_column(column, key=column, width=len(column))
        self.detail = Static("", id="selected")
        yield Header()
        yield self.status
        yield self.table
        yield self.detail
        yield Footer()

    def on_mount(self) -> None:
        self.run_worker(self._watch(), exclusive=True, group="watch")
        self.set_interval(1.0, self._tick)

    # -- the list ----------------------------------------------------------------------

    async def _watch(self) -> None:
        # Before the first list: a question whose asker is gone is never offered.
        await withdraw_at_open(self.backend)
        while True:
            await self.reload()
            self._wake.clear()
            waiting = asyncio.ensure_future(self.backend.wait_for_change(None, 5.0))
            woken = asyncio.ensure_future(self._wake.wait())
            await asyncio.wait({waiting, woken}, return_when=asyncio.FIRST_COMPLETED)
            for task in (waiting, woken):
                task.cancel()
            await asyncio.sleep(MIN_REFRESH)

    async def reload(self) -> None:
        """Read the queue and redraw the list."""
        try:
            rows = await self.backend.list_pending()
        except ApprovalStoreError as exc:
            self.status.update(Text(f"store unreachable: {exc}"))
            self.refreshed.set()
            return
        key = (lambda r: -r.id) if self.order == "newest" else (lambda r: r.seconds_left())
        # A request past its deadline is no longer awaited (its agent applied the default,
        # or is gone): it is not offered for an answer.
        self.rows = sorted((r for r in rows if r.seconds_left() > 0), key=key)
        self._draw()
        await self._check_open()
        self.refreshed.set()

    def _widths(self) -> dict[str, int]:
        """Each column's width for the rows and the table's width now: id and clocks as
        wide as they are; of the rest, what is asked gets the most, who asks and where a
        sixth and a fifth (never more than they need; the row below shows them whole)."""
        now = time.time()
        need = {
            "id": max((len(str(r.id)) for r in self.rows), default=0),
            "left": max((len(format_remaining(r.seconds_left(now))) for r in self.rows), default=0),
            "age": 4,
            "request": max((len(asked_for(r)) for r in self.rows), default=0),
            "from": max((len(f"{r.session_id}@{r.host}") for r in self.rows), default=0),
            "workspace": max((len(r.workspace) for r in self.rows), default=0),
        }
        widths = {name: max(len(name), need[name]) for name in COLUMNS}
        padding = 2 * self.table.cell_padding * len(COLUMNS)
        rest = self.table.scrollable_content_region.width - padding
        rest -= widths["id"] + widths["left"] + widths["age"]
        full = dict(widths)
        widths["from"] = min(full["from"], max(8, rest // 6))
        widths["workspace"] = min(full["workspace"], max(9, rest // 5))
        widths["request"] = max(16, rest - widths["from"] - widths["workspace"])
        # What the request does not need goes back to who asks and where.
        spare = widths["request"] - max(16, full["request"])
        for name in ("from", "workspace"):
            grow = max(0, min(spare, full[name] - widths[name]))
            widths[name] += grow
            widths["request"] -= grow
            spare -= grow
        return widths

    def _draw(self) -> None:
        table = self.table
        selected = self.selected
        table.clear()
        now = time.time()
        widths = self._widths()
        for name, width in widths.items():
            table.columns[ColumnKey(name)].width = width
        for row in self.rows:
            # Everything an agent wrote is shown as literal text, never as markup; what
            # does not fit is cut in the middle, with a mark (the row below shows it all).
            table.add_row(
                Text(str(row.id)),
                Text(format_remaining(row.seconds_left(now))),
                Text(_age(row, now)),
                fit(asked_for(row), widths["request"], style="bold", middle=True),
                fit(f"{row.session_id}@{row.host}", widths["from"], middle=True),
                fit(row.workspace, widths["workspace"], middle=True),
                key=str(row.id),
            )
        if selected is not None:
            with contextlib.suppress(Exception):
                table.move_cursor(row=table.get_row_index(str(selected.id)))
        self._show_selected()
        status = f"{len(self.rows)} waiting · store {self.backend.name} · as {self.approver}"
        self.status.update(status)

    def _show_selected(self) -> None:
        row = self.selected
        self.detail.display = True
        self.detail.update(describe(row) if row is not None else self.empty_hint())

    def empty_hint(self) -> Text:
        """What an empty console is waiting for, and how a question gets here."""
        store = clean_text(self.backend.name, None)
        return Text(
            f"Nothing waiting. Questions appear here as agents ask them: an agent whose "
            f"bundle says session.approvals.provider: queue, with this store ({store}), "
            "queues each question it would ask. To try it: amplifier-hooks run --no-tui "
            f"--approvals queue --store {store}",
            style="dim",
        )

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_selected()

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self._draw)

    def _tick(self) -> None:
        table = self.table
        now = time.time()
        for row in self.rows:
            with contextlib.suppress(Exception):
                left = format_remaining(row.seconds_left(now))
                table.update_cell(str(row.id), "left", Text(left))
                table.update_cell(str(row.id), "age", Text(_age(row, now)))

    @property
    def selected(self) -> PendingRequest | None:
        """The request under the cursor."""
        table = self.table
        if not self.rows or table.cursor_row is None or table.cursor_row >= len(self.rows):
            return None
        return self.rows[table.cursor_row]

    def tell(self, message: str) -> None:
        """Say something to the approver (a notification, kept in `messages`)."""
        self.messages.append(message)
        self.notify(message, timeout=8)

    # -- answering -----------------------------------------------------------------------

    def action_interrupt(self) -> None:
        """Ctrl+C: quit, as q does, saying what was left; exit code `INTERRUPTED`."""
        note = f"Approver console interrupted: {plural(len(self.rows), 'request')} still waiting"
        if self.open_request is not None:
            note += f"; request #{self.open_request[0]}, open on screen, was not answered"
        self.stop_note = note + " (each waits for another approver or its deadline)."
        self.exit(return_code=INTERRUPTED)

    def action_toggle_order(self) -> None:
        self.order = "deadline" if self.order == "newest" else "newest"
        self._wake.set()

    def action_refresh(self) -> None:
        self._wake.set()

    def action_answer(self) -> None:
        row = self.selected
        if row is None or self.open_request is not None:
            return
        deadline = time.monotonic() + row.seconds_left()
        screen = ApprovalScreen(
            row.to_request(),
            guard=self.guard,
            deadline=deadline,
            context=origin(row),
            dismiss_hint=DISMISS_HINT,
        )
        self.open_request = (row.id, screen)

        def answered(choice: str | None) -> None:
            self.open_request = None
            if choice is not None:
                self.run_worker(self._send(row.id, choice), group="answer")

        self.push_screen(screen, answered)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_answer()

    async def _send(self, ident: int, choice: str) -> None:
        try:
            result = await self.backend.answer(ident, choice, self.approver)
        except ApprovalStoreError as exc:
            self.tell(f"not answered: {exc}")
            return
        self.tell(result.explain() if result.won else f"not applied: {result.explain()}")
        self._wake.set()

    async def _check_open(self) -> None:
        """Withdraw the open question if someone else answered it or it expired."""
        if self.open_request is None:
            return
        ident, screen = self.open_request
        if any(r.id == ident for r in self.rows):
            return
        try:
            row = await self.backend.pending(ident)
        except ApprovalStoreError:
            return  # the status line says the store is unreachable; try again next time
        if self.open_request is None or self.open_request[1] is not screen:
            return
        if row is not None and row.status == "answered":
            self.tell(f"request {ident} was answered {row.choice!r} by {row.answered_by}")
        elif row is not None and row.outcome == "withdrawn" and row.closed_reason:
            self.tell(f"request {ident} was withdrawn: {row.closed_reason}")
        elif row is not None and row.outcome == "withdrawn":
            self.tell(f"request {ident} is no longer waiting: its session ended")
        else:
            self.tell(f"request {ident} is no longer waiting (the agent's deadline passed)")
        screen.withdraw()
