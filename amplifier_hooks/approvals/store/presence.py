"""The heartbeats of approver consoles, as both backends keep them.

A running ``amplifier-hooks approve`` (or ``approve --web``) writes one row and renews
its ``seen_at`` every `BEAT_INTERVAL` seconds; it deletes the row when it stops. The
``auto`` approval provider reads the rows to tell whether anybody is watching the queue
now: a question is only queued where someone will see it. The SQL is written once here,
with ``?`` marks (see `operations`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

from amplifier_hooks.approvals.store.records import when
from amplifier_hooks.logs import get_logger

__all__ = [
    "BEAT_INTERVAL",
    "PRESENCE_WINDOW",
    "ApproverKind",
    "ApproverSeen",
    "beat_sql",
    "leave_sql",
    "parse_approvers",
    "seen_sql",
]

logger = get_logger()

BEAT_INTERVAL = 10.0
"""Seconds between two heartbeats of a running approver console."""

PRESENCE_WINDOW = 30.0
"""An approver whose last heartbeat is younger than this is present: three beats, so
one slow write (a locked file, a busy database) does not make them vanish."""

ApproverKind = Literal["console", "web"]


class ApproverSeen(BaseModel):
    """One running approver console, as its last heartbeat left it."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    """Who answers there (``user@host``, or ``--as``)."""
    kind: ApproverKind
    seen_at: datetime


_COLUMNS = "id, name, kind, seen_at"


def beat_sql(table: str) -> str:
    """Insert or renew one approver's row (id, name, kind, seen_at)."""
    return (
        f"INSERT INTO {table} ({_COLUMNS}) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, kind = EXCLUDED.kind, "
        "seen_at = EXCLUDED.seen_at"
    )


def leave_sql(table: str) -> str:
    """Delete one approver's row (id)."""
    return f"DELETE FROM {table} WHERE id = ?"


def seen_sql(table: str) -> str:
    """The approvers seen since a moment (epoch seconds), most recent first."""
    return f"SELECT {_COLUMNS} FROM {table} WHERE seen_at > ? ORDER BY seen_at DESC"


def parse_approvers(found: Sequence[Sequence[object]], store: str) -> list[ApproverSeen]:
    """Rows as records; a row that cannot be read is skipped with a log line."""
    seen: list[ApproverSeen] = []
    for row in found:
        try:
            ident, name, kind, at = row
            moment = when(float(at))  # type: ignore[arg-type]
            seen.append(ApproverSeen(id=ident, name=name, kind=kind, seen_at=moment))
        except (ValueError, TypeError) as exc:
            logger.warning("unreadable approver row skipped", store=store, error=str(exc))
    return seen
