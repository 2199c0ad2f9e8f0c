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

from collections.abc import Mapping
from functools import partial
from typing import Any

from amplifier_hooks.hosts.answering import NoAskShape, answer_without_asking, fail_closed
from amplifier_hooks.hosts.base import HostAnswer, HostCall, cap_text
from amplifier_hooks.hosts.claude_code.answers import DEFAULT_DENY_REASON
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


refuse_opencode = partial(fail_closed, opencode_deny)
"""The fail-closed answer (see `HostAdapter.refuse`)."""


def _original(call: HostCall) -> Mapping[str, Any]:
    args = call.data["host"]["payload"].get("args")
    return args or {}


OPENCODE_SHAPE = NoAskShape("opencode", opencode_deny, "args", _original)


def build_opencode_answer(profile: HostProfile, call: HostCall, outcome: Outcome) -> HostAnswer:
    """The answer for ``outcome`` (see the module docstring)."""
    return answer_without_asking(OPENCODE_SHAPE, profile, call, outcome)
