"""From an `Outcome` to Cline's answer (observed on 3.0.65).

Cline reads a hook's stdout JSON (``cancel``, ``errorMessage``, ``context``,
``overrideInput``) and ignores its exit code:

- a deny is ``{"overrideInput": {"blocked_by_guard": R}, "context": "…R…"}``: the tool
  rejects the input as invalid and does not run, the task goes on, and the model reads R
  in a ``<hook_context>`` message. Never ``cancel``: it stops the tool by aborting the
  whole task, and the model never hears why.
- a rewrite is ``overrideInput``, the tool's whole new input;
- context is ``context`` (PreToolUse, PostToolUse, TaskStart, UserPromptSubmit);
- ``{}`` lets the call run (headless, Cline approves every call itself).

A hook cannot ask (there is no answer for it), so provider ``auto`` puts a question on
the queue or denies it saying how to answer, and ``host`` denies saying so. Only
PreToolUse can be denied this way.
"""

from __future__ import annotations

from typing import Any

from amplifier_hooks.hosts.base import HostAnswer, HostCall, cap_text
from amplifier_hooks.hosts.claude_code.answers import DEFAULT_DENY_REASON, cannot_ask, new_input
from amplifier_hooks.hosts.outcomes import (
    changed_fields,
    context_texts,
    dropped_note,
    host_prompts,
    message_lines,
)
from amplifier_hooks.hosts.profile import HostProfile
from amplifier_hooks.session.outcome import Outcome

__all__ = ["BLOCKED_FIELD", "build_cline_answer", "cline_deny", "refuse_cline"]

BLOCKED_FIELD = "blocked_by_guard"
"""The one field of the input a deny hands the tool: no tool of Cline's takes it, so the
call is rejected as invalid and never runs."""


def cline_deny(profile: HostProfile, event: str | None, reason: str) -> HostAnswer:
    """The deny the model reads, where the event can deny (or may: an unknown event);
    else nothing, and a note saying what could not be stopped."""
    text = cap_text(reason.strip() or DEFAULT_DENY_REASON)
    if event is None or profile.dialect.deny_style(event) is not None:
        said = f"amplifier-hooks blocked this tool call: {text}"
        return HostAnswer({"overrideInput": {BLOCKED_FIELD: text}, "context": said})
    return HostAnswer(None, notes=(f"cline cannot block {event}: {reason}",))


def refuse_cline(
    profile: HostProfile, call: HostCall | None, reason: str, guarding: bool
) -> HostAnswer:
    """The fail-closed answer (see `HostAdapter.refuse`)."""
    if not guarding:
        return HostAnswer(None, notes=(f"amplifier-hooks could not check this event: {reason}",))
    text = f"amplifier-hooks could not check this call, so it is blocked: {reason}"
    return cline_deny(profile, call.host_event if call is not None else None, text)


def _with_notes(answer: HostAnswer, notes: list[str]) -> HostAnswer:
    return HostAnswer(answer.output, answer.exit_code, answer.stderr, (*answer.notes, *notes))


def _original(call: HostCall) -> dict[str, Any]:
    payload = call.data["host"]["payload"]
    tool_call = payload.get("tool_call") or payload.get("tool_result") or {}
    value = tool_call.get("input") if isinstance(tool_call, dict) else None
    return dict(value) if isinstance(value, dict) else {}


def build_cline_answer(profile: HostProfile, call: HostCall, outcome: Outcome) -> HostAnswer:
    """The answer for ``outcome`` (see the module docstring)."""
    dialect = profile.dialect
    event = call.host_event
    notes = message_lines(outcome.messages)  # Cline shows a hook's user no message
    output: dict[str, Any] = {}
    if changed_fields(call.data, outcome.data):
        mapped = new_input(dialect, call, outcome, _original(call))
        if isinstance(mapped, str):
            if outcome.allowed or host_prompts(outcome) is not None:
                return _with_notes(cline_deny(profile, event, mapped), notes)
        elif outcome.allowed:
            output["overrideInput"] = mapped
    if not outcome.allowed:
        prompts = host_prompts(outcome)
        if prompts is None:
            reason = outcome.reason or "denied by a hook"
            return _with_notes(cline_deny(profile, event, reason), notes)
        question = cannot_ask(profile, event, "\n".join(prompts))
        return _with_notes(cline_deny(profile, event, question), notes)
    texts, sources = context_texts(outcome)
    if texts:
        if dialect.takes_context(event):
            output["context"] = cap_text("\n\n".join(texts))
        else:
            notes.append(
                f"context from {', '.join(sources)} was not given to the model: cline "
                f"takes no context on {event}"
            )
    note = dropped_note(outcome)
    if note is not None:
        notes.append(note)
    return HostAnswer(output or None, notes=tuple(notes))
