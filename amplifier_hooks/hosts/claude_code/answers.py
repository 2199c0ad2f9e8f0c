"""From an `Outcome` to Claude Code's answer (also Codex's: same JSON).

The rules, event by event, are in docs/claude-code.md; in short: a deny is said the way
the event says no (`Dialect.deny_style`), or shown to the user where it cannot be; an
approval by a person or a policy is ``permissionDecision: "allow"``; an empty continue
says nothing, so Claude Code's own permission rules still apply; a change to the tool
input is ``updatedInput`` (with no decision unless approved, so a rewrite never skips
Claude Code's own permission check); anything the event cannot carry is said in
``systemMessage`` or, for a change, refused. Where a host takes fewer answers
(`AnswerRules`: Codex takes no "ask", no bare allow, no rewrite without an allow and no
empty deny reason), the closest safe answer is sent instead: a deny with a reason the
model reads, or nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from amplifier_hooks.hosts.base import HostAnswer, HostCall, cap_text
from amplifier_hooks.hosts.dialect import Dialect
from amplifier_hooks.hosts.outcomes import (
    approval_text,
    changed_fields,
    context_texts,
    dropped_note,
    host_prompts,
    message_lines,
)
from amplifier_hooks.hosts.profile import HostProfile
from amplifier_hooks.hosts.tools import InputMappingError
from amplifier_hooks.session.outcome import Outcome

__all__ = ["ANSWER_WHERE", "build_answer", "deny_answer", "refuse_answer"]

ANSWER_WHERE = (
    "a person can answer such questions when the bundle's approval provider is `queue` "
    "(with `amplifier-hooks approve`)"
)
"""Where a person can answer a question the host cannot put to its user."""

DEFAULT_DENY_REASON = "denied by amplifier-hooks"


def _with_messages(output: dict[str, Any], lines: list[str]) -> dict[str, Any] | None:
    if lines:
        output["systemMessage"] = cap_text("\n".join(lines))
    return output or None


def deny_answer(
    profile: HostProfile, call: HostCall, reason: str, lines: list[str] | None = None
) -> HostAnswer:
    """Say no to ``call`` the way its event does; where it cannot, tell the user. The
    reason is never empty (Codex takes a deny without one as a failed hook)."""
    dialect = profile.dialect
    lines = list(lines or [])
    event = call.host_event
    style = dialect.deny_style(event)
    text = cap_text(reason.strip() or DEFAULT_DENY_REASON)
    if style == "permission":
        specific = {
            "hookEventName": event,
            "permissionDecision": "deny",
            "permissionDecisionReason": text,
        }
        return HostAnswer(_with_messages({"hookSpecificOutput": specific}, lines))
    if style == "permission_request":
        decision = {"behavior": "deny", "message": text}
        request: dict[str, Any] = {"hookEventName": event, "decision": decision}
        return HostAnswer(_with_messages({"hookSpecificOutput": request}, lines))
    if style == "block":
        return HostAnswer(_with_messages({"decision": "block", "reason": text}, lines))
    if style == "decision":
        return HostAnswer(_with_messages({"decision": "deny", "reason": text}, lines))
    if style == "exit2":
        return HostAnswer(_with_messages({}, lines), exit_code=2, stderr=text)
    note = f"{dialect.name} cannot block {event}, so it went ahead"
    lines.append(f"amplifier-hooks denied {event}: {reason} ({note})")
    return HostAnswer(_with_messages({}, lines), notes=(note,))


def refuse_answer(
    profile: HostProfile, call: HostCall | None, reason: str, guarding: bool
) -> HostAnswer:
    """The fail-closed answer (see `HostAdapter.refuse`)."""
    if not guarding:
        warning = f"amplifier-hooks could not check this event: {reason}"
        return HostAnswer({"systemMessage": cap_text(warning)})
    text = f"amplifier-hooks could not check this call, so it is blocked: {reason}"
    if call is None or profile.dialect.deny_style(call.host_event) is None:
        code = profile.answers.blocking_exit
        return HostAnswer(None, exit_code=code, stderr=cap_text(text))
    return deny_answer(profile, call, text)


def _updated_input(
    dialect: Dialect,
    call: HostCall,
    outcome: Outcome,
    original: Mapping[str, Any] | None = None,
) -> dict[str, Any] | str:
    """The host's ``updatedInput`` for the outcome's changed tool input, or why there
    can be none. ``original`` is the tool input as the host sent it (default: the
    payload's ``tool_input``, where Claude-style hosts put it)."""
    changed = changed_fields(call.data, outcome.data)
    event = call.host_event
    if event not in dialect.modify_events:
        return _cannot_change(dialect, event, changed, outcome)
    if changed != ["tool_input"]:
        others = [name for name in changed if name != "tool_input"]
        return (
            f"a hook changed {', '.join(others)} of the tool call, which "
            f"{dialect.name} cannot apply (only the tool's input can be changed)"
        )
    new_input = outcome.data.get("tool_input")
    if not isinstance(new_input, Mapping):
        return "a hook replaced the tool input with something that is not an object"
    # The host's own input, as received: the canonical one already carries the alias.
    if original is None:
        original = call.data["host"]["payload"].get("tool_input") or {}
    try:
        whole = dialect.tools.host_input(new_input, original, call.data["host"].get("tool_name"))
    except InputMappingError as exc:
        return f"a hook changed the tool input in a way {dialect.name} cannot take: {exc}"
    if dialect.input_style == "replace":
        return whole
    removed = sorted(set(original) - set(whole))
    if removed:
        return (
            f"a hook removed {', '.join(removed)} from the tool input; {dialect.name} "
            "merges changes over the input, so a field cannot be removed"
        )
    return {k: v for k, v in whole.items() if k not in original or original[k] != v}


def _cannot_ask(profile: HostProfile, event: str, question: str) -> str:
    dialect = profile.dialect
    if not profile.answers.ask or not dialect.can_ask:
        where = profile.answers.no_ask
    else:
        where = f"can ask its user only before a tool call (not on {event})"
    return (
        f"{question} — a hook asked for a person's approval, and {profile.title} {where}, "
        f"so it is denied; {ANSWER_WHERE}"
    )


def _unapproved_rewrite(profile: HostProfile, call: HostCall, outcome: Outcome) -> str:
    fields = ", ".join(changed_fields(call.data, outcome.data)) or "the tool input"
    return (
        f"a hook rewrote this call ({fields}); {profile.title} applies a rewrite only "
        "together with an allow, which would skip its own approval, and nobody approved "
        "this one, so it is denied"
    )


def _cannot_change(dialect: Dialect, event: str, changed: list[str], outcome: Outcome) -> str:
    """Why a change to an event the host takes no change on is not applied: first what
    the changing handlers told the person (ah-redaction: the secret it found, and its
    rule), then which handler it was, so the person knows what to fix and where."""
    trace = outcome.resolution.trace if outcome.resolution is not None else []
    who = sorted({e.handler for e in trace if e.action == "modify"})
    said = [m.text for m in outcome.messages if m.source in who]
    fields = ", ".join(changed)
    what = (
        "the prompt (UserPromptSubmit)" if event == "UserPromptSubmit" else f"{fields} of {event}"
    )
    text = f"{dialect.name} cannot apply a change to {what}"
    if who:
        text += f" (the change came from handler {', '.join(who)})"
    return "; ".join([*said, text])


def build_answer(profile: HostProfile, call: HostCall, outcome: Outcome) -> HostAnswer:
    """The answer for ``outcome`` (see the module docstring)."""
    dialect = profile.dialect
    rules = profile.answers
    event = call.host_event
    lines = message_lines(outcome.messages)
    modified = bool(changed_fields(call.data, outcome.data))
    updated: dict[str, Any] | None = None
    if modified:
        mapped = _updated_input(dialect, call, outcome)
        if isinstance(mapped, str):
            if outcome.allowed and dialect.keeps_working(event):
                # Blocking here would keep the agent working, not stop anything.
                lines.append(f"amplifier-hooks: {mapped}; the change was not applied")
                return HostAnswer(_with_messages({}, lines), notes=(mapped,))
            if outcome.allowed or host_prompts(outcome) is not None:
                return deny_answer(profile, call, mapped, lines)
        else:
            updated = mapped
    if not outcome.allowed:
        prompts = host_prompts(outcome)
        if prompts is None:
            return deny_answer(profile, call, outcome.reason or "denied by a hook", lines)
        question = "\n".join(prompts)
        if event not in dialect.can_ask or not rules.ask:
            return deny_answer(profile, call, _cannot_ask(profile, event, question), lines)
        specific: dict[str, Any] = {
            "hookEventName": event,
            "permissionDecision": "ask",
            "permissionDecisionReason": cap_text(question),
        }
        if updated is not None:
            specific["updatedInput"] = updated
        return HostAnswer(_with_messages({"hookSpecificOutput": specific}, lines))
    specific = {}
    output: dict[str, Any] = {}
    approved = approval_text(outcome)
    if event in dialect.modify_events and dialect.input_style == "merge":
        if approved is not None:
            output.update(decision="allow", reason=cap_text(approved))
        if updated is not None:
            specific["tool_input"] = updated
    elif event in dialect.modify_events:
        if updated is not None and approved is None and not rules.rewrite_without_allow:
            # Codex applies a rewrite only with an allow, which skips its own approval;
            # without one it runs the original. Neither is ours to decide.
            return deny_answer(profile, call, _unapproved_rewrite(profile, call, outcome), lines)
        if approved is not None and (updated is not None or rules.bare_allow):
            specific["permissionDecision"] = "allow"
            specific["permissionDecisionReason"] = cap_text(approved)
        # A rewrite without an approval carries no decision: Claude Code applies the new
        # input and its own permission rules decide as they would have (observed with
        # 2.1.331; an "ask" would be a deny under -p, where nobody can answer).
        if updated is not None:
            specific["updatedInput"] = updated
    elif event == "PermissionRequest" and approved is not None:
        specific["decision"] = {"behavior": "allow"}
    texts, sources = context_texts(outcome)
    if texts:
        if dialect.takes_context(event):
            specific["additionalContext"] = cap_text("\n\n".join(texts))
        else:
            lines.append(
                f"amplifier-hooks: context from {', '.join(sources)} was not given to the "
                f"model: {dialect.name} takes no additional context on {event}"
            )
    note = dropped_note(outcome)
    if note is not None:
        lines.append(note)
    if specific:
        output["hookSpecificOutput"] = {"hookEventName": event, **specific}
    return HostAnswer(_with_messages(output, lines))


# Shared with the adapters of hosts whose answers have another shape (Copilot CLI).
new_input = _updated_input
cannot_ask = _cannot_ask
