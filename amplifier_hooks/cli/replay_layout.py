"""Where the replay app's widgets sit: the event table, the side pane (budget gauge and
details) and the log, beside or below each other by the terminal's size. Its own module:
the layout is one concern, what the app does with the widgets (`app.ReplayApp`) another.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Label, ProgressBar, Static

from amplifier_hooks.cli.widgets import DetailPane, EventTable, NoteLog

__all__ = ["HORIZONTAL_BREAKPOINTS", "REPLAY_CSS", "TALL", "VERTICAL_BREAKPOINTS", "WIDE",
           "MainScreen", "compose_replay"]  # fmt: skip

WIDE = 160
"""Terminal width from which the detail pane sits beside the table rather than below it:
narrower, beside the table it would leave the call column too few cells to be useful."""
TALL = 36
"""Terminal height from which the log pane gets its full height."""

# Wide: the detail pane beside the table. Narrow: below it, the gauge on one line, and
# on a short terminal a shorter log, so that 80x24 still shows rows, detail and notes.
# `i` swaps the table and log for the detail pane at full height.
HORIZONTAL_BREAKPOINTS = [
    (0, "-narrow"),
    (WIDE, "-wide"),
]
VERTICAL_BREAKPOINTS = [
    (0, "-short"),
    (TALL, "-tall"),
]
REPLAY_CSS = """
#main { height: 1fr; }
#events { width: 1fr; height: 1fr; scrollbar-gutter: stable; }
#side { width: 35%; min-width: 40; padding: 0 1; border-left: tall $panel; }
#side:focus-within { border-left: tall $accent; }
#gauge { height: auto; layout: vertical; margin: 1 0; }
#budget-label { width: 1fr; text-style: bold; }
#log { height: 7; border-top: tall $panel; padding: 0 1; scrollbar-gutter: stable; }
Screen.-narrow #main { layout: vertical; }
Screen.-narrow #events { height: 3fr; }
Screen.-narrow #side {
    width: 1fr; min-width: 0; height: 2fr; border-left: none; border-top: tall $panel;
}
Screen.-narrow #side:focus-within { border-top: tall $accent; }
Screen.-narrow #gauge { layout: horizontal; margin: 0; }
Screen.-narrow #budget { width: auto; margin-left: 1; }
Screen.-narrow #budget Bar { width: 20; }
Screen.-short #log { height: 5; }
Screen.-detail #events, Screen.-detail #log { display: none; }
Screen.-detail #side { width: 1fr; height: 1fr; min-width: 0; }
"""


class MainScreen(Screen[None]):
    """The app's own screen: it tells the app when a question covers it and goes away,
    so the title and the footer's keys follow."""

    def on_screen_suspend(self) -> None:
        self._changed()

    def on_screen_resume(self) -> None:
        self._changed()

    def _changed(self) -> None:
        self.refresh_bindings()
        refresh = getattr(self.app, "refresh_status", None)
        if callable(refresh):  # (the replay app's: imported here it would be a cycle)
            refresh()


def compose_replay() -> ComposeResult:
    """The widgets, by the ids the CSS and the app look them up by."""
    yield Header()
    with Horizontal(id="main"):
        yield EventTable(id="events")
        with Vertical(id="side"):
            with Horizontal(id="gauge"):
                yield Label("", id="budget-label")
                yield ProgressBar(id="budget", show_eta=False)
            with DetailPane(id="detail-scroll"):
                yield Static("", id="detail")
    yield NoteLog(id="log")
    yield Footer()
