"""`Collection`: the fold of `HookRegistry.emit_and_collect`, which keeps each handler's
``result.data`` where `fold.Fold` resolves one decision. Its own module: the two sinks of
`calling.call_in_order` share nothing but the outcome they are handed.
"""

from __future__ import annotations

from typing import Any

from amplifier_hooks.engine.outcome import HandlerOutcome
from amplifier_hooks.engine.result import HookResult
from amplifier_hooks.engine.trace import Ran, TraceItem

__all__ = ["Collection"]


class Collection:
    """The fold of `HookRegistry.emit_and_collect`: each handler's ``result.data``.

    Handlers run concurrently there, each fed to a `Collection` of its own; a failed
    handler contributes nothing, and nothing ends the chain.
    """

    __slots__ = ("data", "done", "collected", "trace")

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.done = False
        self.collected: list[Any] = []
        self.trace: list[TraceItem] = []
        """Required by `calling.Sink`; nothing reads it here."""

    def passed(self, duration: float, result: HookResult | None) -> None:
        """A handler that returned None or an empty continue: its data, if any."""
        if result is not None and result.data is not None:
            self.collected.append(result.data)

    def returned(self, ran: Ran, result: HookResult, duration: float) -> bool:
        """Keep the result's data (if any)."""
        if result.data is not None:
            self.collected.append(result.data)
        return False

    def add(self, outcome: HandlerOutcome) -> None:
        """Keep a successful result's data (if any)."""
        result = outcome.result
        if outcome.failure is None and result is not None and result.data is not None:
            self.collected.append(result.data)
