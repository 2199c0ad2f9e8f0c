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

from collections.abc import Mapping
from functools import partial
from typing import Any

from amplifier_hooks.hosts.answering import NoAskShape, answer_without_asking, fail_closed
from amplifier_hooks.hosts.base import HostAnswer, HostCall, cap_text
from amplifier_hooks.hosts.claude_code.answers import DEFAULT_DENY_REASON
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


refuse_cline = partial(fail_closed, cline_deny)
"""The fail-closed answer (see `HostAdapter.refuse`)."""


def _original(call: HostCall) -> Mapping[str, Any]:
    payload = call.data["host"]["payload"]
    tool_call = payload.get("tool_call") or payload.get("tool_result") or {}
    value = tool_call.get("input") if isinstance(tool_call, dict) else None
    return dict(value) if isinstance(value, dict) else {}


CLINE_SHAPE = NoAskShape("cline", cline_deny, "overrideInput", _original)


def build_cline_answer(profile: HostProfile, call: HostCall, outcome: Outcome) -> HostAnswer:
    """The answer for ``outcome`` (see the module docstring)."""
    return answer_without_asking(CLINE_SHAPE, profile, call, outcome)
