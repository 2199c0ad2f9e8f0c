"""Approval stores: remembered decisions, the audit trail and the queue of pending requests.

Two backends behind one async interface (`ApprovalBackend`): `ApprovalStore`, a SQLite
file on this machine (the default), and `PostgresBackend`, shared by every agent and
approver that can reach the database. `open_store` picks one from a path or URL.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from amplifier_hooks.approvals.store.base import (
    AUDIT_RETENTION,
    PRUNE_INTERVAL,
    QUEUE_RETENTION,
    ApprovalBackend,
)
from amplifier_hooks.approvals.store.location import (
    SCHEMES,
    StoreLocationError,
    check_location,
    sqlite_target,
)
from amplifier_hooks.approvals.store.presence import (
    BEAT_INTERVAL,
    PRESENCE_WINDOW,
    ApproverKind,
    ApproverSeen,
)
from amplifier_hooks.approvals.store.records import (
    GLOBAL,
    MEMORY,
    AnswerResult,
    ApprovalStoreError,
    AuditEntry,
    PendingRequest,
    RememberedDecision,
    default_store_path,
)
from amplifier_hooks.approvals.store.retrying import DEFAULT_BUDGET, retrying
from amplifier_hooks.approvals.store.sqlite import ApprovalStore

if TYPE_CHECKING:
    from amplifier_hooks.approvals.store.postgres import PostgresBackend

STORE_ENV = "AMPLIFIER_HOOKS_STORE"
"""Environment variable naming the store (a path or URL) used when none is given."""

StoreTarget = ApprovalBackend | str | os.PathLike[str] | None


def environment_store() -> str | None:
    """``$AMPLIFIER_HOOKS_STORE`` when it is set and not empty, else None; a
    `StoreLocationError` naming the variable when it names no usable store."""
    location = os.environ.get(STORE_ENV) or None
    if location is not None:
        check_location(location, f"${STORE_ENV}")
    return location


def is_postgres_url(target: object) -> bool:
    """True for ``postgresql://`` and ``postgres://`` URLs."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def open_store(target: StoreTarget = None) -> ApprovalBackend:
    """The backend for ``target``: a backend as it is (an `ApprovalStore` too); a
    ``postgresql://`` URL; ``sqlite:///path``, a path or ``":memory:"``; None for
    ``$AMPLIFIER_HOOKS_STORE`` or else the user's state file. Opening is lazy: nothing
    connects until the first call. A location that names no usable store (`check_location`:
    an unknown scheme, a missing folder) is a `StoreLocationError`, and nothing is created."""
    if isinstance(target, ApprovalBackend):
        return target
    if target is None:
        target = environment_store()
    else:
        check_location(target)
    if is_postgres_url(target):
        backend: ApprovalBackend = _postgres_backend()(str(target))
        return backend
    if isinstance(target, str):
        target = sqlite_target(target)
    return ApprovalStore(target)


POSTGRES_EXTRA_MISSING = (
    "a postgresql:// store needs the PostgreSQL driver, which is not installed: "
    "pip install 'amplifier-hooks[postgres]'"
)
"""The error for a ``postgresql://`` store when psycopg (the ``postgres`` extra) is absent:
a plain ``pip install amplifier-hooks`` does not bring it."""


def _postgres_backend() -> type[PostgresBackend]:
    """`PostgresBackend`, or an `ApprovalStoreError` saying which extra to install."""
    try:
        from amplifier_hooks.approvals.store.postgres import PostgresBackend
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("psycopg", "psycopg_pool"):
            raise
        raise ApprovalStoreError(POSTGRES_EXTRA_MISSING) from None
    return PostgresBackend


def __getattr__(name: str) -> object:
    if name == "PostgresBackend":
        return _postgres_backend()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "AUDIT_RETENTION",
    "BEAT_INTERVAL",
    "DEFAULT_BUDGET",
    "GLOBAL",
    "MEMORY",
    "POSTGRES_EXTRA_MISSING",
    "PRESENCE_WINDOW",
    "PRUNE_INTERVAL",
    "QUEUE_RETENTION",
    "SCHEMES",
    "STORE_ENV",
    "AnswerResult",
    "ApprovalBackend",
    "ApprovalStore",
    "ApprovalStoreError",
    "ApproverKind",
    "ApproverSeen",
    "AuditEntry",
    "PendingRequest",
    "PostgresBackend",
    "RememberedDecision",
    "StoreLocationError",
    "StoreTarget",
    "check_location",
    "default_store_path",
    "environment_store",
    "is_postgres_url",
    "open_store",
    "retrying",
]
