"""`ApproverApp`: the approver's console over the shared queue.

It lists every request that agents have queued (session, host, workspace, event, prompt,
age and a live countdown), newest first or nearest deadline first. Enter opens the same
`ApprovalScreen` the replay app uses (same keys, same early-keypress guard); the answer is
written in one transaction. If another console answers first, or the agent stops
waiting, the open question is withdrawn and the console says who answered. The list is
the database's: restarting the console loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import ClassVar, Literal

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Footer, Header, Static

from amplifier_hooks.approvals import ApprovalBackend, ApprovalStoreError, PendingRequest
from amplifier_hooks.approvals.models import clean_text
from amplifier_hooks.approvals.screen import DEFAULT_GUARD, ApprovalScreen, format_remaining

Order = Literal["newest", "deadline"]

MIN_REFRESH = 0.25
"""Seconds between two reads of the queue, however often it is notified."""


def _age(row: PendingRequest, now: float) -> str:
    seconds = max(0, int(now - row.created_at.timestamp()))
    return f"{seconds}s" if seconds < 120 else f"{seconds // 60}m"


class ApproverApp(App[None]):
    """Lists pending requests from every agent and answers them."""

    TITLE = "amplifier-hooks approve"
    CSS = """
    #status { height: 1; padding: 0 1; color: $text-muted; }
    DataTable { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "answer", "Answer"),
        Binding("o", "toggle_order", "Order"),
        Binding("r", "refresh", "Refresh"),
        Binding("q", "quit", "Quit"),
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
        self.refreshed = asyncio.Event()
        """Set after each read of the queue (tests wait on it)."""
        self._wake = asyncio.Event()
        # Held, not looked up with query_one: the App queries its *active* screen, and while
        # the approval modal is open the list's widgets are not on it (a refresh of the
        # queue then crashed the console). Widgets need the app running: made in compose.
        self.status: Static
        self.table: DataTable[str | Text]

    def compose(self) -> ComposeResult:
        self.status = Static(
            f"store {self.backend.name} · answering as {self.approver}", id="status"
        )
        self.table = DataTable(cursor_type="row", zebra_stripes=True)
        for column in ("id", "left", "age", "session", "host", "workspace", "event", "prompt"):
            self.table.add_column(column, key=column)
        yield Header()
        yield self.status
        yield self.table
        yield Footer()

    def on_mount(self) -> None:
        self.run_worker(self._watch(), exclusive=True, group="watch")
        self.set_interval(1.0, self._tick)

    # -- the list ----------------------------------------------------------------------

    async def _watch(self) -> None:
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

    def _draw(self) -> None:
        table = self.table
        selected = self.selected
        table.clear()
        now = time.time()
        for row in self.rows:
            # Everything an agent wrote is shown as literal text, never as markup.
            table.add_row(
                str(row.id),
                format_remaining(row.seconds_left(now)),
                _age(row, now),
                Text(clean_text(row.session_id, 24)),
                Text(clean_text(row.host, 24)),
                Text(clean_text(row.workspace, 40)),
                Text(clean_text(row.event, 24)),
                Text(clean_text(row.prompt, 80)),
                key=str(row.id),
            )
        if selected is not None:
            with contextlib.suppress(Exception):
                table.move_cursor(row=table.get_row_index(str(selected.id)))
        status = f"{len(self.rows)} waiting · store {self.backend.name} · as {self.approver}"
        self.status.update(status)

    def _tick(self) -> None:
        table = self.table
        now = time.time()
        for row in self.rows:
            with contextlib.suppress(Exception):
                table.update_cell(str(row.id), "left", format_remaining(row.seconds_left(now)))
                table.update_cell(str(row.id), "age", _age(row, now))

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
        screen = ApprovalScreen(row.to_request(), guard=self.guard, deadline=deadline)
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
        else:
            self.tell(f"request {ident} is no longer waiting (the agent's deadline passed)")
        screen.withdraw()
