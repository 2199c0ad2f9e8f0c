"""`Dialect`: the facts of one Claude-style hook protocol, as data.

Claude Code and Codex speak the same protocol (same event names, same JSON answers) but
differ in which events exist; writing those facts down as one record lets one adapter
serve both, and lets a test check every event against its row. The dialect is the
protocol part of a host's `HostProfile` (amplifier_hooks.hosts.profile).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from amplifier_hooks import events
from amplifier_hooks.hosts.tools import CLAUDE_TOOLS, ToolNames

__all__ = [
    "CLAUDE_CODE_DIALECT",
    "DenyStyle",
    "Dialect",
    "Names",
    "namespaced",
]


class Names(frozenset[str]):
    """A set of event names that shows itself sorted (so generated docs are stable)."""

    def __repr__(self) -> str:
        return "{" + ", ".join(map(repr, sorted(self))) + "}"


DenyStyle = Literal["permission", "permission_request", "block", "exit2", "decision"]
"""How an event says no: ``hookSpecificOutput.permissionDecision: "deny"``, the
PermissionRequest ``decision`` object, top-level ``decision: "block"``, or (where no
JSON can) exit code 2 with the reason on stderr; Gemini CLI's ``decision: "deny"``."""

STANDARD_EVENTS: Mapping[str, str] = {
    "SessionStart": events.SESSION_START,
    "UserPromptSubmit": events.PROMPT_SUBMIT,
    "PreToolUse": events.TOOL_PRE,
    "PostToolUse": events.TOOL_POST,
    "PostToolUseFailure": events.TOOL_ERROR,
    "Stop": events.PROMPT_COMPLETE,
    "PreCompact": events.CONTEXT_COMPACTION,
    "SessionEnd": events.SESSION_END,
}
"""Host events with a standard counterpart (CONTRACT §11)."""

TOOL_EVENTS = Names(
    {"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"}
)
"""Events that carry ``tool_name`` and ``tool_input``."""

_DENY_STYLES: Mapping[str, DenyStyle] = {
    "PreToolUse": "permission",
    "PermissionRequest": "permission_request",
    **dict.fromkeys(
        (
            "UserPromptSubmit",
            "UserPromptExpansion",
            "Stop",
            "SubagentStop",
            "PostToolUse",
            "PostToolBatch",
            "PreCompact",
            "ConfigChange",
            "TaskCreated",
            "TaskCompleted",
            "TeammateIdle",
        ),
        "block",
    ),
    **dict.fromkeys(("Elicitation", "ElicitationResult", "WorktreeCreate"), "exit2"),
}

_GUARDING = Names(
    {
        "PreToolUse",
        "PermissionRequest",
        "UserPromptSubmit",
        "UserPromptExpansion",
        "ConfigChange",
        "Elicitation",
        "TaskCreated",
        "WorktreeCreate",
    }
)
"""Events whose block prevents something from happening. Stop, SubagentStop,
TeammateIdle and TaskCompleted can be blocked too, but blocking them keeps the agent
working: a failure there must not do that, so they are not guarding."""

_KEEPS_WORKING = Names({"Stop", "SubagentStop", "TeammateIdle", "TaskCompleted"})

_CONTEXT_EVENTS = Names(
    {
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "PostToolBatch",
        "UserPromptSubmit",
        "SessionStart",
        "Stop",
        "SubagentStop",
        "SubagentStart",
        "Setup",
    }
)
"""Events whose ``hookSpecificOutput.additionalContext`` reaches the model."""

CLAUDE_CODE_EVENTS = Names(
    {
        "SessionStart",
        "Setup",
        "UserPromptSubmit",
        "UserPromptExpansion",
        "PreToolUse",
        "PermissionRequest",
        "PermissionDenied",
        "PostToolUse",
        "PostToolUseFailure",
        "PostToolBatch",
        "Notification",
        "MessageDisplay",
        "SubagentStart",
        "SubagentStop",
        "TaskCreated",
        "TaskCompleted",
        "Stop",
        "StopFailure",
        "TeammateIdle",
        "InstructionsLoaded",
        "ConfigChange",
        "CwdChanged",
        "DirectoryAdded",
        "FileChanged",
        "WorktreeCreate",
        "WorktreeRemove",
        "PreCompact",
        "PostCompact",
        "Elicitation",
        "ElicitationResult",
        "SessionEnd",
    }
)
"""The 31 events of Claude Code ~v2.1.240 (agent-cli-hooks.md §1.4)."""

_HOST_EVENT_NAME = re.compile(r"^[A-Z][A-Za-z0-9]{0,63}$")


def namespaced(prefix: str, host_event: str) -> str:
    """Our name for a host event with no standard counterpart: ``PermissionRequest`` ->
    ``claude-code:permission_request`` (event names are lowercase)."""
    return f"{prefix}:{re.sub(r'(?<!^)(?=[A-Z])', '_', host_event).lower()}"


@dataclass(frozen=True, repr=False)
class Dialect:
    """One Claude-style host: its name, events, tools, and how each event answers.

    The defaults are Claude Code's; another host changes what differs."""

    name: str
    """The host's name: the adapter's name and the prefix of namespaced events."""
    known_events: frozenset[str]
    """Events this host is documented to send (others are still accepted, namespaced)."""
    tools: ToolNames = CLAUDE_TOOLS
    standard: Mapping[str, str] = field(default_factory=lambda: dict(STANDARD_EVENTS))
    can_ask: frozenset[str] = Names({"PreToolUse"})
    """Events whose answer can hand the question to the host's own prompt."""
    tool_events: frozenset[str] = TOOL_EVENTS
    deny_styles: Mapping[str, DenyStyle] = field(default_factory=lambda: dict(_DENY_STYLES))
    guarding_events: frozenset[str] = _GUARDING
    keeps_working_events: frozenset[str] = _KEEPS_WORKING
    context_events: frozenset[str] = _CONTEXT_EVENTS
    modify_events: frozenset[str] = Names({"PreToolUse"})
    """Events on which a changed tool input can be handed back."""
    input_style: Literal["replace", "merge"] = "replace"
    """``updatedInput`` replaces the whole input (Claude Code); Gemini CLI's
    ``tool_input`` is merged over it, so only changed fields are sent."""
    standard_only_when: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Host events that are their standard event only when a payload field has a value
    (Gemini CLI's ``PreCompress`` is ``context:compaction`` only when ``trigger`` is
    ``manual``); otherwise they keep their namespaced name."""

    def __repr__(self) -> str:
        return f"<Dialect {self.name}>"

    def event_of(self, host_event: str, payload: Mapping[str, object] | None = None) -> str:
        """Our event name for ``host_event`` (``payload`` decides where the standard
        name depends on it, see `standard_only_when`)."""
        condition = self.standard_only_when.get(host_event)
        if condition is not None and (payload is None or payload.get(condition[0]) != condition[1]):
            return namespaced(self.name, host_event)
        return self.standard.get(host_event) or namespaced(self.name, host_event)

    def host_event_of(self, event: str) -> str | None:
        """The host event our ``event`` comes from, if this host has one."""
        for theirs, ours in self.standard.items():
            if ours == event and theirs in self.known_events:
                return theirs
        if event.startswith(f"{self.name}:"):
            for theirs in sorted(self.known_events):
                if namespaced(self.name, theirs) == event:
                    return theirs
        return None

    @staticmethod
    def valid_host_event(name: str) -> bool:
        """Whether ``name`` looks like an event name of this protocol (PascalCase)."""
        return _HOST_EVENT_NAME.fullmatch(name) is not None

    def guarding(self, host_event: str) -> bool:
        return host_event in self.guarding_events

    def deny_style(self, host_event: str) -> DenyStyle | None:
        """How the event says no, or None when it cannot."""
        return self.deny_styles.get(host_event)

    def keeps_working(self, host_event: str) -> bool:
        """Blocking this event makes the agent carry on instead of stopping."""
        return host_event in self.keeps_working_events

    def takes_context(self, host_event: str) -> bool:
        return host_event in self.context_events

    def is_tool_event(self, host_event: str) -> bool:
        return host_event in self.tool_events

    @property
    def non_guarding_events(self) -> frozenset[str]:
        return frozenset(e for e in self.known_events if e not in self.guarding_events)


CLAUDE_CODE_DIALECT = Dialect("claude-code", CLAUDE_CODE_EVENTS)
