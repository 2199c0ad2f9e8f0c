"""What came of one replayed trace event, in the form every view shows: a `Step`.

The report, the JSON lines and the Textual app all render these records and never the
coordinator's `Outcome` directly, so the three views cannot disagree. `Summary` adds
the steps of a replay up for the report's last table.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

__all__ = [
    "Approval",
    "Budget",
    "Change",
    "Dropped",
    "HandlerRun",
    "Injected",
    "Message",
    "Step",
    "StepOutcome",
    "Summary",
]

StepOutcome = Literal["allowed", "modified", "denied", "skipped"]


@dataclass(frozen=True, slots=True)
class HandlerRun:
    """One handler's part in the event (from the resolution's trace)."""

    handler: str
    priority: int
    action: str
    failure: str | None
    ms: float
    error: str | None = None


@dataclass(frozen=True, slots=True)
class Approval:
    """An ask_user and how it was decided."""

    source: str
    prompt: str
    choice: str | None
    allowed: bool
    via: str
    remembered: bool
    reason: str | None


@dataclass(frozen=True, slots=True)
class Injected:
    """Context a hook injected (persisted or ephemeral) that the injector accepted."""

    source: str
    role: str
    ephemeral: bool
    tokens: int
    text: str


@dataclass(frozen=True, slots=True)
class Dropped:
    """Context the injector refused, and why (size limit, budget, refused role, sink)."""

    source: str
    reason: str
    tokens: int | None
    bytes: int


@dataclass(frozen=True, slots=True)
class Message:
    """A message a hook addressed to the person."""

    level: str
    source: str
    text: str


@dataclass(frozen=True, slots=True)
class Change:
    """A field of the event data that a modify changed: its path and the new value."""

    path: str
    after: str


@dataclass(frozen=True, slots=True)
class Budget:
    """The turn's injection budget after the event (budget None: unlimited)."""

    turn: int
    used: int
    budget: int | None


@dataclass
class Step:
    """What came of one trace event."""

    index: int
    line: int
    event: str
    summary: str
    outcome: StepOutcome
    by: list[str] = field(default_factory=list)
    """The handler that denied, the handlers whose modify changed the data, or the hooks
    that asked when the answer allowed."""
    reason: str | None = None
    note: str | None = None
    """What the replay itself did (a skipped tool:post, input taken from a modified pre)."""
    approvals: list[Approval] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    injected: list[Injected] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    handlers: list[HandlerRun] = field(default_factory=list)
    budget: Budget = field(default_factory=lambda: Budget(0, 0, None))

    @property
    def failures(self) -> list[HandlerRun]:
        """The handlers that failed on this event (raised, timed out, returned junk)."""
        return [run for run in self.handlers if run.failure is not None]

    @property
    def asked(self) -> bool:
        """True when a person or policy was asked (or a remembered answer applied)."""
        return bool(self.approvals)

    @property
    def outcome_text(self) -> str:
        """``allowed``, ``denied``… prefixed with how an approval decided: ``remembered →``
        when only remembered answers did (nobody was asked), else ``asked →``."""
        if not self.asked:
            return self.outcome
        if all(a.via == "remembered" for a in self.approvals):
            return f"remembered → {self.outcome}"
        return f"asked → {self.outcome}"

    def to_json(self) -> dict[str, Any]:
        """A plain-JSON view (one line of ``--json``)."""
        record = {"type": "event", **asdict(self)}
        record["asked"] = self.asked
        record["failures"] = [asdict(run) for run in self.failures]
        return record


@dataclass
class Summary:
    """Totals over a replay, for the report's last table."""

    events: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    asked: int = 0
    approvals: dict[str, int] = field(default_factory=dict)
    """Decisions by how they were reached and what they decided, e.g. ``"policy: denied"``."""
    turns: dict[int, Budget] = field(default_factory=dict)
    """The budget as each turn left it."""
    injected_tokens: int = 0
    dropped: int = 0
    messages: int = 0
    failures: int = 0
    """Handler failures: a broken guard must not look like a passing one."""
    skipped_lines: int = 0

    def add(self, step: Step) -> None:
        """Count ``step`` in."""
        self.events += 1
        self.outcomes[step.outcome] = self.outcomes.get(step.outcome, 0) + 1
        if step.asked:
            self.asked += 1
        for approval in step.approvals:
            key = f"{approval.via}: {'allowed' if approval.allowed else 'denied'}"
            self.approvals[key] = self.approvals.get(key, 0) + 1
        self.turns[step.budget.turn] = step.budget
        self.injected_tokens += sum(i.tokens for i in step.injected)
        self.dropped += len(step.dropped)
        self.messages += len(step.messages)
        self.failures += len(step.failures)

    def to_json(self) -> dict[str, Any]:
        """A plain-JSON view (the last line of ``--json``)."""
        record = {"type": "summary", **asdict(self)}
        record["turns"] = [asdict(b) for b in self.turns.values()]
        return record
