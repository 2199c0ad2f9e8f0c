"""`HandlerEntry`: a registered handler, what it is called with, and what each way a call
of it can end becomes (`HandlerOutcome`: a result, a failure, a timeout).

Its own module: the calling path (`calling`) is the loop that calls entries in order and
is kept flat for speed; what one entry is, and how its outcome is judged, reads apart.
"""

from __future__ import annotations

import asyncio
import copy
import math
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from asyncio_throttle import Throttler  # type: ignore[attr-defined]

from amplifier_hooks.engine.deadline import (
    Drive,
    blocked_past,
    describe_failure,
    failure_kind,
    timed_out,
)
from amplifier_hooks.engine.options import HookOptions
from amplifier_hooks.engine.outcome import HandlerOutcome
from amplifier_hooks.engine.result import HookResult
from amplifier_hooks.engine.shortcut import fields, is_checked
from amplifier_hooks.engine.slots import foreign_results
from amplifier_hooks.engine.trace import FailureKind
from amplifier_hooks.logs import get_logger

__all__ = ["Clock", "Handler", "HandlerEntry", "as_result"]

Handler = Callable[[str, dict[str, Any]], Any]
"""``async def handler(event, data) -> HookResult | None`` (plain functions accepted too)."""

logger = get_logger()

_perf = time.perf_counter

Clock = Callable[[], float]
"""A monotonic clock in seconds (``time.perf_counter`` unless a registry is given another)."""


class HandlerEntry:
    """A registered handler: the callable, its `HookOptions`, and how to call it safely."""

    __slots__ = (
        "event",
        "handler",
        "options",
        "seq",
        "timeout",
        "limit",
        "name",
        "priority",
        "fail_closed",
        "throttler",
        "call",
        "clock",
    )

    def __init__(
        self,
        event: str,
        handler: Handler,
        options: HookOptions,
        seq: int,
        timeout: float | None,
        clock: Clock = _perf,
    ) -> None:
        self.event = event
        self.handler = handler
        self.options = options
        """As registered, with the name filled in."""
        self.seq = seq
        self.timeout = timeout
        """The timeout in effect, in seconds (the registry's default applied), or None."""
        # The same as a number to compare with (infinite for none): one comparison per call.
        self.limit = math.inf if timeout is None else timeout
        # Read on every call: kept flat rather than looked up through `options`.
        self.name: str = options.name or options.name_for(handler)
        self.priority = options.priority
        self.fail_closed = options.fail_closed
        limit = options.rate_limit
        self.throttler = Throttler(limit[0], limit[1]) if limit else None
        # What to call with (event, data): the handler itself, or it behind its throttle.
        self.call: Handler = handler if self.throttler is None else self._throttled_call
        # Reads the time a call starts and ends; deadlines and durations are measured on it.
        self.clock = clock

    @property
    def sort_key(self) -> tuple[int, int]:
        return (self.priority, self.seq)

    def capped(self, cap: float | None) -> HandlerEntry:
        """This entry with its timeout shortened to ``cap`` if that is tighter (the same
        handler, behind the same throttle)."""
        if cap is None or (self.timeout is not None and self.timeout <= cap):
            return self
        entry = copy.copy(self)
        entry.timeout = entry.limit = cap
        return entry

    # -- outcomes ------------------------------------------------------------------

    def outcome(self, event: str, value: Any, started: float, ended: float) -> HandlerOutcome:
        """The outcome of a call that returned ``value``: a timeout if it ended past its
        deadline, a failure if ``value`` is no valid result, else that result."""
        if ended - started > self.limit:
            return self.timed_out(event, started)
        # A validated HookResult (the common case) is taken as it is: see `as_result`.
        if value is not None and (type(value) is not HookResult or not is_checked(value)):
            try:
                value = as_result(value)
            except Exception as exc:  # not only ValidationError: a foreign model_dump may raise
                return self._failed(event, "invalid_return", exc, started)
        return HandlerOutcome(
            name=self.name,
            priority=self.priority,
            result=value,
            duration=ended - started,
            fail_closed=self.fail_closed,
        )

    def timed_out(self, event: str, started: float) -> HandlerOutcome:
        """The outcome of a call that finished after its deadline: a timeout, result
        discarded. The loop was blocked meanwhile (else the timer would have stopped the
        call), which stalled every other task of the agent too, so the log says so."""
        return self._failed(event, "timeout", blocked_past(self.timeout), started)

    def failed(self, event: str, exc: BaseException, started: float) -> HandlerOutcome:
        """The outcome of a handler that raised ``exc`` (logged)."""
        return self._failed(event, failure_kind(exc), exc, started)

    def _failed(
        self, event: str, kind: FailureKind, exc: BaseException, started: float
    ) -> HandlerOutcome:
        duration = self.clock() - started
        error = describe_failure(exc)
        logger.warning(
            "hook handler failed",
            hook_event=event,
            handler=self.name,
            failure=kind,
            error=error,
            duration_ms=round(duration * 1000, 3),
            fail_closed=self.fail_closed,
            exc_info=exc if kind == "raised" else None,
        )
        return HandlerOutcome(
            name=self.name,
            priority=self.priority,
            result=None,
            failure=kind,
            error=error,
            duration=duration,
            fail_closed=self.fail_closed,
        )

    # -- calls that suspended ---------------------------------------------------------

    async def finish(self, run: Any, yielded: Any, event: str, started: float) -> HandlerOutcome:
        """Drive a run whose call of this handler suspended (it yielded ``yielded``) to the
        end of that call, under the handler's timeout.

        Raises ``CancelledError`` if the emitting task was cancelled meanwhile, even if
        the handler swallowed that cancellation. "Cancelled meanwhile" means the task's
        ``cancelling()`` count rose and was not brought back down (as ``asyncio.timeout``
        and task groups inside the handler do). Caveat: on Python < 3.13 a task group
        whose child fails after the group's body has finished leaves that count raised (a
        CPython bug), so such a handler looks as if it swallowed a cancellation.
        """
        limit = self.timeout
        task = asyncio.current_task()
        before = task.cancelling() if task is not None else 0
        drive = Drive(run, yielded, limit, self.name, event)
        try:
            value = await drive
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            if task is not None and task.cancelling() > before:
                if isinstance(exc, asyncio.CancelledError):
                    raise
                raise asyncio.CancelledError() from exc
            if drive.expired:
                return self._failed(event, "timeout", timed_out(limit), started)
            return self._failed(event, failure_kind(exc), exc, started)
        if task is not None and task.cancelling() > before:
            # The handler swallowed the cancellation of the emitting task; the caller's
            # cancellation must never be lost.
            raise asyncio.CancelledError()
        if drive.expired:  # it caught its timeout's cancellation and returned anyway
            return self._failed(event, "timeout", timed_out(limit), started)
        # Past the deadline here, it blocked the loop in a later step (the timer could
        # not fire in time).
        return self.outcome(event, value, started, self.clock())

    async def _throttled_call(self, event: str, data: dict[str, Any]) -> Any:
        assert self.throttler is not None
        async with self.throttler:
            value = self.handler(event, data)
        if isinstance(value, Awaitable):
            value = await value
        return value


def as_result(value: Any) -> HookResult:
    """What a handler returned, as a valid `HookResult` (raises if it is none).

    A HookResult validated itself when it was made, so it is taken as it is, unless it
    skipped that (`shortcut.is_checked`). A dict is validated; a result of another library
    (anything with ``model_dump``: the reference's 1.x or 2.x) is mapped by the reader
    plugged into `slots.foreign_results`.
    """
    if isinstance(value, HookResult):
        if is_checked(value):
            return value
        return type(value).model_validate(dict(fields(value)))
    if isinstance(value, dict):
        return HookResult.model_validate(value)
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        values = dump()
        if not isinstance(values, Mapping):
            raise TypeError(f"{type(value).__name__}.model_dump() returned no mapping")
        return foreign_results.get()(values)
    raise TypeError(f"handler returned {type(value).__name__}; expected HookResult or None")
