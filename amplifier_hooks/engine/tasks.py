"""Running untrusted awaitables (handlers, contributors) without letting them hurt the caller."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterable
from typing import Any, Literal, TypeVar

T = TypeVar("T")

Ending = Literal["ok", "raised", "timeout", "cancelled", "exit"]


def caller_cancelled() -> bool:
    """True if the current task has a cancellation request pending (someone cancelled us),
    as opposed to the code we called raising CancelledError on its own."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def guarded(work: Awaitable[Any]) -> tuple[Ending, Any]:
    """Await ``work`` and report how it ended instead of raising.

    Only KeyboardInterrupt and the caller's own cancellation propagate. SystemExit must be
    caught here: escaping a task it would stop the event loop, i.e. crash the agent.
    """
    try:
        return "ok", await work
    except KeyboardInterrupt:
        raise
    except asyncio.CancelledError as exc:
        if caller_cancelled():
            raise
        return "cancelled", exc
    except SystemExit as exc:
        return "exit", exc
    except BaseException as exc:
        return "raised", exc


async def run_guarded(work: Awaitable[Any], timeout: float | None) -> tuple[Ending, Any]:
    """`guarded`, bounded by ``timeout`` seconds (None: unbounded).

    The work runs in a task of its own and is waited on with ``asyncio.wait``: unlike
    ``wait_for``, that returns at the deadline even if the work swallows its cancellation
    and keeps running, so a misbehaving callee cannot hang the caller.
    """
    if timeout is None:
        return await guarded(work)
    task = asyncio.ensure_future(guarded(work))
    try:
        done, _ = await asyncio.wait((task,), timeout=timeout)
    except asyncio.CancelledError:
        task.cancel()
        raise
    if done:
        if task.cancelled():
            return "cancelled", asyncio.CancelledError()
        return task.result()
    task.cancel()
    return "timeout", TimeoutError(f"no result within {timeout:g}s")


async def gather_all(works: Iterable[Awaitable[T]]) -> list[T]:
    """Run ``works`` at once; their results in order. When one raises, or the caller is
    cancelled, the others are cancelled too: ``asyncio.gather`` alone leaves them running."""
    tasks = [asyncio.ensure_future(work) for work in works]
    try:
        return await asyncio.gather(*tasks)
    except BaseException:
        for task in tasks:
            task.cancel()
        raise


def describe_exception(exc: BaseException) -> str:
    """``"TypeName: message"`` (or just the type name) for logs and reasons.

    Safe on hostile exceptions: one whose ``__str__`` raises is still described, so
    reporting a failure can never become a failure of its own.
    """
    try:
        text = str(exc)
    except Exception:
        text = "<unprintable>"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
