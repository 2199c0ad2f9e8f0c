"""`Cleanups`: what modules and runtimes release when the session ends.

Cleanups run newest first, like a stack of context managers, so something set up on top
of another is released before it; a failing one never keeps the others from running. The
`Coordinator` owns one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from amplifier_hooks.engine.tasks import describe_exception
from amplifier_hooks.logs import get_logger

__all__ = ["Cleanup", "Cleanups"]

logger = get_logger()

Cleanup = Callable[[], Any]
"""Releases something at the end of the session; may be async."""


class Cleanups:
    """A stack of cleanups (`register`, then `run` once at the end)."""

    __slots__ = ("_stack",)

    def __init__(self) -> None:
        self._stack: list[Cleanup] = []

    def __len__(self) -> int:
        return len(self._stack)

    def register(self, fn: Cleanup) -> None:
        """Run ``fn`` (sync or async) at `run`, in reverse order of registration."""
        if not callable(fn):
            raise TypeError(f"cleanup must be callable, got {type(fn).__name__}")
        self._stack.append(fn)

    async def run(self) -> None:
        """Run every cleanup, newest first. Each runs even if an earlier one failed;
        KeyboardInterrupt, SystemExit or a cancellation (of the caller, or raised by a
        cleanup) is re-raised after all have run: releasing resources comes first."""
        pending_interrupt: BaseException | None = None
        while self._stack:
            fn = self._stack.pop()
            try:
                value = fn()
                if isinstance(value, Awaitable):
                    await value
            except (KeyboardInterrupt, SystemExit, asyncio.CancelledError) as exc:
                pending_interrupt = pending_interrupt or exc
            except Exception as exc:
                logger.error(
                    "cleanup failed",
                    cleanup=getattr(fn, "__qualname__", repr(fn)),
                    error=describe_exception(exc),
                    exc_info=exc,
                )
        if pending_interrupt is not None:
            raise pending_interrupt
