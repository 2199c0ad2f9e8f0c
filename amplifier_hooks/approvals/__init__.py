"""Approvals: ask_user results become decisions by a person, a policy or a memory.

The gate, the request and decision records, the policy and queue providers and the store.
The screens a person answers on, and `default_provider`, which picks one, are
`amplifier_hooks.ui`: importing this package never imports Textual or Rich's prompts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from amplifier_hooks.approvals.gate import ApprovalGate
from amplifier_hooks.approvals.models import (
    ApprovalDecision,
    ApprovalDeferral,
    ApprovalDismissed,
    ApprovalError,
    ApprovalProvider,
    ApprovalRequest,
    ApprovalTimeout,
    OptionMeaning,
    OptionWords,
    classify_option,
    memory_key,
    pick_option,
    read_option,
    summarize,
)
from amplifier_hooks.approvals.policy import PolicyApprovalProvider, PolicyRule
from amplifier_hooks.approvals.requests import build_request
from amplifier_hooks.approvals.store import (
    AnswerResult,
    ApprovalBackend,
    ApprovalStore,
    ApprovalStoreError,
    AuditEntry,
    PendingRequest,
    RememberedDecision,
    default_store_path,
    open_store,
)

if TYPE_CHECKING:
    from amplifier_hooks.approvals.auto import AutoApprovalProvider
    from amplifier_hooks.approvals.heartbeat import Heartbeat
    from amplifier_hooks.approvals.queue import GATE_STORE, QueueApprovalProvider
    from amplifier_hooks.approvals.store.postgres import PostgresBackend

_LAZY = {
    "AutoApprovalProvider": "amplifier_hooks.approvals.auto",
    "Heartbeat": "amplifier_hooks.approvals.heartbeat",
    "QueueApprovalProvider": "amplifier_hooks.approvals.queue",
    "GATE_STORE": "amplifier_hooks.approvals.queue",
    "PostgresBackend": "amplifier_hooks.approvals.store.postgres",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "GATE_STORE",
    "AnswerResult",
    "ApprovalBackend",
    "ApprovalDecision",
    "ApprovalDeferral",
    "ApprovalDismissed",
    "ApprovalError",
    "ApprovalGate",
    "ApprovalProvider",
    "ApprovalRequest",
    "ApprovalStore",
    "ApprovalStoreError",
    "ApprovalTimeout",
    "AuditEntry",
    "AutoApprovalProvider",
    "Heartbeat",
    "OptionMeaning",
    "OptionWords",
    "PendingRequest",
    "PolicyApprovalProvider",
    "PolicyRule",
    "PostgresBackend",
    "QueueApprovalProvider",
    "RememberedDecision",
    "build_request",
    "classify_option",
    "default_store_path",
    "memory_key",
    "open_store",
    "pick_option",
    "read_option",
    "summarize",
]
