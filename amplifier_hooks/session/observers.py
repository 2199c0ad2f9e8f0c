"""`Observers`: callbacks that see the final `Outcome` of every dispatch.

The `Coordinator` owns one, and tells it each outcome once a dispatch has applied
everything (`Observers.notify`). An observer watches and never
steers: one that raises, is cancelled or takes too long is logged and skipped, and the
outcome it was shown is immutable. The public path of `Observer` and
`DEFAULT_OBSERVER_TIMEOUT` stays `amplifier_hooks.session.coordinator`, which re-exports them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from amplifier_hooks.engine.tasks import caller_cancelled, describe_exception, run_guarded
from amplifier_hooks.logs import get_logger
from amplifier_hooks.session.outcome import Outcome

__all__ = ["DEFAULT_OBSERVER_TIMEOUT", "Observer", "Observers"]

logger = get_logger()

Observer = Callable[[str, Outcome], Any]
"""Called with the event and the final `Outcome` of every dispatch; may be async."""

DEFAULT_OBSERVER_TIMEOUT = 5.0
"""Seconds an async observer may take before it is abandoned (logged, ignored)."""


@dataclass(frozen=True, eq=False)
class _ObserverEntry:
    """One registration (compared by identity: the same callback may be added twice)."""

    callback: Observer
    timeout: float | None
    name: str


class Observers:
    """The observers of one coordinator, in registration order (`add`, `notify`)."""

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: list[_ObserverEntry] = []

    def __len__(self) -> int:
        return len(self._entries)

    def add(
        self, callback: Observer, *, timeout: float | None = DEFAULT_OBSERVER_TIMEOUT
    ) -> Callable[[], None]:
        """Call ``callback(event, outcome)`` at the end of every `dispatch`; returns an
        idempotent unregister function.

        Observers run in registration order after approvals and injections, for allowed and
        denied dispatches alike, so an audit log can record the decision and who decided it.
        One that raises or outlasts ``timeout`` seconds (async ones; None: no limit) is
        logged and ignored: an observer never changes the outcome.
        """
        if not callable(callback):
            raise TypeError(f"observer must be callable, got {type(callback).__name__}")
        if timeout is not None and not timeout > 0:
            raise ValueError(f"observer timeout must be a positive number or None, got {timeout}")
        entry = _ObserverEntry(callback, timeout, _describe(callback))
        self._entries.append(entry)

        def unregister() -> None:
            if entry in self._entries:
                self._entries.remove(entry)

        return unregister

    async def notify(self, event: str, outcome: Outcome) -> None:
        """Show ``outcome`` to every observer, in order (each failure logged, skipped)."""
        for entry in tuple(self._entries):  # a snapshot: observers may unregister
            start = time.perf_counter()
            try:
                value = entry.callback(event, outcome)
            except KeyboardInterrupt:
                raise
            except asyncio.CancelledError as exc:
                if caller_cancelled():
                    raise
                self._observer_failed(entry, event, "cancelled", exc)
                continue
            except BaseException as exc:  # SystemExit too: an observer cannot end the agent
                self._observer_failed(entry, event, "raised", exc)
                continue
            if value is not None and isinstance(value, Awaitable):  # most return None
                ending, result = await run_guarded(value, entry.timeout)
                if ending != "ok":
                    self._observer_failed(entry, event, ending, result)
            elif entry.timeout is not None and time.perf_counter() - start > entry.timeout:
                # A sync observer cannot be interrupted; it held up the whole loop.
                logger.warning(
                    "observer blocked the event loop",
                    observer=entry.name,
                    hook_event=event,
                    seconds=round(time.perf_counter() - start, 3),
                )

    @staticmethod
    def _observer_failed(entry: _ObserverEntry, event: str, ending: str, exc: Any) -> None:
        logger.error(
            "observer failed; ignored",
            observer=entry.name,
            hook_event=event,
            failure=ending,
            error=describe_exception(exc),
        )


def _describe(callback: Any) -> str:
    return str(getattr(callback, "__qualname__", None) or repr(callback))
