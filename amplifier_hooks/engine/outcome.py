"""`HandlerOutcome`: what calling one handler produced, a result or a failure, as the
calling path (`calling`, `handler_entry`) hands it to a fold (`fold.Fold`,
`collection.Collection`). Its own module: both sides read it, neither owns it.
"""

from __future__ import annotations

from typing import NamedTuple

from amplifier_hooks.engine.result import HookResult
from amplifier_hooks.engine.trace import FailureKind

__all__ = ["HandlerOutcome", "failure_reason"]


class HandlerOutcome(NamedTuple):
    """What calling one handler produced: a result, or a failure of some kind.

    A NamedTuple rather than a model because one is built per handler call on the hot path.
    """

    name: str
    priority: int
    result: HookResult | None
    failure: FailureKind | None = None
    error: str | None = None
    duration: float = 0.0
    fail_closed: bool = False


def failure_reason(outcome: HandlerOutcome) -> str:
    """The deny reason for a fail-closed handler that failed: names handler and failure."""
    detail = f": {outcome.error}" if outcome.error else ""
    return f"hook handler {outcome.name!r} failed ({outcome.failure}){detail}; failing closed"
