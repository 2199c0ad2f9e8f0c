"""The parts every host's answer is built from, and the whole answer of a host that cannot ask.

Hosts say no, rewrite and add context in fields of their own, but the steps are the same:
a failure of ours is a deny only where the event guards; context goes where the event takes
it, else a note says it was not given; notes ride along with whatever is answered.
`answer_without_asking` is the whole answer of a host whose hooks cannot ask (Cline,
OpenCode): its `NoAskShape` names the fields it takes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from amplifier_hooks.hosts.base import HostAnswer, HostCall, cap_text
from amplifier_hooks.hosts.claude_code.answers import cannot_ask, new_input
from amplifier_hooks.hosts.outcomes import (
    changed_fields,
    context_texts,
    dropped_note,
    host_prompts,
    message_lines,
)
from amplifier_hooks.hosts.profile import HostProfile
from amplifier_hooks.session.outcome import Outcome

__all__ = [
    "NoAskShape",
    "answer_without_asking",
    "context_for",
    "fail_closed",
    "finished",
    "with_notes",
]

Deny = Callable[[HostProfile, "str | None", str], HostAnswer]
"""A host's deny: ``(profile, event or None when unknown, reason)``."""


def with_notes(answer: HostAnswer, notes: list[str]) -> HostAnswer:
    """``answer`` with ``notes`` added after its own."""
    return HostAnswer(answer.output, answer.exit_code, answer.stderr, (*answer.notes, *notes))


def fail_closed(
    deny: Deny, profile: HostProfile, call: HostCall | None, reason: str, guarding: bool
) -> HostAnswer:
    """The answer when we could not check a call (see `HostAdapter.refuse`): the host's
    ``deny`` where the event guards, else only a note. A host's refusal is this with its
    deny bound (``partial(fail_closed, cline_deny)``)."""
    if not guarding:
        return HostAnswer(None, notes=(f"amplifier-hooks could not check this event: {reason}",))
    text = f"amplifier-hooks could not check this call, so it is blocked: {reason}"
    return deny(profile, call.host_event if call is not None else None, text)


def context_for(
    outcome: Outcome, takes: bool, host: str, event: str, what: str = "context"
) -> tuple[str | None, str | None]:
    """The context for the model (capped) where the event ``takes`` it; else a note that
    it was not given (``what`` is the host's word for it)."""
    texts, sources = context_texts(outcome)
    if not texts:
        return None, None
    if takes:
        return cap_text("\n\n".join(texts)), None
    said = ", ".join(sources)
    return (
        None,
        f"context from {said} was not given to the model: {host} takes no {what} on {event}",
    )


def finished(output: dict[str, Any], notes: list[str], outcome: Outcome) -> HostAnswer:
    """The answer ``output`` (none when empty), with a note of what was dropped."""
    note = dropped_note(outcome)
    if note is not None:
        notes.append(note)
    return HostAnswer(output or None, notes=tuple(notes))


class NoAskShape(NamedTuple):
    """Where a host that cannot ask takes each part of an answer."""

    host: str
    """The host's name in notes."""
    deny: Deny
    input_field: str
    """The field that carries a rewritten input, whole."""
    original: Callable[[HostCall], Mapping[str, Any]]
    """The call's tool input as the host sent it."""


def answer_without_asking(
    shape: NoAskShape, profile: HostProfile, call: HostCall, outcome: Outcome
) -> HostAnswer:
    """The answer for ``outcome`` from a host that cannot ask: a question is a deny that
    says how to answer it; a rewrite is the whole new input; context goes in
    ``context``. The host shows a hook's user no message, so messages are notes."""
    dialect = profile.dialect
    event = call.host_event
    notes = message_lines(outcome.messages)
    output: dict[str, Any] = {}
    if changed_fields(call.data, outcome.data):
        mapped = new_input(dialect, call, outcome, shape.original(call))
        if isinstance(mapped, str):
            if outcome.allowed or host_prompts(outcome) is not None:
                return with_notes(shape.deny(profile, event, mapped), notes)
        elif outcome.allowed:
            output[shape.input_field] = mapped
    if not outcome.allowed:
        prompts = host_prompts(outcome)
        if prompts is None:
            reason = outcome.reason or "denied by a hook"
            return with_notes(shape.deny(profile, event, reason), notes)
        question = cannot_ask(profile, event, "\n".join(prompts))
        return with_notes(shape.deny(profile, event, question), notes)
    context, note = context_for(outcome, dialect.takes_context(event), shape.host, event)
    if context is not None:
        output["context"] = context
    if note is not None:
        notes.append(note)
    return finished(output, notes, outcome)
