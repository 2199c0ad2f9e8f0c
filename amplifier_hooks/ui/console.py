"""`ConsoleApprovalProvider`: a Rich prompt for plain terminals.

Input is read without blocking the event loop (``add_reader`` on the input's file
descriptor), so the gate's timeout can cancel a question that nobody answers and no
stranded thread is left to swallow the next answer. Whatever was typed before the guard
time has passed is discarded, for the same reason as in the Textual screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import sys
import time
from collections.abc import Callable
from typing import Literal, TextIO

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from amplifier_hooks.approvals.models import ApprovalDismissed, ApprovalRequest, clean_text
from amplifier_hooks.ui.choosing import DEFAULT_GUARD, format_remaining, shortcuts

__all__ = ["ConsoleApprovalProvider"]


def _fileno(stream: TextIO) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None


def _wake(ready: asyncio.Future[None]) -> None:
    if not ready.done():
        ready.set_result(None)


class ConsoleApprovalProvider:
    """Prints the request as a Rich panel and reads the answer: a number, the option's
    shortcut letter, or the option itself. Requests are asked one at a time."""

    via: Literal["person"] = "person"

    def __init__(
        self,
        console: Console | None = None,
        stream: TextIO | None = None,
        *,
        guard: float = DEFAULT_GUARD,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.console = console if console is not None else Console(stderr=True)
        self.stream = stream if stream is not None else sys.stdin
        self.guard = guard
        self.clock = clock
        """What deadlines are read against (a test may drive its own)."""
        self._lock = asyncio.Lock()
        self._waiting = 0
        self._buffer = b""

    async def request_approval(self, request: ApprovalRequest) -> str:
        """Ask on the console; re-ask until the answer names one of the options."""
        deadline = self.clock() + request.timeout
        self._waiting += 1
        queued = True
        try:
            async with self._lock:
                self._waiting -= 1
                queued = False
                return await self._ask(request, deadline)
        finally:
            if queued:
                self._waiting -= 1

    async def _ask(self, request: ApprovalRequest, deadline: float) -> str:
        keys = shortcuts(request.options)
        self.console.print(self.render(request, deadline, self._waiting))
        await asyncio.sleep(self.guard)
        self._discard_typeahead()
        while True:
            self.console.print(Text("Your answer: ", style="bold"), end="")
            line = await self._readline()
            if line is None:
                raise ApprovalDismissed("the console input closed before an answer")
            choice = self.match(request, keys, line.strip())
            if choice is not None:
                return choice
            if line.strip():
                self.console.print(Text(f"Not an option: {clean_text(line.strip(), 40)}"))

    @staticmethod
    def match(request: ApprovalRequest, keys: dict[str, str], answer: str) -> str | None:
        """The option ``answer`` names (its number, its letter or its text), if any."""
        if not answer:
            return None
        folded = answer.casefold()
        for option in request.options:
            if option.casefold() == folded:
                return option
        return keys.get(folded)

    def render(self, request: ApprovalRequest, deadline: float, waiting: int = 0) -> Panel:
        """The panel for ``request``: prompt, details, options and what happens at zero."""
        keys = shortcuts(request.options)
        details = Table.grid(padding=(0, 2))
        details.add_column(style="bold", no_wrap=True)
        details.add_column(overflow="fold")
        rows = [("Event", request.event), ("Handler", request.source)]
        rows += [(k.capitalize(), v) for k, v in request.details.items()]
        if request.reason:
            rows.append(("Reason", request.reason))
        for name, value in rows:
            if value:
                details.add_row(Text(clean_text(name, 40)), Text(clean_text(value, None)))
        options = Text()
        letters = {option: key for key, option in keys.items() if not key.isdigit()}
        for index, option in enumerate(request.options):
            number = f"{index + 1}" if index < 9 else "-"
            letter = letters.get(option)
            options.append(f"  [{number}] ", style="bold")
            options.append(clean_text(option, 60))
            if letter:
                options.append(f" ({letter})", style="dim")
            options.append("\n")
        note = request.memory_note()
        if note:
            options.append(f"  {clean_text(note)}\n", style="dim")
        verb = "allowed" if request.default == "allow" else "denied"
        if math.isinf(deadline):
            footer = Text("No time limit: waits for an answer.", style="italic")
        else:
            left = format_remaining(deadline - self.clock())
            footer = Text(f"No answer in {left}: {verb} (the default).", style="italic")
        if waiting:
            footer.append(f"  {waiting} more waiting.", style="dim")
        body = Group(
            Text(clean_text(request.prompt, 600, newlines=True), style="bold"),
            Text(),
            details,
            Text(),
            options,
            footer,
        )
        return Panel(body, title="Approval required", title_align="left", border_style="yellow")

    # -- input -------------------------------------------------------------------------

    def _discard_typeahead(self) -> None:
        """Drop input typed before the question (and its guard time) was up."""
        self._buffer = b""
        fd = _fileno(self.stream)
        if fd is None:
            return
        if os.isatty(fd):
            with contextlib.suppress(Exception):
                import termios

                termios.tcflush(fd, termios.TCIFLUSH)
        blocking = os.get_blocking(fd)
        try:
            os.set_blocking(fd, False)
            while os.read(fd, 4096):
                pass
        except (BlockingIOError, OSError):
            pass
        finally:
            os.set_blocking(fd, blocking)

    async def _readline(self) -> str | None:
        """One line of input, or None at end of input."""
        fd = _fileno(self.stream)
        if fd is None:
            line = await asyncio.to_thread(self.stream.readline)
            return line if line else None
        loop = asyncio.get_running_loop()
        while b"\n" not in self._buffer:
            ready: asyncio.Future[None] = loop.create_future()
            try:
                loop.add_reader(fd, _wake, ready)
            except NotImplementedError:  # event loops without fd readers (Windows)
                line = await asyncio.to_thread(self.stream.readline)
                return line if line else None
            try:
                await ready
            finally:
                loop.remove_reader(fd)
            chunk = os.read(fd, 4096)
            if not chunk:
                if self._buffer:
                    break
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace")
