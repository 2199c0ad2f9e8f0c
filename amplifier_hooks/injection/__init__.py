"""Context injection: inject_context results delivered within a size limit and a turn budget.

- `injector` — `ContextInjector` and the `ContextSink` protocol it delivers to;
- `records` — what it reports: `AuditRecord`, `InjectionReport`, `InjectionUsage`;
- `tokens` — loading tiktoken encodings offline (`load_encoding`,
  `EncodingUnavailableError`).

Importing this package does not import tiktoken; the first encoding load does.
"""

from amplifier_hooks.injection.injector import ContextInjector, ContextSink
from amplifier_hooks.injection.records import (
    AuditRecord,
    DropReason,
    InjectionReport,
    InjectionUsage,
)
from amplifier_hooks.injection.tokens import EncodingUnavailableError

__all__ = [
    "AuditRecord",
    "ContextInjector",
    "ContextSink",
    "DropReason",
    "EncodingUnavailableError",
    "InjectionReport",
    "InjectionUsage",
]
