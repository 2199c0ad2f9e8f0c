"""Driving a handler call that suspended: on, under its deadline, or abandoned past it.

`calling` calls handlers with no timer (most finish without suspending). One that does
suspend is handed here: `Drive` continues it inside the emitting task, with a timer for
its deadline, and a handler that goes on suspending after being told its time is up is
left to finish in a background task (`abandon`) while the emit moves on. (Why calls are
stepped by hand at all, with the numbers: the `calling` module docstring.)

A handler that does suspend makes the run yield. The run is then *taken over*: it is
driven on by `Drive` with a timer for that handler's deadline, still inside the
emitting task and its context, so that inside a handler ``asyncio.current_task()``, context
variables, ``asyncio.timeout`` and task groups behave exactly as under a plain ``await``.
(Moving the rest of the call into another task broke all of those: a context-variable
token set before the first await could not be reset after it, and a handler's own
``asyncio.timeout`` cancelled the *emitting* task.) A taken-over run ends right after that
handler, and a fresh run goes on with the next one. When the timer fires, the future the
handler waits on is cancelled, as ``Task.cancel`` would do. A handler that suspends again
instead of finishing (it ignores cancellation, or cleans up slowly) is abandoned: it goes
on in a background task, and the emit moves on.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Generator
from typing import Any

from pydantic import ValidationError

from amplifier_hooks.engine.tasks import describe_exception
from amplifier_hooks.engine.trace import FailureKind
from amplifier_hooks.logs import get_logger

__all__ = ["Drive", "abandon", "blocked_past", "describe_failure", "failure_kind", "timed_out"]

logger = get_logger()

_perf = time.perf_counter


class Drive:
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
                    abandon(Drive(coro, to_yield, None, self.name, self.event))
                    raise timed_out(self.timeout)
        finally:
            if timer is not None:
                timer.cancel()


_abandoned: set[asyncio.Task[None]] = set()
"""Abandoned handlers still running; held here because the loop keeps only weak references."""


def abandon(drive: Drive) -> None:
    """Let ``drive`` finish in a background task; its ending is logged, its result ignored."""
    task = asyncio.ensure_future(_run_abandoned(drive))
    _abandoned.add(task)
    task.add_done_callback(_abandoned.discard)


async def _run_abandoned(drive: Drive) -> None:
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
        ending = describe_failure(exc)
    logger.warning(
        "hook handler finished after its timeout; result ignored",
        hook_event=drive.event,
        handler=drive.name,
        ending=ending,
        late_by_ms=round((_perf() - started) * 1000, 3),
    )


def timed_out(timeout: float | None) -> TimeoutError:
    """The error of a handler that gave no result within ``timeout`` seconds."""
    return TimeoutError(f"no result within {timeout or 0:g}s")


def describe_failure(exc: BaseException) -> str:
    """A one-line description of a handler's failure, for logs and the trace."""
    if isinstance(exc, ValidationError):
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'result'}: {err['msg']}"
            for err in exc.errors()
        )
        return f"invalid HookResult: {problems}"
    return describe_exception(exc)


def failure_kind(exc: BaseException) -> FailureKind:
    """How a handler's call that raised ``exc`` failed, as its trace entry says it."""
    if isinstance(exc, asyncio.CancelledError):
        return "cancelled"
    if isinstance(exc, SystemExit):
        return "exit"
    return "raised"


def blocked_past(timeout: float | None) -> TimeoutError:
    """The failure of a handler that finished after its deadline without ever suspending."""
    return TimeoutError(
        f"no result within {timeout or 0:g}s (the event loop was blocked past the deadline, "
        "so no timer could stop the handler; its late result was discarded)"
    )
