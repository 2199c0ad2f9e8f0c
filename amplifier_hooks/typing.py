"""The records plugin and host authors annotate with, in one import (as ``structlog.typing``).

    from amplifier_hooks.typing import Handler, HookResult, CoordinatorView

Each name is defined in the package that owns it (`amplifier_hooks.engine`, `.session`,
`.modules`, `.approvals`, `.injection`, `.hosts`) and only re-exported here: this module
is for annotations and ``isinstance`` checks, and nothing in the library imports it.
"""

from __future__ import annotations

from amplifier_hooks.approvals.models import (
    ApprovalDecision,
    ApprovalProvider,
    ApprovalRequest,
    Scope,
    Via,
)
from amplifier_hooks.engine.calling import Handler
from amplifier_hooks.engine.options import HookOptions, RateLimit
from amplifier_hooks.engine.registrar import Unregister
from amplifier_hooks.engine.resolution import ApprovalAsk, Injection, Resolution, UserMessage
from amplifier_hooks.engine.result import Action, AllowOrDeny, HookResult, Level, Role
from amplifier_hooks.engine.trace import FailureKind, TraceEntry
from amplifier_hooks.hosts.base import HostAdapter, HostAnswer, HostCall
from amplifier_hooks.injection.injector import ContextSink
from amplifier_hooks.modules.view import CoordinatorView, HooksView
from amplifier_hooks.session.cleanups import Cleanup
from amplifier_hooks.session.observers import Observer
from amplifier_hooks.session.outcome import Outcome

__all__ = [
    "Action",
    "AllowOrDeny",
    "ApprovalAsk",
    "ApprovalDecision",
    "ApprovalProvider",
    "ApprovalRequest",
    "Cleanup",
    "ContextSink",
    "CoordinatorView",
    "FailureKind",
    "Handler",
    "HookOptions",
    "HookResult",
    "HooksView",
    "HostAdapter",
    "HostAnswer",
    "HostCall",
    "Injection",
    "Level",
    "Observer",
    "Outcome",
    "RateLimit",
    "Resolution",
    "Role",
    "Scope",
    "TraceEntry",
    "Unregister",
    "UserMessage",
    "Via",
]
