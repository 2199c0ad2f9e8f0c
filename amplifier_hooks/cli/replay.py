"""Replaying a trace through a coordinator, as an agent runtime would, one step at a time.

`Replayer.step` dispatches one trace event and describes what came of it as a `Step`: the
outcome, which handler decided it, approvals, injected and dropped context, user messages
and the handler trace (the records are in `amplifier_hooks.cli.steps`, the one-line views
of event data in `.event_text`).

The replay also does the two things a runtime does with a tool call's outcome. A tool:post
(or tool:error) is paired with the earliest open tool:pre of the same call: the same
``tool_use_id``/``tool_call_id``/``call_id`` when both events carry one, else the same
tool name. If that tool:pre was denied the tool never ran, so its tool:post is skipped; if hooks
modified it the tool ran with the modified ``tool_input``, so the tool:post gets that input.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from amplifier_hooks.cli.event_text import diff, summarize
from amplifier_hooks.cli.steps import (
    Approval,
    Budget,
    Dropped,
    HandlerRun,
    Injected,
    Message,
    Step,
    StepOutcome,
    Summary,
)
from amplifier_hooks.cli.trace_files import TraceEvent
from amplifier_hooks.events import TOOL_ERROR, TOOL_POST, TOOL_PRE
from amplifier_hooks.session.coordinator import Coordinator
from amplifier_hooks.session.outcome import Outcome

__all__ = ["Replayer"]

_CALL_IDS = ("tool_use_id", "tool_call_id", "call_id")


@dataclass
class _Call:
    """A tool:pre waiting for its tool:post."""

    index: int
    tool: object
    call_id: object
    allowed: bool
    modified: bool
    tool_input: object


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
        step_outcome: StepOutcome
        if not outcome.allowed:
            step_outcome, by = "denied", [outcome.denied_by] if outcome.denied_by else []
        elif modifiers and changes:
            step_outcome, by = "modified", modifiers
        else:
            # Asked, then allowed: the hooks that asked (the column is never blank when
            # something had a say).
            step_outcome, by = "allowed", list(dict.fromkeys(d.source for d in outcome.approvals))
        # A modified event is shown as the hooks left it: what runs, and never the secret
        # a redaction took out (a view that keeps the end of a long line would show it).
        shown = outcome.data if step_outcome == "modified" else data
        return Step(
            index,
            item.line,
            item.event,
            summarize(item.event, shown),
            step_outcome,
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
