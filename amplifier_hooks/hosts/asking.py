"""Whether the host of a hook call can ask its own person: for provider ``auto``.

Claude Code shows its permission prompt for a PreToolUse "ask" in an interactive
session; under ``claude -p`` an "ask" is a deny. A hook cannot see the terminal, but
Claude Code tells its hooks how it was started: ``$CLAUDE_CODE_ENTRYPOINT`` is ``cli``
in an interactive session and ``sdk-cli`` under ``-p`` (pinned on the real binary by
tests/claude_code/test_binary.py). A command hook inherits the variable and the relay
passes it to the server (``?entrypoint=``); an HTTP hook sends it in the
`ENTRYPOINT_HEADER` that ``claude-code install --url`` writes. An entrypoint we do not
know, or a host that says nothing of the kind (Copilot CLI takes an "ask" too), is not
taken to be a person at a prompt: the question goes to the queue or is denied with a
reason saying how to answer.
"""

from __future__ import annotations

import re

from amplifier_hooks.approvals.auto import HostAsking
from amplifier_hooks.hosts.base import HostAdapter, HostCall
from amplifier_hooks.hosts.claude_code.entrypoint import (
    ATTENDED_ENTRYPOINTS,
    ENTRYPOINT_ENV,
    ENTRYPOINT_HEADER,
)
from amplifier_hooks.hosts.profile import AnswerRules, HostProfile

__all__ = [
    "ATTENDED_ENTRYPOINTS",
    "ENTRYPOINT_ENV",
    "ENTRYPOINT_HEADER",
    "host_asking",
    "read_entrypoint",
]

CLAUDE_CODE_NAME = "claude-code"

_WORD = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def read_entrypoint(value: str | None) -> str | None:
    """``value`` if it looks like an entrypoint name (a short word), else None."""
    return value if value is not None and _WORD.fullmatch(value) else None


_ASKED: dict[tuple[int, str, str | None], tuple[HostAdapter, HostAsking]] = {}
_ASKED_MOST = 256


def host_asking(adapter: HostAdapter, call: HostCall, entrypoint: str | None) -> HostAsking:
    """What ``adapter``'s host can do with a question raised by ``call``.

    Asked on every call, and the same of the same adapter, event and entrypoint (an
    adapter is its profile, fixed when made): the last answers are kept, a few hundred
    at most, each with its adapter so that another one at the same address is not
    taken for it."""
    key = (id(adapter), call.host_event, entrypoint)
    known = _ASKED.get(key)
    if known is not None and known[0] is adapter:
        return known[1]
    asking = _host_asking(adapter, call, entrypoint)
    if len(_ASKED) >= _ASKED_MOST:
        _ASKED.clear()
    _ASKED[key] = (adapter, asking)
    return asking


def _host_asking(adapter: HostAdapter, call: HostCall, entrypoint: str | None) -> HostAsking:
    profile: HostProfile | None = getattr(adapter, "profile", None)
    title = adapter.name if profile is None else profile.title
    events = profile.dialect.can_ask if profile is not None and profile.answers.ask else None
    if not events:
        why = profile.answers.no_ask if profile is not None else AnswerRules.no_ask
        return HostAsking(title, False, why)
    if call.host_event not in events:
        only = ", ".join(sorted(events))
        return HostAsking(
            title, False, f"can ask its user only on {only}, not on {call.host_event}"
        )
    attended = profile.answers.attended if profile is not None else frozenset()
    if not attended:
        # Only a host that tells its hooks whether a person is there (Claude Code's
        # entrypoint, OpenClaw's channel) gets the question.
        return HostAsking(title, False, "does not tell its hooks whether a person is there")
    if entrypoint in attended:
        return HostAsking(title, True)
    if adapter.name != CLAUDE_CODE_NAME and profile is not None:
        return HostAsking(title, False, profile.answers.unattended)
    if entrypoint is None:
        why = (
            "did not say whether a person is at its prompt (an HTTP hook installed "
            "without the entrypoint header: run `amplifier-hooks claude-code install` again)"
        )
    else:
        why = (
            "cannot show its permission prompt in this session "
            f"(entrypoint {entrypoint}, as under claude -p)"
        )
    return HostAsking(title, False, why)
