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

What one registered handler is, and what each way its call ends becomes, is
`handler_entry.HandlerEntry`'s; this module is the loop that calls entries in order.

What a call produced goes to a *sink*: the fold (`fold.Fold`) for ``emit``, a
`collection.Collection` for ``emit_and_collect``. This module decides only how a handler is
called and whether it failed; what its result means is the sink's business.
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterable, Iterator
from types import CoroutineType
from typing import Any, Protocol

from amplifier_hooks.engine.handler_entry import Clock, Handler, HandlerEntry
from amplifier_hooks.engine.options import resolve_timeout
from amplifier_hooks.engine.outcome import HandlerOutcome
from amplifier_hooks.engine.result import HookResult
from amplifier_hooks.engine.trace import Ran, TraceItem

__all__ = ["Clock", "Handler", "HandlerEntry", "Sink", "call_in_order", "resolve_timeout"]


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
            # A validated HookResult (see `handler_entry.as_result`): the common case, taken
            # as it is.
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
