"""Calling one handler: timeouts, rate limits, validation, and fault isolation.

Most handlers return without ever suspending (they look at the data and decide). Arming a
timer for each of them costs several microseconds per handler, more than the handler
itself, so a call is first *started by hand*: the coroutine is sent ``None`` once. If it
finishes right there it needed no timer.

A handler that does suspend is driven on by `_Drive`, still inside the emitting task and
its context, so that inside a handler ``asyncio.current_task()``, context variables,
``asyncio.timeout`` and task groups behave exactly as under a plain ``await``. (Moving the
rest of the call into another task broke all of those: a context-variable token set before
the first await could not be reset after it, and a handler's own ``asyncio.timeout``
cancelled the *emitting* task.) The deadline is one timer per suspended call; when it
fires, the future the handler waits on is cancelled, as ``Task.cancel`` would do. A handler
that suspends again instead of finishing (it ignores cancellation, or cleans up slowly) is
abandoned: it goes on in a background task, and the emit moves on.

A handler that blocks the loop (a plain function, or a coroutine that never awaits) cannot
be interrupted, and its timer cannot fire while it runs. So the deadline is also checked
when a call ends, with one clock reading: a handler that finishes after its timeout has
timed out, however it spent the time, and its result is discarded. Otherwise a guard that
happened to block past its deadline would decide, while one that awaited would not.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable, Generator, Mapping
from types import CoroutineType
from typing import Any

import structlog
from asyncio_throttle import Throttler  # type: ignore[attr-defined]
from pydantic import ValidationError

from amplifier_hooks._foreign import from_foreign
from amplifier_hooks._tasks import describe_exception
from amplifier_hooks.resolver import FailureKind, HandlerOutcome
from amplifier_hooks.result import ACTIONS, HookResult

_ACTIONS = frozenset(ACTIONS)

Handler = Callable[[str, dict[str, Any]], Any]
"""``async def handler(event, data) -> HookResult | None`` (plain functions accepted too)."""

logger = structlog.get_logger("amplifier_hooks")

_perf = time.perf_counter

Clock = Callable[[], float]
"""A monotonic clock in seconds (``time.perf_counter`` unless a registry is given another)."""


class HandlerEntry:
    """A registered handler with its settings; knows how to call itself safely."""

    __slots__ = (
        "event",
        "handler",
        "name",
        "priority",
        "seq",
        "timeout",
        "fail_closed",
        "rate_limit",
        "throttler",
        "owner",
        "call",
        "clock",
    )

    def __init__(
        self,
        event: str,
        handler: Handler,
        name: str,
        priority: int,
        seq: int,
        timeout: float | None,
        fail_closed: bool,
        rate_limit: tuple[int, float] | None,
        owner: str | None,
        clock: Clock = _perf,
    ) -> None:
        self.event = event
        self.handler = handler
        self.name = name
        self.priority = priority
        self.seq = seq
        # Resolved timeout in seconds, or None for no timeout at all.
        self.timeout = timeout
        self.fail_closed = fail_closed
        self.rate_limit = rate_limit
        self.throttler = Throttler(rate_limit[0], rate_limit[1]) if rate_limit else None
        self.owner = owner
        # What to call with (event, data): the handler itself, or it behind its throttle.
        self.call: Handler = handler if self.throttler is None else self._throttled_call
        # Reads the time a call starts and ends; deadlines and durations are measured on it.
        self.clock = clock

    @property
    def sort_key(self) -> tuple[int, int]:
        return (self.priority, self.seq)

    def deadline(self, cap: float | None) -> float | None:
        """This handler's timeout, shortened to ``cap`` if that is tighter."""
        limit = self.timeout
        if cap is not None:
            limit = cap if limit is None else min(limit, cap)
        return limit

    # -- calling -------------------------------------------------------------------

    def start(
        self, event: str, data: dict[str, Any], started: float
    ) -> HookResult | HandlerOutcome | _Pending | None:
        """Run the handler as far as it goes without suspending.

        Returns what it returned if it finished (to be judged with `settle`), a failed
        `HandlerOutcome` if it failed, else a `_Pending` to be awaited with `finish`.
        """
        try:
            value = self.call(event, data)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            return self.failed(event, exc, started)
        return self.begin(value, event, started)

    def begin(
        self, value: Any, event: str, started: float
    ) -> HookResult | HandlerOutcome | _Pending | None:
        """Take what calling the handler returned as far as it goes without suspending.

        Returns the finished call's result (``None``, a `HookResult`, or an invalid-return
        failure; still to be judged with `settle`), a failed `HandlerOutcome`, or a
        `_Pending`. `HookRegistry.emit` inlines the common case of this (a coroutine that
        finishes in its first step) and calls this for everything else.
        """
        if type(value) is not CoroutineType:
            if not isinstance(value, Awaitable):
                return self._raw(value, event, started)
            value = _await(value)
        try:
            yielded = value.send(None)
        except StopIteration as stop:
            return self._raw(stop.value, event, started)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            # Nothing has suspended yet, so a CancelledError here is the handler's own,
            # never a cancellation of the emitting task.
            return self.failed(event, exc, started)
        return _Pending(value, yielded)

    def _raw(self, value: Any, event: str, started: float) -> HookResult | HandlerOutcome | None:
        # None or a HookResult as they are; anything else converted now, so that what a
        # handler returns can never pass for one of this module's own outcomes.
        if value is None or isinstance(value, HookResult):
            return value
        return self._coerce(event, value, started)

    def settle(
        self, value: Any, event: str, started: float, limit: float | None = None
    ) -> HookResult | HandlerOutcome | None:
        """A finished call's return value as a result, or as a failure: if it came after
        the deadline (``limit``, else the handler's timeout), or is not a valid result."""
        if limit is None:
            limit = self.timeout
        if limit is not None and self.clock() - started > limit:
            return self.timed_out(event, started, limit)
        return self._validated(value, event, started)

    def timed_out(self, event: str, started: float, limit: float | None) -> HandlerOutcome:
        """The outcome of a call that finished after its deadline: a timeout, result
        discarded. The loop was blocked meanwhile (else the timer would have stopped the
        call), which stalled every other task of the agent too, so the log says so."""
        return self._failed(event, "timeout", _blocked_past(limit), started)

    def _validated(
        self, value: Any, event: str, started: float
    ) -> HookResult | HandlerOutcome | None:
        if value is None:
            return value
        if isinstance(value, HookResult):
            problem = result_problem(value)
            if problem is None:
                return value
            return self._failed(event, "invalid_return", ValueError(problem), started)
        return self._coerce(event, value, started)

    def failed(self, event: str, exc: BaseException, started: float) -> HandlerOutcome:
        """The outcome of a handler that raised ``exc`` (logged)."""
        return self._failed(event, _kind(exc), exc, started)

    async def finish(
        self,
        pending: _Pending,
        event: str,
        started: float,
        cap: float | None = None,
    ) -> HandlerOutcome:
        """Drive a call that suspended to its end, under its timeout (``cap`` shortens it).

        Raises ``CancelledError`` if the emitting task was cancelled meanwhile, even if
        the handler swallowed that cancellation. "Cancelled meanwhile" means the task's
        ``cancelling()`` count rose and was not brought back down (as ``asyncio.timeout``
        and task groups inside the handler do). Caveat: on Python < 3.13 a task group
        whose child fails after the group's body has finished leaves that count raised (a
        CPython bug), so such a handler looks as if it swallowed a cancellation.
        """
        limit = self.deadline(cap)
        task = asyncio.current_task()
        before = task.cancelling() if task is not None else 0
        drive = _Drive(pending.coro, pending.yielded, limit, self.name, event)
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
                return self._failed(event, "timeout", _timed_out(limit), started)
            return self._failed(event, _kind(exc), exc, started)
        if task is not None and task.cancelling() > before:
            # The handler swallowed the cancellation of the emitting task; the caller's
            # cancellation must never be lost.
            raise asyncio.CancelledError()
        if drive.expired:  # it caught its timeout's cancellation and returned anyway
            return self._failed(event, "timeout", _timed_out(limit), started)
        if limit is not None and self.clock() - started > limit:
            # It blocked the loop in a later step, so the timer could not fire in time.
            return self.timed_out(event, started, limit)
        return self._accept(event, value, started)

    async def _throttled_call(self, event: str, data: dict[str, Any]) -> Any:
        assert self.throttler is not None
        async with self.throttler:
            value = self.handler(event, data)
        if isinstance(value, Awaitable):
            value = await value
        return value

    # -- results ---------------------------------------------------------------------

    def _coerce(self, event: str, value: Any, started: float) -> HookResult | HandlerOutcome:
        """A returned value that is not None or a HookResult: validated, or a failure."""
        try:
            return _to_result(value)
        except Exception as exc:  # not only ValidationError: a foreign model_dump may raise
            return self._failed(event, "invalid_return", exc, started)

    def _accept(self, event: str, value: Any, started: float) -> HandlerOutcome:
        if value is not None:
            value = self._validated(value, event, started)
            if isinstance(value, HandlerOutcome):
                return value
        return HandlerOutcome(
            self.name, self.priority, value, None, None, self.clock() - started, self.fail_closed
        )

    def _failed(
        self, event: str, kind: FailureKind, exc: BaseException, started: float
    ) -> HandlerOutcome:
        duration = self.clock() - started
        error = _describe(exc)
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
            self.name, self.priority, None, kind, error, duration, self.fail_closed
        )


def resolve_timeout(value: float | None) -> float | None:
    """Normalise a timeout setting: 0 or infinity mean "no timeout" (None)."""
    if value is None or value == 0 or value == math.inf:
        return None
    if not value > 0:
        raise ValueError(f"timeout must be a positive number of seconds, 0 or inf; got {value!r}")
    return float(value)


# -- helpers -----------------------------------------------------------------------------


class _Pending:
    """A call that did not finish synchronously: the coroutine and what it last yielded."""

    __slots__ = ("coro", "yielded")

    def __init__(self, coro: Any, yielded: Any) -> None:
        self.coro = coro
        self.yielded = yielded


class _Drive:
    """Continues a coroutine that was started by hand and has yielded once.

    ``yield from`` cannot do this: it would send ``None`` into the coroutine again before
    the future it is waiting on is done. This re-yields that future to the running task
    first, then forwards every send and throw, exactly as the task would have — plus a
    deadline (see the module docstring).
    """

    __slots__ = ("coro", "yielded", "timeout", "name", "event", "expired", "_waiting")

    def __init__(
        self, coro: Any, yielded: Any, timeout: float | None, name: str, event: str
    ) -> None:
        self.coro = coro
        self.yielded = yielded
        self.timeout = timeout
        self.name = name
        self.event = event
        self.expired = False
        self._waiting: Any = None

    def _expire(self) -> None:
        self.expired = True
        waiting = self._waiting
        if asyncio.isfuture(waiting):
            waiting.cancel()  # wakes the task with CancelledError, as Task.cancel would

    def __await__(self) -> Generator[Any, Any, Any]:
        coro, to_yield = self.coro, self.yielded
        timer = None
        if self.timeout is not None:
            timer = asyncio.get_running_loop().call_later(self.timeout, self._expire)
        told = False  # whether the handler has been told its time is up
        try:
            while True:
                self._waiting = to_yield
                error: BaseException | None = None
                sent = None
                try:
                    sent = yield to_yield
                except GeneratorExit:
                    coro.close()
                    raise
                except BaseException as exc:
                    error = exc
                self._waiting = None
                if self.expired and not told:
                    told = True
                    if error is None:  # it was not waiting on a future we could cancel
                        error = asyncio.CancelledError()
                try:
                    to_yield = coro.send(sent) if error is None else coro.throw(error)
                except StopIteration as stop:
                    return stop.value
                if told:
                    # Told to stop, it suspended again: stop waiting for it.
                    _abandon(_Drive(coro, to_yield, None, self.name, self.event))
                    raise _timed_out(self.timeout)
        finally:
            if timer is not None:
                timer.cancel()


_abandoned: set[asyncio.Task[None]] = set()
"""Abandoned handlers still running; held here because the loop keeps only weak references."""


def _abandon(drive: _Drive) -> None:
    task = asyncio.ensure_future(_run_abandoned(drive))
    _abandoned.add(task)
    task.add_done_callback(_abandoned.discard)


async def _run_abandoned(drive: _Drive) -> None:
    started = _perf()
    try:
        await drive
        ending = "returned"
    except KeyboardInterrupt:
        raise
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise  # this background task itself was cancelled: the loop is shutting down
        ending = "cancelled"  # it finished its cleanup and let the cancellation through
    except BaseException as exc:  # SystemExit too: escaping a task it would stop the loop
        ending = _describe(exc)
    logger.warning(
        "hook handler finished after its timeout; result ignored",
        hook_event=drive.event,
        handler=drive.name,
        ending=ending,
        late_by_ms=round((_perf() - started) * 1000, 3),
    )


async def _await(awaitable: Awaitable[Any]) -> Any:
    return await awaitable


def _kind(exc: BaseException) -> FailureKind:
    if isinstance(exc, asyncio.CancelledError):
        return "cancelled"
    if isinstance(exc, SystemExit):
        return "exit"
    return "raised"


def _timed_out(timeout: float | None) -> TimeoutError:
    return TimeoutError(f"no result within {timeout or 0:g}s")


def _blocked_past(timeout: float | None) -> TimeoutError:
    return TimeoutError(
        f"no result within {timeout or 0:g}s (the event loop was blocked past the deadline, "
        "so no timer could stop the handler; its late result was discarded)"
    )


def _to_result(value: Any) -> HookResult:
    if isinstance(value, dict):
        return HookResult.model_validate(value)
    dump = getattr(value, "model_dump", None)
    if callable(dump):  # a HookResult from another library (the reference's, 1.x or 2.x)
        values = dump()
        if not isinstance(values, Mapping):
            raise TypeError(f"{type(value).__name__}.model_dump() returned no mapping")
        return from_foreign(values)
    raise TypeError(f"handler returned {type(value).__name__}; expected HookResult or None")


def result_problem(result: HookResult) -> str | None:
    """Why ``result`` cannot be folded, or None. HookResult validates itself, but one made
    with ``model_construct`` (or mutated through ``object.__setattr__``) skipped that."""
    action = result.action
    if action not in _ACTIONS:
        return f"invalid HookResult: unknown action {action!r}"
    if action == "modify" and not isinstance(result.data, dict):
        return "invalid HookResult: action 'modify' needs data (a dict)"
    if action == "inject_context" and not (
        isinstance(result.context_injection, str) and result.context_injection
    ):
        return "invalid HookResult: action 'inject_context' needs context_injection text"
    if action == "ask_user" and not (
        isinstance(result.approval_timeout, int | float) and result.approval_timeout > 0
    ):
        return "invalid HookResult: approval_timeout must be a positive number"
    return None


def _describe(exc: BaseException) -> str:
    if isinstance(exc, ValidationError):
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'result'}: {err['msg']}"
            for err in exc.errors()
        )
        return f"invalid HookResult: {problems}"
    return describe_exception(exc)
