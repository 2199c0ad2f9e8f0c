"""Context injection: inject_context results delivered within a size limit and a turn budget."""

from amplifier_hooks.injection.injector import (
    AuditRecord,
    ContextInjector,
    ContextSink,
    DropReason,
    EncodingUnavailableError,
    InjectionReport,
    InjectionUsage,
)

__all__ = [
    "AuditRecord",
    "ContextInjector",
    "ContextSink",
    "DropReason",
    "EncodingUnavailableError",
    "InjectionReport",
    "InjectionUsage",
]
