"""What an approval store holds: remembered decisions, audit rows and queued requests.

These records are the same whichever backend keeps them (SQLite or PostgreSQL), so the
gate, the queue provider and the approver's console never care which one is in use.
"""

from __future__ import annotations

import functools
import os
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from amplifier_hooks.approvals.models import AllowOrDeny, ApprovalRequest

MEMORY = ":memory:"
GLOBAL = "*"
"""The workspace of a remembered decision that applies in every workspace."""

PendingStatus = Literal["pending", "answered", "expired"]
Outcome = Literal["applied", "late", "timeout", "withdrawn"]


class ApprovalStoreError(RuntimeError):
    """The approval store cannot be used (corrupt, locked, unreachable, closed).

    ``transient`` is True for failures that may pass if tried again shortly (a lock held
    by another process, a lost connection); the message always names the store.
    """

    def __init__(self, message: str, *, transient: bool = False) -> None:
        super().__init__(message)
        self.transient = transient


class RememberedDecision(BaseModel):
    """A stored answer that settles the same question without asking again."""

    model_config = ConfigDict(frozen=True)

    key: str
    allowed: bool
    choice: str | None
    source: str
    prompt: str
    options: list[str]
    created_at: datetime
    expires_at: datetime | None
    workspace: str = GLOBAL
    """Where the answer applies: a workspace path, or ``"*"`` for everywhere."""

    def expired(self, now: float | None = None) -> bool:
        """True once the expiry time (if any) has passed."""
        moment = time.time() if now is None else now
        return self.expires_at is not None and self.expires_at.timestamp() <= moment


class AuditEntry(BaseModel):
    """One decision as written to the audit trail."""

    model_config = ConfigDict(frozen=True)

    id: int
    at: datetime
    event: str
    source: str
    prompt: str
    options: list[str]
    details: dict[str, str]
    key: str
    choice: str | None
    allowed: bool
    via: str
    """Who decided (person, timeout, remembered, policy, error, host: a person at the
    host's own prompt, as the host reported); ``deferred``: nobody here -- the question
    was left to the host, which owns it (a later ``host`` row, matched by ``key``,
    completes it when the host reports); or ``late``: an answer that came after the
    deadline and was not applied."""
    scope: str
    reason: str | None
    workspace: str = ""


_ASKED = (
    "prompt",
    "options",
    "default",
    "event",
    "source",
    "reason",
    "details",
    "key",
    "workspace",
    "remember_scope",
)
"""The fields of the question a queued request keeps, under the question's own names."""


class PendingRequest(BaseModel):
    """A question an agent put on the shared queue, and what became of it."""

    model_config = ConfigDict(frozen=True)

    id: int
    created_at: datetime
    deadline: datetime | None
    """When the agent stops waiting and its default applies (None: waits for ever)."""
    session_id: str
    host: str
    workspace: str
    event: str
    source: str
    prompt: str
    options: list[str]
    details: dict[str, str]
    default: AllowOrDeny
    reason: str | None = None
    key: str = ""
    remember_scope: str = ""
    status: PendingStatus = "pending"
    choice: str | None = None
    answered_by: str | None = None
    answered_at: datetime | None = None
    outcome: Outcome | None = None
    """Set by the agent: whether the answer was applied, came too late, or never came."""
    owner_machine: str | None = None
    """The machine of the process that waits for the answer (None: an older row)."""
    owner_pid: int | None = None
    owner_started: str | None = None
    """The owner's start time as its kernel counts it, so a reused pid is not taken for it."""
    closed_reason: str | None = None
    """Why the question was closed without an answer, when the store closed it (its owner
    is gone); None when the agent itself stopped waiting."""

    def seconds_left(self, now: float | None = None) -> float:
        """Seconds until the deadline (``inf`` when there is none; negative once passed)."""
        if self.deadline is None:
            return float("inf")
        return self.deadline.timestamp() - (time.time() if now is None else now)

    def to_request(self) -> ApprovalRequest:
        """The request as the approval screen shows it, timed to the agent's deadline."""
        left = self.seconds_left()
        asked = {name: getattr(self, name) for name in _ASKED}
        return ApprovalRequest(timeout=left if left > 0 else 0.001, **asked)


class AnswerResult(BaseModel):
    """What happened to an approver's answer: ``won`` only for the one answer applied."""

    model_config = ConfigDict(frozen=True)

    won: bool
    request: PendingRequest | None
    """The row after the attempt (None: no request has that id)."""

    def explain(self) -> str:
        """One line for the approver: why this answer did or did not count."""
        row = self.request
        if row is None:
            return "no pending request has that id"
        if self.won:
            return f"request {row.id}: answered {row.choice!r}"
        if row.status == "answered":
            return f"request {row.id} was already answered {row.choice!r} by {row.answered_by}"
        if row.outcome == "withdrawn" and row.closed_reason:
            return (
                f"request {row.id} was withdrawn: {row.closed_reason}; this answer was not applied"
            )
        if row.outcome == "withdrawn":
            return (
                f"request {row.id} is no longer waiting: its session ended or was "
                "interrupted before an answer; this answer was not applied"
            )
        return (
            f"request {row.id} is past its deadline: the agent applied its default "
            f"({row.default}); this answer was recorded as late and not applied"
        )


def default_store_path() -> Path:
    """``$XDG_STATE_HOME/amplifier-hooks/approvals.db`` (``~/.local/state`` if unset)."""
    state = os.environ.get("XDG_STATE_HOME") or ""
    home = os.environ.get("HOME")
    if not home:  # ``~`` is the password database's (or "/"): built each time, not kept
        return _store_path(state, str(Path.home()))
    return _kept_store_path(state, home)


def _store_path(state: str, home: str) -> Path:
    base = Path(state) if os.path.isabs(state) else Path(home) / ".local" / "state"
    return base / "amplifier-hooks" / "approvals.db"


# A hook server's guard asks for the path in every session it opens, and building it
# costs more than looking it up; a Path is immutable, so every caller may hold one.
_kept_store_path = functools.lru_cache(maxsize=16)(_store_path)


def when(epoch: float | None) -> datetime | None:
    """A UTC datetime for an epoch (None stays None)."""
    return None if epoch is None else datetime.fromtimestamp(epoch, UTC)
