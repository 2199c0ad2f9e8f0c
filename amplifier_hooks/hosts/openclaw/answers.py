"""From an `Outcome` to what our OpenClaw plugin hands OpenClaw (observed on 2026.9.6).

``before_tool_call`` returns OpenClaw's own result, which the plugin passes on as it is:

- deny: ``{"block": true, "blockReason": R}``. The tool does not run, the model's next
  tool message is exactly R, and the turn goes on.
- a question left to the host: ``{"requireApproval": {...}}``, asked in the person's
  channel (``/approve``) or of a gateway client with ``operator.approvals``; an
  unanswered one denies with our ``timeoutReason``. Only sent where a channel started the
  run (`OPENCLAW_PROFILE.answers.attended`): headless, OpenClaw denies it at once.
- a change: ``{"params": P}``. OpenClaw runs ``{...original, ...P}``, a shallow merge, so
  only the fields that changed are sent; a change that removes a field cannot be said,
  and is a deny.
- ``before_prompt_build`` takes context: ``{"prependContext": TEXT}``. Context on
  ``before_tool_call`` has no field and is logged (`HostAnswer.notes`).

Everything else is nothing: OpenClaw's own rules decide.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from amplifier_hooks.hosts.answering import context_for, fail_closed, finished
from amplifier_hooks.hosts.base import HostAnswer, HostCall, cap_text
from amplifier_hooks.hosts.claude_code.answers import ANSWER_WHERE, DEFAULT_DENY_REASON
from amplifier_hooks.hosts.outcomes import (
    changed_fields,
    host_prompts,
    message_lines,
)
from amplifier_hooks.hosts.profile import HostProfile
from amplifier_hooks.hosts.tools import InputMappingError
from amplifier_hooks.session.outcome import Outcome

__all__ = ["APPROVAL_TITLE", "build_openclaw_answer", "openclaw_deny", "refuse_openclaw"]

APPROVAL_TITLE = "amplifier-hooks asks"
"""The title of the approval OpenClaw shows in the person's channel."""

PROMPT_EVENT = "before_prompt_build"

DESCRIPTION_LIMIT = 512
"""The most characters OpenClaw's gateway takes in an approval's description."""

MAX_APPROVAL_S = 600.0
"""The longest OpenClaw waits for an approval (it caps ``timeoutMs`` there)."""


def openclaw_deny(reason: str, notes: tuple[str, ...] = ()) -> HostAnswer:
    """Block the tool call; the model reads ``reason`` as the tool's result."""
    text = cap_text(reason.strip() or DEFAULT_DENY_REASON)
    return HostAnswer({"block": True, "blockReason": text}, notes=notes)


def _deny(profile: HostProfile, event: str | None, reason: str) -> HostAnswer:
    return openclaw_deny(reason)


refuse_openclaw = partial(fail_closed, _deny)
"""The fail-closed answer (see `HostAdapter.refuse`): the same block on every event that
guards."""


def _new_params(profile: HostProfile, call: HostCall, outcome: Outcome) -> dict[str, Any] | str:
    """The fields to merge over the call's ``params``, or why the change cannot be said."""
    changed = changed_fields(call.data, outcome.data)
    if changed != ["tool_input"]:
        others = ", ".join(n for n in changed if n != "tool_input")
        return f"a hook changed {others} of the tool call, which OpenClaw cannot apply"
    host = call.data["host"]
    tool = host.get("tool_name")
    if tool == "process":
        return "a hook rewrote what this call types into a running shell, which cannot be said"
    new_input = outcome.data.get("tool_input")
    if not isinstance(new_input, Mapping):
        return "a hook replaced the tool input with something that is not an object"
    original = host["payload"].get("params") or {}
    try:
        whole = profile.dialect.tools.host_input(new_input, original, tool)
    except InputMappingError as exc:
        return f"a hook changed the tool input in a way OpenClaw cannot take: {exc}"
    removed = sorted(k for k in original if k not in whole)
    if removed:
        return (
            f"a hook removed {', '.join(removed)} from the tool call; OpenClaw merges a "
            "rewrite over the original and cannot remove a field"
        )
    return {k: v for k, v in whole.items() if k not in original or original[k] != v}


def _approval(question: str, outcome: Outcome) -> dict[str, Any]:
    """OpenClaw's ``requireApproval``. Its gateway refuses a description over
    `DESCRIPTION_LIMIT` characters, keeps no "always" for a plugin (so only a one-time
    answer is offered), and waits at most 600 s; unanswered, the model reads
    ``timeoutReason``: ours, which says how a person can answer."""
    asks = outcome.resolution.approvals if outcome.resolution is not None else []
    seconds = min((ask.timeout for ask in asks), default=300.0)
    seconds = min(seconds, MAX_APPROVAL_S)
    return {
        "title": APPROVAL_TITLE,
        "description": cap_text(question, DESCRIPTION_LIMIT),
        "severity": "warning",
        "allowedDecisions": ["allow-once", "deny"],
        "timeoutMs": int(seconds * 1000),
        "timeoutReason": cap_text(
            f"{question} — nobody answered OpenClaw's approval request within {seconds:g} s, "
            f"so it is denied. A person answers it in the chat (/approve ID allow-once) or "
            f"in a client connected to the gateway with the operator.approvals scope; "
            f"{ANSWER_WHERE}"
        ),
    }


def build_openclaw_answer(profile: HostProfile, call: HostCall, outcome: Outcome) -> HostAnswer:
    """The answer for ``outcome`` (see the module docstring)."""
    event = call.host_event
    notes = message_lines(outcome.messages)  # OpenClaw has no field that shows them
    guarding = profile.dialect.guarding(event)
    params: dict[str, Any] | None = None
    if guarding and changed_fields(call.data, outcome.data):
        mapped = _new_params(profile, call, outcome)
        if isinstance(mapped, str):
            return openclaw_deny(f"{mapped}, so it is denied", tuple(notes))
        params = mapped or None
    if not outcome.allowed:
        prompts = host_prompts(outcome)
        if prompts is None:
            if not guarding:
                return HostAnswer(None, notes=(*notes, f"OpenClaw cannot block {event}"))
            return openclaw_deny(outcome.reason or "denied by a hook", tuple(notes))
        question = "\n".join(prompts)
        if event not in profile.dialect.can_ask:
            reason = f"{question} — OpenClaw can ask only before a tool call; {ANSWER_WHERE}"
            return openclaw_deny(reason, tuple(notes))
        output: dict[str, Any] = {"requireApproval": _approval(question, outcome)}
        if params is not None:
            output["params"] = params
        return HostAnswer(output, notes=tuple(notes))
    output = {"params": params} if params is not None else {}
    context, note = context_for(outcome, event == PROMPT_EVENT, "OpenClaw", event)
    if context is not None:
        output["prependContext"] = context
    if note is not None:
        notes.append(note)
    return finished(output, notes, outcome)
