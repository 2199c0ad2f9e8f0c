"""Rows to records, the same for every backend (both keep epoch seconds and JSON text).

A column reads one way in every table (`_READERS`, by its name), and each table's reader
is made from its SELECT list, so the list and the reader of its rows cannot drift apart.

A row that does not parse (edited by hand, written by a newer version, damaged) raises
`ValueError` here; callers that list rows skip it with a log line instead of crashing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from amplifier_hooks.approvals.models import ApprovalDecision, ApprovalDeferral, ApprovalRequest
from amplifier_hooks.approvals.store.owners import Owner
from amplifier_hooks.approvals.store.records import (
    GLOBAL,
    AuditEntry,
    PendingRequest,
    RememberedDecision,
)
from amplifier_hooks.logs import get_logger

logger = get_logger()

R = TypeVar("R")
M = TypeVar("M", bound=BaseModel)


def _epoch(value: object) -> datetime:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"expected epoch seconds, got {value!r}")
    return datetime.fromtimestamp(value, UTC)


def _opt_epoch(value: object) -> datetime | None:
    return None if value is None else _epoch(value)


def _json(value: object) -> Any:
    if not isinstance(value, str):
        raise ValueError(f"expected JSON text, got {type(value).__name__}")
    return json.loads(value)


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _int(value: object) -> int:
    if not isinstance(value, int | float | str):
        raise TypeError(f"expected a whole number, got {value!r}")
    return int(value)


def _opt_int(value: object) -> int | None:
    return None if value is None else _int(value)


def _text_or(empty: str) -> Callable[[object], str]:
    """A text column where NULL or ``''`` (a row from before it existed) reads ``empty``."""
    return lambda value: str(value or empty)


def _as_is(value: object) -> object:
    """A value the record itself checks (its ``Literal`` fields)."""
    return value


Reader = Callable[[object], object]

_READERS: dict[str, Reader] = {
    "id": _int,
    "owner_pid": _opt_int,
    "at": _epoch,
    "created_at": _epoch,
    "expires_at": _opt_epoch,
    "deadline": _opt_epoch,
    "answered_at": _opt_epoch,
    "options": _json,
    "details": _json,
    "allowed": bool,
    "choice": _text,
    "reason": _text,
    "answered_by": _text,
    "owner_machine": _text,
    "owner_started": _text,
    "closed_reason": _text,
    "key": _text_or(""),
    "remember_scope": _text_or(""),
    "workspace": _text_or(""),
    "default_verdict": _as_is,
    "status": _as_is,
    "outcome": _as_is,
}
"""How a column reads, by its name in every table (any other column is text)."""

_FIELDS = {"default_verdict": "default"}
"""The columns whose record field has another name."""


def _reading(columns: str, **special: Reader) -> tuple[tuple[str, Reader], ...]:
    """Each column of ``columns`` (a SELECT list) as its record field and reader; ``special``
    overrides a reader for this table alone."""
    return tuple(
        (_FIELDS.get(name, name), special.get(name) or _READERS.get(name, str))
        for name in columns.split(", ")
    )


REMEMBERED_COLUMNS = (
    "key, allowed, choice, source, prompt, options, created_at, expires_at, workspace"
)
AUDIT_COLUMNS = (
    "id, at, event, source, prompt, options, details, key, choice, allowed, via, scope, "
    "reason, workspace"
)
PENDING_COLUMNS = (
    "id, created_at, deadline, session_id, host, workspace, event, source, prompt, options, "
    "details, default_verdict, reason, key, remember_scope, status, choice, answered_by, "
    "answered_at, outcome, owner_machine, owner_pid, owner_started, closed_reason"
)
AUDIT_INSERT = AUDIT_COLUMNS.removeprefix("id, ")
PENDING_INSERT = (
    "created_at, deadline, session_id, host, workspace, event, source, prompt, options, "
    "details, default_verdict, reason, key, remember_scope, status, owner_machine, owner_pid, "
    "owner_started"
)
# An empty workspace in a remembered decision is one from before workspaces: every one.
_REMEMBERED = _reading(REMEMBERED_COLUMNS, workspace=_text_or(GLOBAL))
_AUDIT = _reading(AUDIT_COLUMNS)
_PENDING = _reading(PENDING_COLUMNS)


def _record(model: type[M], columns: tuple[tuple[str, Reader], ...], row: Sequence[object]) -> M:
    """The record ``model`` from a row of ``columns``; `ValueError` if it does not parse."""
    try:
        return model(
            **{field: read(value) for (field, read), value in zip(columns, row, strict=True)}
        )
    except (ValidationError, TypeError) as exc:
        raise ValueError(str(exc)) from None


def remembered_from_row(row: Sequence[object]) -> RememberedDecision:
    """A `RememberedDecision` from a row of `REMEMBERED_COLUMNS`."""
    return _record(RememberedDecision, _REMEMBERED, row)


def audit_from_row(row: Sequence[object]) -> AuditEntry:
    """An `AuditEntry` from a row of `AUDIT_COLUMNS`."""
    return _record(AuditEntry, _AUDIT, row)


def pending_from_row(row: Sequence[object]) -> PendingRequest:
    """A `PendingRequest` from a row of `PENDING_COLUMNS`; `ValueError` if malformed."""
    return _record(PendingRequest, _PENDING, row)


def remembered_values(
    request: ApprovalRequest, decision: ApprovalDecision, now: float, ttl: float | None
) -> tuple[object, ...]:
    """Values for `REMEMBERED_COLUMNS`."""
    return (
        request.key,
        decision.allowed,
        decision.choice,
        request.source,
        request.prompt,
        json.dumps(request.options),
        now,
        None if ttl is None else now + ttl,
        request.remember_scope or GLOBAL,
    )


DEFERRED = "deferred"
"""The audit's ``via`` of a question left to the host: nobody here decided; the host
owns it (the reason says so), and its report is a later row ``via="host"``."""


def audit_values(
    request: ApprovalRequest, answer: ApprovalDecision | ApprovalDeferral, now: float
) -> tuple[object, ...]:
    """Values for `AUDIT_COLUMNS` without the id."""
    if isinstance(answer, ApprovalDeferral):
        reason = f"{answer.reason} (the {answer.owner} owns this question)"
        return _audit_row(now, request, None, False, DEFERRED, "once", reason)
    return _audit_row(
        now, request, answer.choice, answer.allowed, answer.via, answer.scope, answer.reason
    )


def _question(asked: ApprovalRequest | PendingRequest) -> tuple[object, ...]:
    """The question as the audit and the queue both keep it, in their column order:
    ``event, source, prompt, options, details``."""
    return (
        asked.event,
        asked.source,
        asked.prompt,
        json.dumps(asked.options),
        json.dumps(asked.details),
    )


def _audit_row(
    now: float,
    asked: ApprovalRequest | PendingRequest,
    choice: str | None,
    allowed: bool,
    via: str,
    scope: str,
    reason: str | None,
) -> tuple[object, ...]:
    """One audit row: the question (a request, or a queued one) and what became of it."""
    return (
        now,
        *_question(asked),
        asked.key,
        choice,
        allowed,
        via,
        scope,
        reason,
        asked.workspace,
    )


def pending_values(
    request: ApprovalRequest,
    session_id: str,
    host: str,
    deadline: float | None,
    now: float,
    owner: Owner,
) -> tuple[object, ...]:
    """Values for `PENDING_INSERT`."""
    return (
        now,
        deadline,
        session_id,
        host,
        request.workspace,
        *_question(request),
        request.default,
        request.reason,
        request.key,
        request.remember_scope,
        "pending",
        owner.machine,
        owner.pid,
        owner.started,
    )


def late_audit_values(row: PendingRequest, choice: str, by: str, now: float) -> tuple[object, ...]:
    """Values for `AUDIT_INSERT` recording an answer that came after the deadline, or
    after the question was withdrawn."""
    if row.outcome == "withdrawn" and row.closed_reason:
        why = f"which was withdrawn ({row.closed_reason})"
    else:
        why = "after its deadline"
    reason = f"late answer by {by} to queued request {row.id}, {why}; not applied"
    return _audit_row(now, row, choice, False, "late", "once", reason)


def parse_rows(
    found: Sequence[Sequence[object]], parse: Callable[[Sequence[object]], R], what: str, store: str
) -> list[R]:
    """Parse each row; a malformed one is skipped with a log line, never a crash."""
    records = []
    for row in found:
        try:
            records.append(parse(row))
        except (ValueError, TypeError) as exc:
            logger.warning(
                f"skipped a malformed {what}", store=store, row_id=row[0], error=str(exc)
            )
    return records
