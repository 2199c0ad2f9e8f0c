"""Approvals: ask_user results become decisions by a person, a policy or a memory.

Importing this package does not import Textual or Rich's prompt machinery: the Textual and
console names load on first use, so a headless agent stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from amplifier_hooks.approvals.auto import AutoApprovalProvider
from amplifier_hooks.approvals.defaults import default_provider
from amplifier_hooks.approvals.gate import ApprovalGate, build_request
from amplifier_hooks.approvals.heartbeat import Heartbeat
from amplifier_hooks.approvals.models import (
    ApprovalDecision,
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
from amplifier_hooks.approvals.store import (
    AnswerResult,
    ApprovalBackend,
    ApprovalStore,
    ApprovalStoreError,
    AuditEntry,
    PendingRequest,
    RememberedDecision,
    SQLiteBackend,
    default_store_path,
    open_store,
)

if TYPE_CHECKING:
    from amplifier_hooks.approvals.console import ConsoleApprovalProvider
    from amplifier_hooks.approvals.queue import GATE_STORE, QueueApprovalProvider
    from amplifier_hooks.approvals.screen import ApprovalScreen
    from amplifier_hooks.approvals.store.postgres import PostgresBackend
    from amplifier_hooks.approvals.textual_ui import (
        ApprovalApp,
        ApprovalUIClosed,
        TextualApprovalProvider,
        run_with_approval_ui,
    )

_LAZY = {
    "ApprovalScreen": "amplifier_hooks.approvals.screen",
    "ApprovalApp": "amplifier_hooks.approvals.textual_ui",
    "ApprovalUIClosed": "amplifier_hooks.approvals.textual_ui",
    "TextualApprovalProvider": "amplifier_hooks.approvals.textual_ui",
    "run_with_approval_ui": "amplifier_hooks.approvals.textual_ui",
    "ConsoleApprovalProvider": "amplifier_hooks.approvals.console",
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
    "ApprovalApp",
    "ApprovalBackend",
    "ApprovalDecision",
    "ApprovalDismissed",
    "ApprovalError",
    "ApprovalGate",
    "ApprovalProvider",
    "ApprovalRequest",
    "ApprovalScreen",
    "ApprovalStore",
    "ApprovalStoreError",
    "ApprovalTimeout",
    "ApprovalUIClosed",
    "AuditEntry",
    "AutoApprovalProvider",
    "ConsoleApprovalProvider",
    "Heartbeat",
    "OptionMeaning",
    "OptionWords",
    "PendingRequest",
    "PolicyApprovalProvider",
    "PolicyRule",
    "PostgresBackend",
    "QueueApprovalProvider",
    "RememberedDecision",
    "SQLiteBackend",
    "TextualApprovalProvider",
    "build_request",
    "classify_option",
    "default_provider",
    "default_store_path",
    "memory_key",
    "open_store",
    "pick_option",
    "read_option",
    "run_with_approval_ui",
    "summarize",
]
