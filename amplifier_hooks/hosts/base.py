"""What every agent CLI host has in common: the call it sends, the answer it gets, and
the adapter that translates between its hook protocol and our events.

An adapter is pure translation (no I/O, no coordinator): `HostSessions` does the
dispatching, the CLI and the HTTP server do the transport. Keeping the translation pure
lets every mapping be tested on recorded payloads alone.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from amplifier_hooks.session.outcome import Outcome

__all__ = [
    "OUTPUT_LIMIT",
    "HostAdapter",
    "HostAnswer",
    "HostCall",
    "HostInputError",
    "cap_text",
    "decode_input",
    "guess_guarding",
]

OUTPUT_LIMIT = 10_000
"""Characters Claude Code keeps of one output string (more is spilled to a file); the
hosts' answers cut longer strings themselves, with a marker, so nothing is cut unseen."""


class HostInputError(ValueError):
    """A hook input that cannot be read: not JSON, not an object, a field of the wrong
    type. The message says what is wrong, for the fail-closed answer's reason."""


@dataclass(frozen=True)
class HostCall:
    """One hook call of a host, translated: what our handlers see, and what is needed to
    answer in the host's terms."""

    host: str
    """The adapter's name (``"claude-code"``, ``"codex"``, ``"gemini-cli"``)."""
    host_event: str
    """The host's own event name (``"PreToolUse"``)."""
    event: str
    """Our event name (``"tool:pre"``, or ``"claude-code:notification"`` for an event
    with no standard counterpart)."""
    data: dict[str, Any]
    """The event data handlers see (see docs/claude-code.md for its fields)."""
    session_id: str
    """The host's session id: one coordinator per session id."""
    workspace: str | None
    """The directory the agent works in (the payload's ``cwd``), when given."""
    guarding: bool
    """True when the host lets this event be blocked to prevent something (a tool call,
    a prompt): a failure on it must block, never allow."""


@dataclass(frozen=True)
class HostAnswer:
    """What goes back to the host: JSON (stdout of a command hook, body of an HTTP hook)
    and an exit code with stderr for the one case JSON cannot say it."""

    output: dict[str, Any] | None = None
    """The JSON answer; None means "nothing to say" (print nothing, exit 0)."""
    exit_code: int = 0
    """0 normally; 2 only to block when no JSON can express it (the host reads stderr)."""
    stderr: str = ""
    """The reason that goes with exit code 2."""
    notes: tuple[str, ...] = field(default=(), compare=False)
    """Why the answer differs from the outcome (a deny the event cannot express, an
    injection it cannot take): for logs and tests; never sent."""


@runtime_checkable
class HostAdapter(Protocol):
    """Translates one host's hook protocol: payload -> `HostCall`, `Outcome` ->
    `HostAnswer`, and the fail-closed answer when anything goes wrong."""

    @property
    def name(self) -> str:
        """The host's name (``"claude-code"``): also the prefix of its other events."""
        ...

    def parse(self, payload: object) -> HostCall:
        """The call in ``payload`` (the decoded JSON); `HostInputError` if malformed."""
        ...

    def answer(self, call: HostCall, outcome: Outcome) -> HostAnswer:
        """The host's answer for the coordinator's ``outcome`` of ``call``."""
        ...

    def refuse(self, call: HostCall | None, reason: str, guarding: bool) -> HostAnswer:
        """The fail-closed answer: deny or block with ``reason`` where ``guarding``,
        else a warning shown to the user (exit 0)."""
        ...


def guess_guarding(adapter: HostAdapter, payload: object) -> bool:
    """Whether a payload that could not be parsed may be a guarding event: only an event
    name the adapter knows as non-guarding says no; anything unreadable fails closed."""
    names: frozenset[str] = getattr(adapter, "non_guarding_events", frozenset())
    if isinstance(payload, Mapping):
        name = payload.get("hook_event_name")
        if isinstance(name, str) and name in names:
            return False
    return True


def cap_text(text: str, limit: int = OUTPUT_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, with a marker saying how much was cut."""
    if len(text) <= limit:
        return text
    marker = f"\n[... cut by amplifier-hooks: {{}} of {len(text)} characters left out]"
    # The marker's own length depends on the number it shows; two passes settle it.
    keep = limit - len(marker.format(len(text)))
    return text[:keep] + marker.format(len(text) - keep)


def decode_input(raw: bytes) -> object:
    """The JSON value of one hook input (stdin, or an HTTP body); `HostInputError` saying
    what is wrong, for the fail-closed answer's reason."""
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise HostInputError(f"hook input is not UTF-8 (byte {exc.start + 1})") from None
    except json.JSONDecodeError as exc:
        raise HostInputError(
            f"hook input is not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
        ) from None
    except RecursionError:
        raise HostInputError("hook input is nested too deeply") from None
