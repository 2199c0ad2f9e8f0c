"""`Dialect`: the facts of one host's hook protocol, as data.

Each host writes its events as one table, a row an event (`On`): the standard event it
is, what it does and how it says no; `dialect` makes the record every adapter reads from
it. Claude Code and Codex speak the same protocol and differ in which events exist, so
Codex's dialect is Claude Code's with its own events. A test checks every event against
its row. The dialect is the protocol part of a host's `HostProfile`
(amplifier_hooks.hosts.profile).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, NamedTuple, get_args

from amplifier_hooks import events
from amplifier_hooks.hosts.tools import CLAUDE_TOOLS, ToolNames

__all__ = [
    "CLAUDE_CODE_DIALECT",
    "CLAUDE_CODE_EVENTS",
    "DenyStyle",
    "Dialect",
    "Does",
    "Names",
    "On",
    "dialect",
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

Does = Literal["tool", "guards", "asks", "modifies", "context", "keeps-working"]
"""What a host event does, a word each: ``tool``, it carries ``tool_name`` and
``tool_input``; ``guards``, its block prevents something from happening (so a failure
there must block); ``asks``, its answer can hand the question to the host's own prompt;
``modifies``, a changed tool input can be handed back; ``context``, added context reaches
the model; ``keeps-working``, blocking it makes the agent carry on instead of stopping (a
failure must not do that: such an event never ``guards``)."""

_WORDS = frozenset(get_args(Does))


class On(NamedTuple):
    """One host event as a row of its host's table: the standard event it is (None: it
    keeps a namespaced name), what it does (`Does`, space-separated), how it says no (None:
    it cannot), and the payload field and value it is its standard event only with."""

    standard: str | None = None
    does: str = ""
    deny: DenyStyle | None = None
    only_when: tuple[str, str] | None = None


CLAUDE_CODE_EVENTS: Mapping[str, On] = {
    "SessionStart": On(events.SESSION_START, "context"),
    "Setup": On(None, "context"),
    "UserPromptSubmit": On(events.PROMPT_SUBMIT, "guards context", "block"),
    "UserPromptExpansion": On(None, "guards", "block"),
    "PreToolUse": On(events.TOOL_PRE, "tool guards asks modifies context", "permission"),
    "PermissionRequest": On(None, "tool guards", "permission_request"),
    "PermissionDenied": On(None, "tool"),
    "PostToolUse": On(events.TOOL_POST, "tool context", "block"),
    "PostToolUseFailure": On(events.TOOL_ERROR, "tool context"),
    "PostToolBatch": On(None, "context", "block"),
    "Notification": On(),
    "MessageDisplay": On(),
    "SubagentStart": On(None, "context"),
    "SubagentStop": On(None, "keeps-working context", "block"),
    "TaskCreated": On(None, "guards", "block"),
    "TaskCompleted": On(None, "keeps-working", "block"),
    "Stop": On(events.PROMPT_COMPLETE, "keeps-working context", "block"),
    "StopFailure": On(),
    "TeammateIdle": On(None, "keeps-working", "block"),
    "InstructionsLoaded": On(),
    "ConfigChange": On(None, "guards", "block"),
    "CwdChanged": On(),
    "DirectoryAdded": On(),
    "FileChanged": On(),
    "WorktreeCreate": On(None, "guards", "exit2"),
    "WorktreeRemove": On(),
    "PreCompact": On(events.CONTEXT_COMPACTION, "", "block"),
    "PostCompact": On(),
    "Elicitation": On(None, "guards", "exit2"),
    "ElicitationResult": On(None, "", "exit2"),
    "SessionEnd": On(events.SESSION_END),
}
"""The 31 events of Claude Code ~v2.1.240 (agent-cli-hooks.md §1.4), with their standard
counterparts (CONTRACT §11)."""

_HOST_EVENT_NAME = re.compile(r"^[A-Z][A-Za-z0-9]{0,63}$")


def namespaced(prefix: str, host_event: str) -> str:
    """Our name for a host event with no standard counterpart: ``PermissionRequest`` ->
    ``claude-code:permission_request`` (event names are lowercase)."""
    return f"{prefix}:{re.sub(r'(?<!^)(?=[A-Z])', '_', host_event).lower()}"


@dataclass(frozen=True, repr=False)
class Dialect:
    """One host's protocol: its name, events, tools, and how each event answers (built
    from the host's table of events by `dialect`)."""

    name: str
    """The host's name: the adapter's name and the prefix of namespaced events."""
    known_events: frozenset[str]
    """Events this host is documented to send (others are still accepted, namespaced)."""
    tools: ToolNames
    standard: Mapping[str, str]
    can_ask: frozenset[str]
    """Events whose answer can hand the question to the host's own prompt."""
    tool_events: frozenset[str]
    deny_styles: Mapping[str, DenyStyle]
    guarding_events: frozenset[str]
    keeps_working_events: frozenset[str]
    context_events: frozenset[str]
    modify_events: frozenset[str]
    """Events on which a changed tool input can be handed back."""
    input_style: Literal["replace", "merge"]
    """``updatedInput`` replaces the whole input (Claude Code); Gemini CLI's
    ``tool_input`` is merged over it, so only changed fields are sent."""
    standard_only_when: Mapping[str, tuple[str, str]]
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


def dialect(
    name: str,
    tools: ToolNames,
    table: Mapping[str, On],
    input_style: Literal["replace", "merge"] = "replace",
) -> Dialect:
    """The `Dialect` of host ``name`` from its ``table``: one row a host event (`On`),
    whose rows are its known events. `ValueError` for a word that is not `Does`, and for
    an event that both guards and keeps the agent working."""
    for event, row in table.items():
        words = set(row.does.split())
        if words - _WORDS:
            raise ValueError(f"{name} {event}: {sorted(words - _WORDS)} are not {sorted(_WORDS)}")
        if {"guards", "keeps-working"} <= words:
            raise ValueError(
                f"{name} {event}: an event that keeps the agent working when blocked cannot "
                "guard (a failure there must not keep it working)"
            )

    def doing(word: str) -> Names:
        return Names(e for e, row in table.items() if word in row.does.split())

    return Dialect(
        name,
        Names(table),
        tools=tools,
        standard={e: row.standard for e, row in table.items() if row.standard is not None},
        can_ask=doing("asks"),
        tool_events=doing("tool"),
        deny_styles={e: row.deny for e, row in table.items() if row.deny is not None},
        guarding_events=doing("guards"),
        keeps_working_events=doing("keeps-working"),
        context_events=doing("context"),
        modify_events=doing("modifies"),
        input_style=input_style,
        standard_only_when={e: r.only_when for e, r in table.items() if r.only_when is not None},
    )


CLAUDE_CODE_DIALECT = dialect("claude-code", CLAUDE_TOOLS, CLAUDE_CODE_EVENTS)
