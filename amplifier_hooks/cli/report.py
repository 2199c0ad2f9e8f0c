"""The headless views of a replay: a Rich report for people, JSON lines for programs.

Both print one entry per event as it is replayed (so a long trace shows progress) and a
summary at the end. Everything that came from a trace or a hook is shown as literal text,
never as Rich markup, and with control characters made visible.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from typing import IO, Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from amplifier_hooks.approvals.models import ApprovalRequest, clean_text
from amplifier_hooks.cli.screen import Screen, console_for
from amplifier_hooks.cli.shorten import shorten_words
from amplifier_hooks.cli.steps import Step, Summary
from amplifier_hooks.cli.words import plural

OUTCOME_STYLE = {
    "allowed": "green",
    "modified": "cyan",
    "denied": "bold red",
    "skipped": "yellow",
}
LEVEL_STYLE = {"info": "blue", "warning": "yellow", "error": "red"}
_INDEX, _OUTCOME, _EVENT, _BY = 4, 20, 18, 16
"""Column widths of the report's event lines: the outcome first, so that no width cuts it;
the call last, taking whatever the terminal has left."""
_CALL_MIN = 12
"""The call is never given less (a narrower terminal cuts the line at its edge)."""
DETAIL_LIMIT = 160
"""Characters of injected text or a message shown on a report line."""


@dataclass
class ReplayInfo:
    """What is being replayed through what, for the report's header."""

    trace: str
    events: int
    bundle: str
    modules: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    approvals: str = ""
    skipped_lines: int = 0
    side_effects: str = ""
    """What modules with side effects do (held back, or live with ``--live``)."""
    answers: str = ""
    """Where the replay keeps the answers given, and how to undo an "always"."""

    def to_json(self) -> dict[str, Any]:
        """The first line of ``--json``."""
        return {"type": "replay", **self.__dict__}


def make_console(file: IO[str] | None = None, screen: Screen | None = None) -> Console:
    """A console for the report: wide enough for its columns when writing to a file or a
    pipe (Rich would assume 80), colourless there and whenever NO_COLOR is set. With
    ``screen``, the console the caller of a relayed ``test`` would have made
    (`amplifier_hooks.cli.screen`)."""
    if screen is not None:
        return console_for(file or sys.stdout, screen, highlight=False, soft_wrap=False)
    probe = Console(file=file)
    width = None if probe.is_terminal or "COLUMNS" in os.environ else 120
    return Console(file=file, width=width, highlight=False, soft_wrap=False)


def write_json(out: IO[str], record: object) -> None:
    """``record`` as one indented JSON document: the ``--json`` of the commands that
    inspect (check, events, approvals), where a replay writes JSON lines instead."""
    out.write(json.dumps(record, ensure_ascii=False, indent=2, default=str) + "\n")


class RichReport:
    """Prints each step as a line (plus indented details) and a summary table."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def start(self, info: ReplayInfo) -> None:
        """The header: trace, bundle, modules, how approvals are answered."""
        out = self.console
        header = Text("Replaying ", style="bold")
        header.append(clean_text(info.trace, None), style="bold")
        header.append(f" ({plural(info.events, 'event')}) through bundle ")
        header.append(clean_text(info.bundle, None), style="bold")
        out.print(header)
        if info.modules:
            out.print(Text(f"modules: {', '.join(info.modules)}", style="dim"))
        for failure in info.failures:
            out.print(Text(f"warning: {clean_text(failure, None)}", style="yellow"))
        if info.approvals:
            out.print(Text(f"approvals: {info.approvals}", style="dim"))
        if info.answers:
            out.print(Text(f"answers: {info.answers}", style="dim"))
        if info.side_effects:
            out.print(Text(f"side effects: {info.side_effects}", style="dim"))
        out.print()
        self._columns_header()

    def _call_width(self) -> int:
        # What the terminal leaves for the call once the other columns are laid out.
        fixed = _INDEX + _OUTCOME + _EVENT + _BY + 4 * 2
        return max(_CALL_MIN, self.console.width - fixed)

    def _columns_header(self) -> None:
        line = Text(style="bold")
        line.append("#".rjust(_INDEX) + "  ")
        line.append("outcome".ljust(_OUTCOME) + "  ")
        line.append("event".ljust(_EVENT) + "  ")
        line.append("by".ljust(_BY) + "  ")
        line.append("call")
        self.console.print(line)

    def step(self, step: Step) -> None:
        """One event: its line, then what hooks added, changed or said."""
        line = Text()
        line.append(str(step.index).rjust(_INDEX) + "  ", style="dim")
        line.append(_cell(step.outcome_text, _OUTCOME) + "  ", style=OUTCOME_STYLE[step.outcome])
        line.append(_cell(step.event, _EVENT) + "  ", style="bold")
        line.append(_cell(", ".join(step.by), _BY) + "  ", style="magenta")
        line.append(_cell(step.summary, self._call_width(), middle=True))
        line.rstrip()
        self.console.print(line, no_wrap=True, overflow="ellipsis")
        for detail in details(step):
            self.console.print(detail, no_wrap=True, overflow="ellipsis")

    def finish(self, summary: Summary) -> None:
        """The summary table: outcomes, approvals, tokens per turn, what was dropped."""
        table = Table(title="Summary", show_header=False, title_justify="left", box=None)
        table.add_column(style="bold")
        table.add_column()
        outcomes = Text()
        for name in ("allowed", "modified", "denied", "skipped"):
            if outcomes:
                outcomes.append(", ")
            outcomes.append(f"{summary.outcomes.get(name, 0)} {name}", OUTCOME_STYLE[name])
        table.add_row("events", f"{summary.events}")
        table.add_row("outcomes", outcomes)
        decided = ", ".join(f"{n} by {k}" for k, n in sorted(summary.approvals.items()))
        table.add_row("approvals", f"{summary.asked} asked" + (f" ({decided})" if decided else ""))
        turns = "; ".join(
            f"turn {b.turn}: {b.used}/{'∞' if b.budget is None else b.budget}"
            for b in summary.turns.values()
            if b.turn or b.used  # events before the first prompt are turn 0
        )
        table.add_row("injected tokens", turns or "-")
        table.add_row("dropped injections", str(summary.dropped))
        table.add_row("user messages", str(summary.messages))
        table.add_row(
            "handler failures",
            Text(str(summary.failures), style="red" if summary.failures else ""),
        )
        if summary.skipped_lines:
            table.add_row("bad trace lines skipped", str(summary.skipped_lines))
        self.console.print()
        self.console.print(table)


def one_line(text: str) -> str:
    """``text`` with line breaks as " / ", for a one-line view of a multi-line prompt."""
    return " / ".join(part.strip() for part in text.splitlines() if part.strip())


def _cell(text: str, width: int, *, middle: bool = False) -> str:
    # A call (a command, a path) is cut in the middle, between words: its end matters
    # as much as its start.
    if middle:
        return shorten_words(clean_text(text, None), width).ljust(width)
    return clean_text(text, width).ljust(width)


def details(step: Step) -> list[Text]:
    """The indented lines under an event: note, reason, approvals, changes, injections,
    drops and messages."""
    lines: list[Text] = []

    def add(label: str, body: str, style: str = "") -> None:
        # One line each: a line break in a hook's text becomes " / ", not a "\x0a".
        line = Text("        ")
        line.append(f"{label} ", style=style or "dim")
        line.append(clean_text(one_line(body), DETAIL_LIMIT))
        lines.append(line)

    if step.note:
        add("note", step.note)
    for approval in step.approvals:
        # The decision first, where no width cuts it; the question last.
        decision = "allowed" if approval.allowed else "denied"
        how = f"{approval.choice} via {approval.via}" if approval.choice else f"via {approval.via}"
        remembered = ", remembered" if approval.remembered else ""
        add(
            decision,
            f"({how}{remembered}) · asked by {approval.source}: {approval.prompt}",
            "bold green" if approval.allowed else "bold red",
        )
    if step.reason:
        add("reason", step.reason, "red")
    for run in step.failures:
        closed = ", failing closed" if step.outcome == "denied" and run.action == "deny" else ""
        add("failed", f"{run.handler}: {run.failure}{closed}: {run.error or ''}", "red")
    for change in step.changes:
        add("changed", f"{change.path}: {change.after}", "cyan")
    for item in step.injected:
        kind = "ephemeral" if item.ephemeral else "persisted"
        add(
            "injected",
            f"[{item.role}, {kind}, {plural(item.tokens, 'token')}, from {item.source}] "
            f"{item.text}",
            "blue",
        )
    for drop in step.dropped:
        tokens = "? tokens" if drop.tokens is None else plural(drop.tokens, "token")
        add(
            "dropped",
            f"{drop.source}: {drop.reason} ({tokens}, {plural(drop.bytes, 'byte')})",
            "yellow",
        )
    for message in step.messages:
        add(
            f"{message.level}",
            f"[{message.source}] {message.text}",
            LEVEL_STYLE.get(message.level, ""),
        )
    return lines


class JsonReport:
    """One JSON object per line: the replay, each event, the summary."""

    def __init__(self, file: IO[str]) -> None:
        self.file = file

    def _write(self, record: dict[str, Any]) -> None:
        self.file.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
        self.file.flush()

    def start(self, info: ReplayInfo) -> None:
        """The ``replay`` record."""
        self._write(info.to_json())

    def step(self, step: Step) -> None:
        """An ``event`` record."""
        self._write(step.to_json())

    def finish(self, summary: Summary) -> None:
        """The ``summary`` record."""
        self._write(summary.to_json())


@dataclass(frozen=True)
class Stop:
    """How a replay that did not finish was stopped, for the line printed on exit."""

    replayed: int
    """Events replayed to the end before the stop."""
    total: int
    question: ApprovalRequest | None
    """The question on screen when the person quit: never answered, so denied."""
    interrupted: bool
    """Stopped with Ctrl+C (or SIGINT) rather than q or Ctrl+Q."""

    def describe(self) -> str:
        """What a person needs to know once the terminal is theirs again."""
        how = "interrupted" if self.interrupted else "stopped early"
        text = f"Replay {how}: {self.replayed} of {plural(self.total, 'event')} replayed."
        if self.question is not None:
            question = clean_text(one_line(self.question.prompt), 120, middle=True)
            text += (
                f" The open question on event #{self.replayed + 1} "
                f"({self.question.source}: {question}) was denied: it had no answer."
            )
        return text
