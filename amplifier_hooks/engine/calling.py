"""Calling handlers: the one path every handler call takes (`call_in_order`).

Most handlers return without ever suspending (they look at the data and decide). Arming a
timer for each of them costs more than the handler itself, so handlers are first called
with no timer at all: a *run* coroutine awaits them one after another and is stepped by
hand. A handler that finishes without suspending costs one plain ``await`` (no exception
per handler: the whole run ends with one ``StopIteration``), one clock reading (its end is
the next handler's start), and whatever its outcome means to the fold.

A handler that does suspend makes the run yield; the run is then *taken over* by
`deadline.Drive` (its module says how), and a fresh run goes on with the next handler.

A handler that blocks the loop (a plain function, or a coroutine that never awaits) cannot
be interrupted, and its timer cannot fire while it runs. So the deadline is also checked
when a call ends, with one clock reading: a handler that finishes after its timeout has
timed out, however it spent the time, and its result is discarded. Otherwise a guard that
happened to block past its deadline would decide, while one that awaited would not.

The plain loop (each call under ``asyncio.timeout``; 3.11 has no eager task factory) arms
and cancels a timer per call, several times the cost of this path
(``python -m benchmarks.bench_plain_calls`` times both). Hence the hand-stepping.

What a call produced goes to a *sink*: the fold (`fold.Fold`) for ``emit``, a
`fold.Collection` for ``emit_and_collect``. This module decides only how a handler is
called and whether it failed; what its result means is the sink's business.
"""

from __future__ import annotations

import asyncio
import copy
import math
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from types import CoroutineType
from typing import Any, Protocol

from asyncio_throttle import Throttler  # type: ignore[attr-defined]

from amplifier_hooks.engine.deadline import (
    Drive,
    blocked_past,
    describe_failure,
    failure_kind,
    timed_out,
)
from amplifier_hooks.engine.fold import HandlerOutcome
from amplifier_hooks.engine.options import HookOptions, resolve_timeout
from amplifier_hooks.engine.result import HookResult
from amplifier_hooks.engine.shortcut import fields, is_checked
from amplifier_hooks.engine.slots import foreign_results
from amplifier_hooks.engine.trace import FailureKind, Ran, TraceItem
from amplifier_hooks.logs import get_logger

__all__ = ["Clock", "Handler", "HandlerEntry", "Sink", "call_in_order", "resolve_timeout"]

Handler = Callable[[str, dict[str, Any]], Any]
"""``async def handler(event, data) -> HookResult | None`` (plain functions accepted too)."""

logger = get_logger()

_perf = time.perf_counter

Clock = Callable[[], float]
"""A monotonic clock in seconds (``time.perf_counter`` unless a registry is given another)."""


class Sink(Protocol):
    """Where `call_in_order` hands each handler's outcome (`fold.Fold`, `Collection`)."""

    data: dict[str, Any]
    """What the next handler gets (a shallow copy of)."""
    done: bool
    """True when no further handler should run."""
    trace: list[TraceItem]
    """Where the duration of a handler that returned None is appended, in place of its
    `TraceEntry` (`fold.Fold.handlers` says how it becomes one)."""

    def passed(self, duration: float, result: HookResult | None) -> None:
        """A handler returned None or an empty continue (`fold.is_empty_continue`)
        within its deadline."""

    def returned(self, ran: Ran, result: HookResult, duration: float) -> bool:
        """A handler (``ran``) returned a valid result within its deadline. True if it was
        an empty continue (`fold.is_empty_continue`): the data is unchanged, and the
        same result object may be handed to ``passed`` next time."""

    def add(self, outcome: HandlerOutcome) -> None:
        """Any outcome: a result, or a failure."""


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
        # A validated HookResult (the common case) is taken as it is: see `_as_result`.
        if value is not None and (type(value) is not HookResult or not is_checked(value)):
            try:
                value = _as_result(value)
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


# -- the calling path -------------------------------------------------------------------


def call_in_order(
    entries: Iterable[HandlerEntry], event: str, sink: Sink, clock: Clock
) -> Awaitable[None] | None:
    """Call each handler in order with its own shallow copy of ``sink.data``, handing
    each outcome to ``sink``, until the handlers run out or ``sink.done``.

    Returns None if every handler finished without suspending (the common case: no
    coroutine is made for the calls as a whole), else an awaitable that must be awaited
    to call the rest. Awaiting raises only what must propagate: ``KeyboardInterrupt``,
    and ``CancelledError`` when the awaiting task is cancelled.
    """
    remaining = iter(entries)
    taken_over = [False]
    run = _run(remaining, event, sink, clock, taken_over)
    try:
        yielded = run.send(None)
    except StopIteration:
        return None
    return _take_over(run, yielded, taken_over, remaining, event, sink, clock)


async def _take_over(
    run: Any,
    yielded: Any,
    taken_over: list[bool],
    remaining: Iterator[HandlerEntry],
    event: str,
    sink: Sink,
    clock: Clock,
) -> None:
    """Drive the run whose current handler suspended to that call's end under its timer,
    then go on with fresh runs for the handlers after it."""
    while True:
        taken_over[0] = True
        # Which handler suspended, and when its call began, are the run's own local
        # variables (`_run`): read from its suspended frame here rather than stored for
        # every call on the chance that the call suspends.
        where = run.cr_frame.f_locals
        entry: HandlerEntry = where["entry"]
        sink.add(await entry.finish(run, yielded, event, where["now"]))
        if sink.done:
            return
        taken_over = [False]
        run = _run(remaining, event, sink, clock, taken_over)
        try:
            yielded = run.send(None)
        except StopIteration:
            return


async def _run(
    entries: Iterator[HandlerEntry], event: str, sink: Sink, clock: Clock, taken_over: list[bool]
) -> Any:
    """Call handlers from ``entries`` until they run out or the sink is done; or, once
    taken over (``taken_over[0]``, set by the caller that drives the run on with a timer),
    up to the end of the call that suspended, returning what it returned.

    The hot loop of every emit: kept flat on purpose (each method call or attribute
    lookup here is paid once per handler per emit).
    """
    data = sink.data
    record = sink.trace.append
    empty: HookResult | None = None  # the last result seen to be an empty continue
    now = clock()
    for entry in entries:
        try:
            # Each handler gets its own shallow copy, so no handler sees another's
            # in-place edits of the top-level dict: only `modify` changes the data.
            value = entry.call(event, data.copy())
            if type(value) is CoroutineType or (
                value is not None and type(value) is not HookResult and isinstance(value, Awaitable)
            ):
                value = await value  # `entry` and `now` say which call this is: see `_take_over`
                if taken_over[0]:
                    return value
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            if taken_over[0]:
                raise  # the caller decides: a timeout, a failure, or its own cancellation
            # Nothing has suspended, so a CancelledError here is the handler's own, never
            # a cancellation of the emitting task.
            sink.add(entry.failed(event, exc, now))
            if sink.done:
                return None
            now = clock()
            continue
        end = clock()
        took = end - now
        if took > entry.limit:
            # It blocked the loop past its deadline: a timeout, like any other.
            sink.add(entry.timed_out(event, now))
        elif value is None:
            # The commonest outcome of all: only its duration is recorded (the trace
            # makes this handler's entry if it is ever read: `trace.Trace`), and nothing
            # the fold decides can have changed.
            record(took)
            now = end
            continue
        elif value is empty:
            sink.passed(took, value)
        elif type(value) is HookResult and type(value.__pydantic_fields_set__) is set:
            # `shortcut.is_checked`, inlined: once per result per emit.
            # A validated HookResult (see `_as_result`): the common case, taken as it is.
            if sink.returned(entry, value, took):
                empty = value  # handlers often share one result: the rest skip the fold
            else:
                data = sink.data
        else:
            sink.add(entry.outcome(event, value, now, end))
            data = sink.data
        if sink.done:
            return None
        now = end
    return None


# -- helpers -----------------------------------------------------------------------------


def _as_result(value: Any) -> HookResult:
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
