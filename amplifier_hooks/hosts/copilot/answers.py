"""From an `Outcome` to GitHub Copilot CLI's answer (observed on 1.0.102).

Copilot reads top-level fields, never Claude Code's ``hookSpecificOutput``:

- ``preToolUse``: ``permissionDecision`` ``"deny"`` (the model reads "Denied by
  preToolUse hook: <reason>"), ``"allow"``, or ``"ask"`` (its own prompt; under ``-p``,
  where nobody can answer, a deny with the reason); ``modifiedArgs`` replaces the tool's
  arguments -- applied with or without an allow, so a rewrite leaves Copilot's own
  permission check in place; ``additionalContext`` reaches the model.
- ``userPromptSubmitted``: ``decision: "block"`` + ``reason`` stops the prompt;
  ``additionalContext`` reaches the model (so does ``sessionStart``'s and
  ``postToolUse``'s).
- Nothing else can be blocked, and no field shows the user a message: a deny or a
  message there is logged (`HostAnswer.notes`), never sent.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from amplifier_hooks.hosts.answering import context_for, fail_closed, finished, with_notes
from amplifier_hooks.hosts.base import HostAnswer, HostCall, cap_text
from amplifier_hooks.hosts.claude_code.answers import DEFAULT_DENY_REASON, cannot_ask, new_input
from amplifier_hooks.hosts.outcomes import (
    approval_text,
    changed_fields,
    host_prompts,
    message_lines,
)
from amplifier_hooks.hosts.profile import HostProfile
from amplifier_hooks.session.outcome import Outcome

__all__ = ["build_copilot_answer", "copilot_deny", "refuse_copilot"]


def copilot_deny(profile: HostProfile, event: str | None, reason: str) -> HostAnswer:
    """Say no the way ``event`` does (both ways when the event is unknown)."""
    text = cap_text(reason.strip() or DEFAULT_DENY_REASON)
    style = profile.dialect.deny_style(event) if event is not None else None
    tool = {"permissionDecision": "deny", "permissionDecisionReason": text}
    prompt = {"decision": "block", "reason": text}
    if event is None:
        return HostAnswer({**tool, **prompt})
    if style == "permission":
        return HostAnswer(tool)
    if style == "block":
        return HostAnswer(prompt)
    return HostAnswer(None, notes=(f"copilot cannot block {event}: {reason}",))


refuse_copilot = partial(fail_closed, copilot_deny)
"""The fail-closed answer (see `HostAdapter.refuse`)."""


def build_copilot_answer(profile: HostProfile, call: HostCall, outcome: Outcome) -> HostAnswer:
    """The answer for ``outcome`` (see the module docstring)."""
    dialect = profile.dialect
    event = call.host_event
    notes = message_lines(outcome.messages)  # Copilot has no field that shows them
    updated: dict[str, Any] | None = None
    if changed_fields(call.data, outcome.data):
        mapped = new_input(dialect, call, outcome)
        if isinstance(mapped, dict) and isinstance(
            call.data["host"]["payload"].get("toolArgs"), str
        ):
            mapped = "a hook changed the input of a free-form tool, which Copilot CLI cannot take"
        if isinstance(mapped, str):
            if outcome.allowed and dialect.keeps_working(event):
                return HostAnswer(None, notes=(mapped, *notes))
            if outcome.allowed or host_prompts(outcome) is not None:
                return with_notes(copilot_deny(profile, event, mapped), notes)
        else:
            updated = mapped
    if not outcome.allowed:
        prompts = host_prompts(outcome)
        if prompts is None:
            reason = outcome.reason or "denied by a hook"
            return with_notes(copilot_deny(profile, event, reason), notes)
        question = "\n".join(prompts)
        if event not in dialect.can_ask or not profile.answers.ask:
            return with_notes(
                copilot_deny(profile, event, cannot_ask(profile, event, question)), notes
            )
        asked: dict[str, Any] = {
            "permissionDecision": "ask",
            "permissionDecisionReason": cap_text(question),
        }
        if updated is not None:
            asked["modifiedArgs"] = updated
        return HostAnswer(asked, notes=tuple(notes))
    output: dict[str, Any] = {}
    approved = approval_text(outcome)
    if event in dialect.modify_events:
        if approved is not None:
            output["permissionDecision"] = "allow"
            output["permissionDecisionReason"] = cap_text(approved)
        if updated is not None:
            output["modifiedArgs"] = updated
    takes = dialect.takes_context(event)
    context, note = context_for(outcome, takes, "copilot", event, "additional context")
    if context is not None:
        output["additionalContext"] = context
    if note is not None:
        notes.append(note)
    return finished(output, notes, outcome)
