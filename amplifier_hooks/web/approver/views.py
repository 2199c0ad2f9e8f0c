"""What the browser is sent about each queued request: display-safe JSON records.

Everything an agent wrote (prompt, command, path, session name...) is attacker-controlled
text. It is made safe here the way the terminal makes it safe (`clean_text`: control,
zero-width and bidirectional characters become visible escapes) and the page then puts
it on screen as text nodes only, never as markup.
"""

from __future__ import annotations

import math
import time
from typing import Any

from amplifier_hooks.approvals.models import classify_option, clean_text
from amplifier_hooks.approvals.store import PendingRequest

__all__ = ["HISTORY", "option_kind", "request_view", "split_queue"]

HISTORY = 20
"""How many requests that are over (answered, expired) the page shows."""

_SHORT = 200  # names and paths of the asker: cut with a visible ellipsis past this


def option_kind(option: str) -> str:
    """How the page styles an option: ``allow``, ``allow-always``, ``deny`` or ``other``."""
    decision, scope = classify_option(option)
    if decision == "allow":
        return "allow" if scope == "once" else "allow-always"
    return decision or "other"


def _epoch(value: Any) -> float | None:
    return None if value is None else round(value.timestamp(), 3)


def request_view(row: PendingRequest, now: float | None = None) -> dict[str, Any]:
    """One request as the page renders it; ``state`` is ``waiting``, ``answered`` or
    ``expired`` (past its deadline counts as expired: its agent applied the default)."""
    moment = time.time() if now is None else now
    left = row.seconds_left(moment)
    if row.status == "answered":
        state = "answered"
    elif row.status == "expired" or left <= 0:
        state = "expired"
    else:
        state = "waiting"
    request = row.to_request()
    details = [
        # Full values with their line breaks: the queue keeps whole commands, and a value
        # the agent cut says so in its own text.
        [clean_text(name, 40), clean_text(value, None, newlines=True)]
        for name, value in row.details.items()
        if value
    ]
    return {
        "id": row.id,
        "state": state,
        "created": _epoch(row.created_at),
        "deadline": None if math.isinf(left) else _epoch(row.deadline),
        "session": clean_text(row.session_id, _SHORT),
        "host": clean_text(row.host, _SHORT),
        "workspace": clean_text(row.workspace, _SHORT),
        "event": clean_text(row.event, _SHORT),
        "source": clean_text(row.source, _SHORT),
        "tool": clean_text(row.details.get("tool", ""), _SHORT),
        "prompt": clean_text(row.prompt, None, newlines=True),
        "reason": clean_text(row.reason, None, newlines=True) if row.reason else None,
        "details": details,
        "options": [
            {"text": o, "label": clean_text(o), "kind": option_kind(o)} for o in row.options
        ],
        "memory": clean_text(note) if (note := request.memory_note()) else None,
        "default": row.default,
        "choice": clean_text(row.choice) if row.choice is not None else None,
        "answered_by": clean_text(row.answered_by, _SHORT) if row.answered_by else None,
        "answered_at": _epoch(row.answered_at),
        "outcome": row.outcome,
    }


def split_queue(
    waiting: list[PendingRequest],
    recent: list[PendingRequest],
    now: float | None = None,
    history: int = HISTORY,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The views of the requests still waiting (from ``list_pending()``) and of the most
    recent ``history`` that are over (from ``list_pending(include_done=True)``), those
    newest first by when they ended."""
    moment = time.time() if now is None else now
    live = [v for v in (request_view(row, moment) for row in waiting) if v["state"] == "waiting"]
    over = [v for v in (request_view(row, moment) for row in recent) if v["state"] != "waiting"]
    over.sort(key=lambda v: -(v["answered_at"] or v["deadline"] or v["created"] or 0))
    return live, over[:history]
