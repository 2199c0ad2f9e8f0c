"""Rows to records, the same for every backend (both keep epoch seconds and JSON text).

A row that does not parse (edited by hand, written by a newer version, damaged) raises
`ValueError` here; callers that list rows skip it with a log line instead of crashing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

from pydantic import ValidationError

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
PENDING_INSERT = (
    "created_at, deadline, session_id, host, workspace, event, source, prompt, options, "
    "details, default_verdict, reason, key, remember_scope, status, owner_machine, owner_pid, "
    "owner_started"
)


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


def remembered_from_row(row: Sequence[object]) -> RememberedDecision:
    """A `RememberedDecision` from a row of `REMEMBERED_COLUMNS`."""
    key, allowed, choice, source, prompt, options, created, expires, workspace = row
    try:
        return RememberedDecision(
            key=str(key),
            allowed=bool(allowed),
            choice=_text(choice),
            source=str(source),
            prompt=str(prompt),
            options=_json(options),
            created_at=_epoch(created),
            expires_at=_opt_epoch(expires),
            workspace=str(workspace or GLOBAL),
        )
    except ValidationError as exc:
        raise ValueError(str(exc)) from None


def audit_from_row(row: Sequence[object]) -> AuditEntry:
    """An `AuditEntry` from a row of `AUDIT_COLUMNS`."""
    ident, at, event, source, prompt, options, details, key, choice, allowed = row[:10]
    via, scope, reason, workspace = row[10:]
    try:
        return AuditEntry(
            id=int(ident),  # type: ignore[call-overload]  # an integer column
            at=_epoch(at),
            event=str(event),
            source=str(source),
            prompt=str(prompt),
            options=_json(options),
            details=_json(details),
            key=str(key),
            choice=_text(choice),
            allowed=bool(allowed),
            via=str(via),
            scope=str(scope),
            reason=_text(reason),
            workspace=str(workspace or ""),
        )
    except ValidationError as exc:
        raise ValueError(str(exc)) from None


def pending_from_row(row: Sequence[object]) -> PendingRequest:
    """A `PendingRequest` from a row of `PENDING_COLUMNS`; `ValueError` if malformed."""
    (ident, created, deadline, session_id, host, workspace, event, source, prompt) = row[:9]
    (options, details, default, reason, key, scope, status, choice, by, at, outcome) = row[9:20]
    (machine, pid, started, closed) = row[20:]
    try:
        return PendingRequest(
            id=int(ident),  # type: ignore[call-overload]  # an integer column
            created_at=_epoch(created),
            deadline=_opt_epoch(deadline),
            session_id=str(session_id),
            host=str(host),
            workspace=str(workspace),
            event=str(event),
            source=str(source),
            prompt=str(prompt),
            options=_json(options),
            details=_json(details),
            default=default,
            reason=_text(reason),
            key=str(key or ""),
            remember_scope=str(scope or ""),
            status=status,
            choice=_text(choice),
            answered_by=_text(by),
            answered_at=_opt_epoch(at),
            outcome=outcome,
            owner_machine=_text(machine),
            owner_pid=None if pid is None else int(pid),  # type: ignore[call-overload]
            owner_started=_text(started),
            closed_reason=_text(closed),
        )
    except (ValidationError, TypeError) as exc:
        raise ValueError(str(exc)) from None


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
        asked.event,
        asked.source,
        asked.prompt,
        json.dumps(asked.options),
        json.dumps(asked.details),
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
        request.event,
        request.source,
        request.prompt,
        json.dumps(request.options),
        json.dumps(request.details),
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


AUDIT_INSERT = AUDIT_COLUMNS.removeprefix("id, ")


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
