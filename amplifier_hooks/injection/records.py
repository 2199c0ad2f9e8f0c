"""What the injector reports: one audit record per decision, a report per batch, the usage.

`AuditRecord` is a named tuple, not a frozen dataclass: one is made for every injection of
every dispatch, and a frozen dataclass's ``__init__`` (one ``object.__setattr__`` per field)
cost more than everything else the injector does around tiktoken.
"""

from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

__all__ = ["AuditRecord", "DropReason", "InjectionReport", "InjectionUsage"]

DropReason = Literal["size_limit", "budget", "role_refused", "sink_error"]


class AuditRecord(NamedTuple):
    """One injection decision: what was offered, by whom, its size, and what happened.

    Immutable; fields are read by name (it is also a tuple, in this field order).
    """

    source: str
    event: str
    role: str
    ephemeral: bool
    append_to_last_tool_result: bool
    bytes: int
    tokens: int | None
    """None only for a text over 1 MiB already dropped for size (not worth tokenizing)."""
    accepted: bool
    reason: DropReason | None
    timestamp: str
    turn: int
    preview: str
    """The first characters of the text, so an audit reader can tell what it was."""


@dataclass(frozen=True, slots=True)
class InjectionUsage:
    """The turn's token budget as a UI shows it. ``None`` budget/left means unlimited."""

    used: int
    budget: int | None
    left: int | None
    turn: int
    accepted: int
    dropped: int


@dataclass(slots=True)
class InjectionReport:
    """What one `ContextInjector.apply` did with a batch of injections."""

    persisted: list[dict[str, Any]] = field(default_factory=list)
    """Messages handed to the sink (or that would have been, when no sink is set)."""
    ephemeral: list[dict[str, Any]] = field(default_factory=list)
    """Messages for the current LLM call only: never stored in history."""
    dropped: list[AuditRecord] = field(default_factory=list)

    @property
    def tokens(self) -> int:
        """Tokens of every delivered message in this report."""
        return sum(m["metadata"]["tokens"] for m in (*self.persisted, *self.ephemeral))
