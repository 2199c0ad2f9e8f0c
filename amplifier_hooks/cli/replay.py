"""Replaying a trace through a coordinator, as an agent runtime would, one step at a time.

`Replayer.step` dispatches one trace event and describes what came of it as a `Step`: the
verdict, which handler decided it, approvals, injected and dropped context, user messages
and the handler trace. The report, the JSON lines and the Textual app all show `Step`s, so
the three views cannot disagree.

The replay also does the two things a runtime does with a tool call's verdict. A tool:post
(or tool:error) is paired with the earliest open tool:pre of the same call: the same
``tool_use_id``/``tool_call_id``/``call_id`` when both events carry one, else the same
tool name. If that tool:pre was denied the tool never ran, so its tool:post is skipped; if hooks
modified it the tool ran with the modified ``tool_input``, so the tool:post gets that input.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from amplifier_hooks.approvals.models import clean_text
from amplifier_hooks.cli.trace import TraceEvent
from amplifier_hooks.coordinator import Coordinator, Outcome
from amplifier_hooks.events import TOOL_ERROR, TOOL_POST, TOOL_PRE

Verdict = Literal["allowed", "modified", "denied", "skipped"]

_CALL_IDS = ("tool_use_id", "tool_call_id", "call_id")
_SUMMARY_KEYS = {
    "prompt:submit": "prompt",
    "session:start": "session_id",
    "session:resume": "session_id",
    "provider:request": "model",
    "provider:response": "model",
    "prompt:complete": "response",
    "session:end": "session_id",
}
_INPUT_KEYS = ("command", "pattern", "query", "path", "file_path", "url")
SUMMARY_LIMIT = 160
"""Characters of an event's one-line summary: views cut it further to their width, so a
wide terminal shows a long command whole."""
CHANGE_LIMIT = 6
"""Changed fields listed per event at most (a redaction can touch many messages)."""


@dataclass(frozen=True)
class HandlerRun:
    """One handler's part in the event (from the resolution's trace)."""

    handler: str
    priority: int
    action: str
    failure: str | None
    ms: float
    error: str | None = None


@dataclass(frozen=True)
class Approval:
    """An ask_user and how it was decided."""

    source: str
    prompt: str
    choice: str | None
    allowed: bool
    via: str
    remembered: bool
    reason: str | None


@dataclass(frozen=True)
class Injected:
    """Context a hook injected (persisted or ephemeral) that the injector accepted."""

    source: str
    role: str
    ephemeral: bool
    tokens: int
    text: str


@dataclass(frozen=True)
class Dropped:
    """Context the injector refused, and why (size limit, budget, refused role, sink)."""

    source: str
    reason: str
    tokens: int | None
    bytes: int


@dataclass(frozen=True)
class Message:
    """A message a hook addressed to the person."""

    level: str
    source: str
    text: str


@dataclass(frozen=True)
class Change:
    """A field of the event data that a modify changed: its path and the new value."""

    path: str
    after: str


@dataclass(frozen=True)
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
    outcome: Verdict
    by: list[str] = field(default_factory=list)
    """The handler that denied, or the handlers whose modify changed the data."""
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
    def verdict_text(self) -> str:
        """``allowed``, ``denied``… prefixed with ``asked →`` when an approval decided."""
        return f"asked → {self.outcome}" if self.asked else self.outcome

    def to_json(self) -> dict[str, Any]:
        """A plain-JSON view (one line of ``--json``)."""
        record = {"type": "event", **asdict(self)}
        record["asked"] = self.asked
        record["failures"] = [asdict(run) for run in self.failures]
        return record


@dataclass
class _Call:
    """A tool:pre waiting for its tool:post."""

    index: int
    tool: object
    call_id: object
    allowed: bool
    modified: bool
    tool_input: object


@dataclass
class Summary:
    """Totals over a replay, for the report's last table."""

    events: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    asked: int = 0
    approvals: dict[str, int] = field(default_factory=dict)
    """Decisions by how they were reached and their verdict, e.g. ``"policy: denied"``."""
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


class Replayer:
    """Feeds trace events to a coordinator in order and describes each outcome."""

    def __init__(self, coordinator: Coordinator) -> None:
        self.coordinator = coordinator
        self.summary = Summary()
        self._pending: list[_Call] = []
        self._count = 0

    async def step(self, item: TraceEvent) -> Step:
        """Dispatch ``item`` (or skip it, for the tool:post of a denied call)."""
        self._count += 1
        index = self._count
        data = dict(item.data)
        note: str | None = None
        call = self._pair(item.event, data) if item.event in (TOOL_POST, TOOL_ERROR) else None
        if call is not None and not call.allowed:
            step = Step(
                index,
                item.line,
                item.event,
                summarize(item.event, data),
                "skipped",
                note=f"not run: its tool:pre (#{call.index}) was denied",
                budget=self._budget(),
            )
            self.summary.add(step)
            return step
        if call is not None and call.modified:
            data["tool_input"] = call.tool_input
            note = f"tool_input as modified at its tool:pre (#{call.index})"
        outcome = await self.coordinator.dispatch(item.event, data)
        step = self._describe(index, item, data, outcome)
        step.note = note
        if item.event == TOOL_PRE:
            self._pending.append(
                _Call(
                    index,
                    data.get("tool_name"),
                    _call_id(data),
                    outcome.allowed,
                    step.outcome == "modified" and "tool_input" in outcome.data,
                    outcome.data.get("tool_input"),
                )
            )
        self.summary.add(step)
        return step

    def _pair(self, event: str, data: Mapping[str, Any]) -> _Call | None:
        call_id = _call_id(data)
        for position, call in enumerate(self._pending):
            if call_id is not None and call.call_id is not None:
                same = call.call_id == call_id
            else:
                same = call.tool == data.get("tool_name")
            if same:
                return self._pending.pop(position)
        return None

    def _budget(self) -> Budget:
        usage = self.coordinator.injector.usage
        return Budget(usage.turn, usage.used, usage.budget)

    def _describe(
        self, index: int, item: TraceEvent, data: dict[str, Any], outcome: Outcome
    ) -> Step:
        trace = outcome.resolution.trace if outcome.resolution is not None else []
        modifiers = [t.handler for t in trace if t.action == "modify" and t.failure is None]
        changes = diff(data, outcome.data)
        verdict: Verdict
        if not outcome.allowed:
            verdict, by = "denied", [outcome.denied_by] if outcome.denied_by else []
        elif modifiers and changes:
            verdict, by = "modified", modifiers
        else:
            verdict, by = "allowed", []
        return Step(
            index,
            item.line,
            item.event,
            summarize(item.event, data),
            verdict,
            by=by,
            reason=outcome.reason if not outcome.allowed else None,
            approvals=[
                Approval(d.source, d.prompt, d.choice, d.allowed, d.via, d.remembered, d.reason)
                for d in outcome.approvals
            ],
            changes=changes,
            injected=[_injected(m) for m in (*outcome.injected, *outcome.ephemeral)],
            dropped=[Dropped(r.source, str(r.reason), r.tokens, r.bytes) for r in outcome.dropped],
            messages=[Message(m.level, m.source, m.text) for m in outcome.messages],
            handlers=[
                HandlerRun(
                    t.handler, t.priority, t.action, t.failure, round(t.duration * 1000, 3), t.error
                )
                for t in trace
            ],
            budget=self._budget(),
        )


def _call_id(data: Mapping[str, Any]) -> object:
    for key in _CALL_IDS:
        value = data.get(key)
        if value is not None:
            return value
    return None


def _injected(message: Mapping[str, Any]) -> Injected:
    meta = message.get("metadata") or {}
    return Injected(
        str(meta.get("source", "?")),
        str(message.get("role", "system")),
        bool(meta.get("ephemeral", False)),
        int(meta.get("tokens", 0)),
        str(message.get("content", "")),
    )


def summarize(event: str, data: Mapping[str, Any], limit: int = SUMMARY_LIMIT) -> str:
    """A short, safe description of an event: the tool and its command or path, the
    prompt, the model…"""
    text = ""
    if "tool_name" in data:
        tool = str(data.get("tool_name"))
        tool_input = data.get("tool_input")
        detail = ""
        if isinstance(tool_input, Mapping):
            detail = next((str(tool_input[k]) for k in _INPUT_KEYS if k in tool_input), "")
            if not detail and isinstance(tool_input.get("todos"), list):
                detail = f"{len(tool_input['todos'])} items"
        text = f"{tool}: {detail}" if detail else tool
    elif event in _SUMMARY_KEYS and data.get(_SUMMARY_KEYS[event]) is not None:
        text = str(data[_SUMMARY_KEYS[event]])
        if isinstance(data.get("messages"), list):
            text += f" ({len(data['messages'])} messages)"
    return clean_text(text, limit)


_SESSION_KEYS = frozenset({"session_id", "parent_id"})


def diff(before: Any, after: Any, path: str = "") -> list[Change]:
    """The fields that differ between ``before`` and ``after`` (the registry's
    ``timestamp`` and the session identity it stamps aside), each with a short view of
    the new value around the change."""
    changes: list[Change] = []
    _diff(before, after, path, changes)
    return changes


def _diff(before: Any, after: Any, path: str, out: list[Change]) -> None:
    if len(out) >= CHANGE_LIMIT or before == after:
        return
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        for key in after:
            if not path and (key == "timestamp" or (key in _SESSION_KEYS and key not in before)):
                continue  # stamped by the registry, not changed by a hook
            sub = f"{path}.{key}" if path else str(key)
            if key not in before:
                out.append(Change(sub, _short(after[key])))
            else:
                _diff(before[key], after[key], sub, out)
        for key in before:
            if key not in after and len(out) < CHANGE_LIMIT:
                out.append(Change(f"{path}.{key}" if path else str(key), "(removed)"))
        return
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for position, (old, new) in enumerate(zip(before, after, strict=True)):
            _diff(old, new, f"{path}[{position}]", out)
        return
    if isinstance(before, str) and isinstance(after, str):
        out.append(Change(path, _around_change(before, after)))
        return
    out.append(Change(path, _short(after)))


def _short(value: Any, limit: int = 80) -> str:
    return clean_text(_joined(value if isinstance(value, str) else repr(value)), limit)


def _joined(text: str) -> str:
    """``text`` with its line breaks as " / ": a value is shown on one line, and an
    escaped ``\\x0a`` there reads as noise."""
    return " / ".join(text.splitlines()) if "\n" in text or "\r" in text else text


def _around_change(before: str, after: str, width: int = 80) -> str:
    """``after`` cut to ``width`` characters around where it first differs from
    ``before``, so a redaction marker deep in a long message is what shows."""
    start = next(
        (i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b),
        min(len(before), len(after)),
    )
    begin = max(0, start - width // 3)
    piece = after[begin : begin + width]
    prefix = "…" if begin else ""
    suffix = "…" if begin + width < len(after) else ""
    return prefix + clean_text(_joined(piece), None) + suffix
