"""Plain handlers off the event loop, where a server asks for it.

A plain (non-async) handler is called on the event loop: nothing can interrupt it, so one
that blocks (``time.sleep``, a slow read, a subprocess) holds up every other task of the
process for as long as it runs. In an agent's own process that is only its own session;
in the hook server it is every session's calls. A registry given an executor
(``HookRegistry(plain_handlers=...)``; the hook server gives one to every session) calls
each plain handler there instead. The loop goes on meanwhile, and the handler's timeout
works as an async handler's does: at its deadline the call is given up on (a timeout,
its result discarded) while the thread finishes on its own.

A thread hop costs 0.1 to 0.3 ms, more than a quick handler itself; a handler known never
to block (the shipped modules' guards, log writer and scrubbers: bounded work on the
input they are given) is marked `inline` and keeps being called on the loop. A handler
run in a thread has no running event loop: one that needs it is an ``async def``.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

__all__ = ["INLINE_ATTR", "inline", "is_plain", "off_loop"]

F = TypeVar("F", bound=Callable[..., Any])

INLINE_ATTR = "__amplifier_hooks_inline__"
"""Set on a plain handler that is called on the event loop even where plain handlers run
in threads (see `inline`)."""


def inline(handler: F) -> F:
    """Mark a plain handler as one that never blocks: it stays on the event loop where
    other plain handlers go to a thread (the hop would cost more than the handler)."""
    setattr(getattr(handler, "__func__", handler), INLINE_ATTR, True)
    return handler


def is_plain(handler: object) -> bool:
    """True if calling ``handler`` runs its work at once (not an ``async def``, nor an
    object whose ``__call__`` is one), and it is not marked `inline`."""
    if getattr(handler, INLINE_ATTR, False) or inspect.iscoroutinefunction(handler):
        return False
    if inspect.isfunction(handler) or inspect.ismethod(handler):
        return True
    target = type(handler).__call__  # a callable object
    return not (getattr(target, INLINE_ATTR, False) or inspect.iscoroutinefunction(target))


def off_loop(handler: Callable[..., Any], executor: Executor) -> Callable[..., Any]:
    """``handler`` called in ``executor`` (with the caller's context variables); an
    awaitable it returns is awaited on the loop."""

    async def in_thread(event: str, data: dict[str, Any]) -> Any:
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()
        value = await loop.run_in_executor(executor, context.run, handler, event, data)
        if inspect.isawaitable(value):
            value = await value
        return value

    in_thread.__name__ = getattr(handler, "__name__", type(handler).__name__)
    in_thread.__qualname__ = getattr(handler, "__qualname__", in_thread.__name__)
    return in_thread
