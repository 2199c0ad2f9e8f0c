"""Reading an `Outcome` for a host: what changed, what was approved, what to say.

Shared by every adapter: which fields a handler's modify changed, whether a person or a
policy approved the call, whether the question was left to the host's own prompt, and
the texts of injections and user messages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from amplifier_hooks.engine.resolution import UserMessage
from amplifier_hooks.session.outcome import Outcome

__all__ = [
    "APPROVING_VIA",
    "STAMPED_FIELDS",
    "approval_text",
    "changed_fields",
    "context_texts",
    "dropped_note",
    "host_prompts",
    "message_lines",
]

STAMPED_FIELDS = frozenset({"timestamp", "parent_id"})
"""Fields the registry stamps on every emit: never a handler's change."""

APPROVING_VIA = frozenset({"person", "policy", "remembered"})
"""Decisions that approve a call outright (a timeout's ``allow`` default does not: it
is nobody's approval, so the host's own permission rules still apply)."""


def changed_fields(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """The top-level fields handlers changed, added or removed (sorted)."""
    # Asked of every answer, and the answer is nearly always "none": every field as it
    # was (the same object, or an equal one), and only stamped ones added; found by the
    # dicts' own comparisons, without a loop here.
    if before.items() <= after.items() and after.keys() - before.keys() <= STAMPED_FIELDS:
        return []
    changed = [
        name
        for name, value in after.items()
        if name not in STAMPED_FIELDS
        and (name not in before or (before[name] is not value and before[name] != value))
    ]
    if not before.keys() <= after.keys():  # some field was removed
        changed += [n for n in before if n not in after and n not in STAMPED_FIELDS]
    return sorted(changed)


def approval_text(outcome: Outcome) -> str | None:
    """ "approved by ..." when a person, a policy or a remembered answer approved, or a
    handler granted the call outright (`Outcome.granted`)."""
    granted = outcome.granted
    if granted is not None:
        why = f": {granted.reason}" if granted.reason else ""
        return f"allowed by amplifier-hooks ({granted.source}){why}"
    approved = [d for d in outcome.approvals if d.allowed and d.via in APPROVING_VIA]
    if not approved or len(approved) != len(outcome.approvals):
        return None
    parts = [f"{d.via}" + (f" ({d.choice})" if d.choice else "") for d in approved]
    return "approved through amplifier-hooks: " + ", ".join(parts)


def host_prompts(outcome: Outcome) -> list[str] | None:
    """The questions left to the host's own prompt (approval provider ``host``: the
    outcome's ``deferred``), if there are any."""
    if outcome.deferred is None:
        return None
    resolution = outcome.resolution
    asks = resolution.approvals if resolution is not None else []
    return [ask.prompt for ask in asks] or [outcome.reason or "Allow this operation?"]


def context_texts(outcome: Outcome) -> tuple[list[str], list[str]]:
    """The injected texts (persisted and ephemeral alike) and their sources."""
    messages = [*outcome.injected, *outcome.ephemeral]
    texts = [str(m.get("content", "")) for m in messages]
    sources = [str(m.get("metadata", {}).get("source", "?")) for m in messages]
    return texts, sources


def message_lines(messages: list[UserMessage]) -> list[str]:
    """User messages as lines; warnings and errors say so."""
    return [m.text if m.level == "info" else f"{m.level}: {m.text}" for m in messages]


def dropped_note(outcome: Outcome) -> str | None:
    """A line about injections the injector refused (over a limit), if any."""
    if not outcome.dropped:
        return None
    what = ", ".join(f"{r.source} ({r.reason})" for r in outcome.dropped)
    return f"amplifier-hooks left out {len(outcome.dropped)} context injection(s): {what}"
