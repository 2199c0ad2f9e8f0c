"""What each store call does to the tables, written once for SQLite and PostgreSQL.

An operation is a generator that yields the statements of one transaction (`Fetch`,
`Execute`, `Insert`, `Changed`) and is sent back what each returned; its return value
is the call's result. It does no I/O itself, so the same operation runs under SQLite's
blocking driver (in a worker thread) and psycopg's async one (on the event loop): each
backend only says how to run a statement (`ApprovalBackend._run`). Statements use ``?``
marks and the table names of the backend's `Tables`; both databases accept the rest of
the SQL as written (``ON CONFLICT ... DO UPDATE``, ``coalesce``, ``LIMIT ?``).
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, TypeVar

from amplifier_hooks.approvals.models import ApprovalDecision, ApprovalDeferral, ApprovalRequest
from amplifier_hooks.approvals.store import owners, rows
from amplifier_hooks.approvals.store.owners import Owner
from amplifier_hooks.approvals.store.presence import (
    ApproverKind,
    ApproverSeen,
    beat_sql,
    leave_sql,
    parse_approvers,
    seen_sql,
)
from amplifier_hooks.approvals.store.records import (
    GLOBAL,
    AnswerResult,
    AuditEntry,
    PendingRequest,
    RememberedDecision,
)

T = TypeVar("T")

NO_LIMIT = 2**63 - 1
"""``LIMIT`` for "all rows": SQLite refuses NULL there and PostgreSQL a negative number."""


@dataclass(frozen=True, slots=True)
class Tables:
    """The names a backend gives the four tables."""

    remembered: str
    audit: str
    pending: str
    approvers: str


@dataclass(frozen=True, slots=True)
class Statement:
    """One SQL statement and its values."""

    sql: str
    args: tuple[object, ...] = ()


@dataclass(frozen=True, slots=True)
class Fetch(Statement):
    """A query; sent back: its rows."""


@dataclass(frozen=True, slots=True)
class Execute(Statement):
    """A write; sent back: how many rows it touched. The first write of an operation
    starts its transaction on SQLite (an operation that writes begins with a write)."""


@dataclass(frozen=True, slots=True)
class Insert(Statement):
    """An insert of one row with an ``id`` column; sent back: the new id."""


@dataclass(frozen=True, slots=True)
class Changed:
    """Queued request ``ident`` changed: wake its waiters once the transaction commits
    (PostgreSQL's NOTIFY; nothing on SQLite, whose waiters poll)."""

    ident: int


Step = Fetch | Execute | Insert | Changed
Operation = Generator[Step, Any, T]
"""One transaction: yields `Step`s, is sent what each returned, returns the result."""


def _marks(values: tuple[object, ...]) -> str:
    return ", ".join("?" * len(values))


def _first(found: list[T]) -> T | None:
    return found[0] if found else None


# -- remembered decisions ----------------------------------------------------------------


def lookup(
    t: Tables, store: str, key: str, workspace: str, now: float
) -> Operation[RememberedDecision | None]:
    found = yield Fetch(
        f"SELECT {rows.REMEMBERED_COLUMNS} FROM {t.remembered} WHERE key = ? "
        "AND workspace IN (?, ?) AND (expires_at IS NULL OR expires_at > ?) "
        "ORDER BY workspace = ? LIMIT 1",
        (key, workspace, GLOBAL, now, GLOBAL),
    )
    return _first(rows.parse_rows(found, rows.remembered_from_row, "remembered decision", store))


_UPDATE_REMEMBERED = ", ".join(
    f"{column} = EXCLUDED.{column}" for column in rows.REMEMBERED_COLUMNS.split(", ")[1:-1]
)


def remember(
    t: Tables,
    request: ApprovalRequest,
    decision: ApprovalDecision,
    now: float,
    ttl: float | None,
) -> Operation[None]:
    values = rows.remembered_values(request, decision, now, ttl)
    yield Execute(
        f"INSERT INTO {t.remembered} ({rows.REMEMBERED_COLUMNS}) VALUES ({_marks(values)}) "
        f"ON CONFLICT (workspace, key) DO UPDATE SET {_UPDATE_REMEMBERED}",
        values,
    )
    yield from _audit_row(t, rows.audit_values(request, decision, now))


def list_remembered(
    t: Tables, store: str, now: float | None
) -> Operation[list[RememberedDecision]]:
    """``now=None``: expired decisions too."""
    where = "" if now is None else "WHERE expires_at IS NULL OR expires_at > ?"
    found = yield Fetch(
        f"SELECT {rows.REMEMBERED_COLUMNS} FROM {t.remembered} {where} "
        "ORDER BY created_at, key, workspace",
        () if now is None else (now,),
    )
    return rows.parse_rows(found, rows.remembered_from_row, "remembered decision", store)


def forget(t: Tables, key: str, workspace: str | None) -> Operation[int]:
    if workspace is None:
        count: int = yield Execute(f"DELETE FROM {t.remembered} WHERE key = ?", (key,))
    else:
        count = yield Execute(
            f"DELETE FROM {t.remembered} WHERE key = ? AND workspace = ?", (key, workspace)
        )
    return count


def forget_all(t: Tables) -> Operation[int]:
    count: int = yield Execute(f"DELETE FROM {t.remembered}")
    return count


# -- audit -------------------------------------------------------------------------------


def _audit_row(t: Tables, values: tuple[object, ...]) -> Operation[None]:
    yield Execute(f"INSERT INTO {t.audit} ({rows.AUDIT_INSERT}) VALUES ({_marks(values)})", values)


def audit(
    t: Tables, request: ApprovalRequest, answer: ApprovalDecision | ApprovalDeferral, now: float
) -> Operation[None]:
    yield from _audit_row(t, rows.audit_values(request, answer, now))


def audit_log(t: Tables, store: str, limit: int | None) -> Operation[list[AuditEntry]]:
    found = yield Fetch(
        f"SELECT {rows.AUDIT_COLUMNS} FROM {t.audit} ORDER BY id DESC LIMIT ?",
        (NO_LIMIT if limit is None else limit,),
    )
    return rows.parse_rows(found[::-1], rows.audit_from_row, "audit row", store)


# -- the queue ---------------------------------------------------------------------------


def enqueue(t: Tables, values: tuple[object, ...]) -> Operation[int]:
    """Queue the row ``values`` (`rows.pending_values`); its id."""
    ident: int = yield Insert(
        f"INSERT INTO {t.pending} ({rows.PENDING_INSERT}) VALUES ({_marks(values)})", values
    )
    yield Changed(ident)
    return ident


def pending(t: Tables, store: str, ident: int) -> Operation[PendingRequest | None]:
    found = yield Fetch(f"SELECT {rows.PENDING_COLUMNS} FROM {t.pending} WHERE id = ?", (ident,))
    return _first(rows.parse_rows(found, rows.pending_from_row, "queued request", store))


def list_pending(
    t: Tables, store: str, include_done: bool, limit: int
) -> Operation[list[PendingRequest]]:
    where = "" if include_done else "WHERE status = 'pending'"
    found = yield Fetch(
        f"SELECT {rows.PENDING_COLUMNS} FROM {t.pending} {where} ORDER BY id DESC LIMIT ?",
        (limit,),
    )
    return rows.parse_rows(found, rows.pending_from_row, "queued request", store)


def _expire(t: Tables, ident: int) -> Operation[int]:
    count: int = yield Execute(
        f"UPDATE {t.pending} SET status = 'expired' WHERE id = ? AND status = 'pending'",
        (ident,),
    )
    return count


def _owned_by_gone(
    t: Tables, machine: str, ident: int | None
) -> Operation[list[tuple[int, Owner]]]:
    """The questions still pending (all, or ``ident``) whose owner on ``machine`` is gone."""
    where, args = ("", (machine,)) if ident is None else (" AND id = ?", (machine, ident))
    found = yield Fetch(
        f"SELECT id, owner_pid, owner_started FROM {t.pending} "
        f"WHERE status = 'pending' AND owner_machine = ?{where} ORDER BY id",
        args,
    )
    owned = [(int(i), Owner(machine, int(pid), _str_or_none(started))) for i, pid, started in found]
    return [(i, owner) for i, owner in owned if owners.gone(owner)]


def _str_or_none(value: object) -> str | None:
    return None if value is None else str(value)


def withdraw_orphans(t: Tables, machine: str, ident: int | None = None) -> Operation[list[int]]:
    """Close, as withdrawn, the pending questions (all, or ``ident``) whose owner on
    ``machine`` runs no more; their ids. Each update checks the row is still pending, so
    an answer that wins meanwhile stands."""
    withdrawn = []
    for orphan, owner in (yield from _owned_by_gone(t, machine, ident)):
        reason = f"{owner.describe()}, which asked it and waited for the answer, is gone"
        closed: int = yield Execute(
            f"UPDATE {t.pending} SET status = 'expired', outcome = 'withdrawn', "
            "closed_reason = ? WHERE id = ? AND status = 'pending'",
            (reason, orphan),
        )
        if closed:
            withdrawn.append(orphan)
            yield Changed(orphan)
    return withdrawn


def answer(
    t: Tables, store: str, ident: int, choice: str, answered_by: str, now: float, machine: str
) -> Operation[AnswerResult]:
    # A question whose owner on this machine is gone is withdrawn first: nobody waits.
    yield from withdraw_orphans(t, machine, ident)
    won = yield Execute(
        f"UPDATE {t.pending} SET status = 'answered', choice = ?, answered_by = ?, "
        "answered_at = ? WHERE id = ? AND status = 'pending' "
        "AND (deadline IS NULL OR deadline > ?)",
        (choice, answered_by, now, ident, now),
    )
    if not won:  # past its deadline: the agent has stopped waiting (or is gone)
        yield from _expire(t, ident)
    row = yield from pending(t, store, ident)
    if not won and row is not None and row.status == "expired":
        yield from _audit_row(t, rows.late_audit_values(row, choice, answered_by, now))
    if row is not None:
        yield Changed(ident)
    return AnswerResult(won=bool(won), request=row)


def expire(t: Tables, store: str, ident: int) -> Operation[PendingRequest | None]:
    if (yield from _expire(t, ident)):
        yield Changed(ident)
    return (yield from pending(t, store, ident))


def settle(t: Tables, ident: int, outcome: str) -> Operation[None]:
    yield Execute(f"UPDATE {t.pending} SET outcome = ? WHERE id = ?", (outcome, ident))
    yield Changed(ident)


def prune_queue(t: Tables, cutoff: float) -> Operation[int]:
    # Over since before ``cutoff``: created, deadline and answer all before it (a
    # request still waiting, with no deadline or one not passed, is never deleted).
    count: int = yield Execute(
        f"DELETE FROM {t.pending} WHERE (status <> 'pending' OR deadline IS NOT NULL) "
        "AND created_at < ? AND coalesce(deadline, created_at) < ? "
        "AND coalesce(answered_at, created_at) < ?",
        (cutoff, cutoff, cutoff),
    )
    return count


def prune_audit(t: Tables, cutoff: float) -> Operation[int]:
    count: int = yield Execute(f"DELETE FROM {t.audit} WHERE at < ?", (cutoff,))
    return count


# -- who watches the queue ---------------------------------------------------------------


def beat(t: Tables, approver_id: str, name: str, kind: ApproverKind, now: float) -> Operation[None]:
    yield Execute(beat_sql(t.approvers), (approver_id, name, kind, now))


def leave(t: Tables, approver_id: str) -> Operation[None]:
    yield Execute(leave_sql(t.approvers), (approver_id,))


def approvers(t: Tables, store: str, since: float) -> Operation[list[ApproverSeen]]:
    found = yield Fetch(seen_sql(t.approvers), (since,))
    return parse_approvers(found, store)
