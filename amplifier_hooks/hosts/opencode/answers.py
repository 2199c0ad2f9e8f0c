"""From an `Outcome` to the answer our OpenCode plugin acts on (observed on 1.18.33).

The plugin is ours, so the answer is ours too; what the plugin can do with it is
OpenCode's:

- ``{"decision": "deny", "reason": R}``: the plugin throws ``Error(R)``. OpenCode does
  not run the tool, the model's tool result is exactly R, and the turn goes on.
- ``{"args": {...}}``: the tool's new arguments, whole. The plugin changes
  ``output.args`` in place (OpenCode ignores a new object) to be exactly these.
- ``{"context": T}``: text for the model. OpenCode has no field for it, so the plugin
  appends it to the tool's result (``tool.execute.after`` changes ``output.output``);
  context given before the call waits there for the result.
- ``{}``: nothing to say; OpenCode's own ``permission`` rules still decide.

OpenCode has no way for a plugin to ask its user (``permission.ask`` is never called),
so a question never becomes an answer here: provider ``auto`` puts it on the queue or
denies it saying how to answer, and ``host`` denies saying so (`AnswerRules.no_ask`).
Only ``tool.execute.before`` can block.
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

__all__ = ["build_opencode_answer", "opencode_deny", "refuse_opencode"]


def opencode_deny(profile: HostProfile, event: str | None, reason: str) -> HostAnswer:
    """A deny where the event can block (or may: an unknown event); else nothing, and a
    note saying what could not be stopped."""
    text = cap_text(reason.strip() or DEFAULT_DENY_REASON)
    if event is None or profile.dialect.deny_style(event) is not None:
        return HostAnswer({"decision": "deny", "reason": text})
    return HostAnswer(None, notes=(f"opencode cannot block {event}: {reason}",))


def refuse_opencode(
    profile: HostProfile, call: HostCall | None, reason: str, guarding: bool
) -> HostAnswer:
    """The fail-closed answer (see `HostAdapter.refuse`)."""
    if not guarding:
        return HostAnswer(None, notes=(f"amplifier-hooks could not check this event: {reason}",))
    text = f"amplifier-hooks could not check this call, so it is blocked: {reason}"
    return opencode_deny(profile, call.host_event if call is not None else None, text)


def _with_notes(answer: HostAnswer, notes: list[str]) -> HostAnswer:
    return HostAnswer(answer.output, answer.exit_code, answer.stderr, (*answer.notes, *notes))


def build_opencode_answer(profile: HostProfile, call: HostCall, outcome: Outcome) -> HostAnswer:
    """The answer for ``outcome`` (see the module docstring)."""
    dialect = profile.dialect
    event = call.host_event
    notes = message_lines(outcome.messages)  # OpenCode shows a plugin's user no message
    output: dict[str, Any] = {}
    if changed_fields(call.data, outcome.data):
        mapped = new_input(dialect, call, outcome, call.data["host"]["payload"].get("args") or {})
        if isinstance(mapped, str):
            if outcome.allowed or host_prompts(outcome) is not None:
                return _with_notes(opencode_deny(profile, event, mapped), notes)
        elif outcome.allowed:
            output["args"] = mapped
    if not outcome.allowed:
        prompts = host_prompts(outcome)
        if prompts is None:
            reason = outcome.reason or "denied by a hook"
            return _with_notes(opencode_deny(profile, event, reason), notes)
        question = cannot_ask(profile, event, "\n".join(prompts))
        return _with_notes(opencode_deny(profile, event, question), notes)
    texts, sources = context_texts(outcome)
    if texts:
        if dialect.takes_context(event):
            output["context"] = cap_text("\n\n".join(texts))
        else:
            notes.append(
                f"context from {', '.join(sources)} was not given to the model: opencode "
                f"takes no context on {event}"
            )
    note = dropped_note(outcome)
    if note is not None:
        notes.append(note)
    return HostAnswer(output or None, notes=tuple(notes))
