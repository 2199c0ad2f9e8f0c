"""The coordinator's cleanups: what modules and runtimes release when the session ends.

`CleanupsMixin` is mixed into `Coordinator`. Cleanups run newest first, like a stack of
context managers, so something set up on top of another is released before it; a failing
one never keeps the others from running.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from amplifier_hooks.approvals import ApprovalGate
from amplifier_hooks.engine.tasks import describe_exception
from amplifier_hooks.logs import get_logger

__all__ = ["Cleanup", "CleanupsMixin"]

logger = get_logger()

Cleanup = Callable[[], Any]
"""Releases something at the end of the session; may be async."""


class CleanupsMixin:
    """`register_cleanup` and `cleanup`, for `Coordinator`, which sets ``_cleanups`` to an
    empty list and ``approvals`` to its gate in its constructor."""

    _cleanups: list[Cleanup]
    approvals: ApprovalGate

    def register_cleanup(self, fn: Cleanup) -> None:
        """Run ``fn`` (sync or async) at `cleanup`, in reverse order of registration."""
        if not callable(fn):
            raise TypeError(f"cleanup must be callable, got {type(fn).__name__}")
        self._cleanups.append(fn)

    async def cleanup(self) -> None:
        """Run every cleanup, newest first. Each runs even if an earlier one failed;
        KeyboardInterrupt, SystemExit or a cancellation (of the caller, or raised by a
        cleanup) is re-raised after all have run: releasing resources comes first."""
        pending_interrupt: BaseException | None = None
        try:
            while self._cleanups:
                fn = self._cleanups.pop()
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
        finally:
            await self.approvals.aclose()
        if pending_interrupt is not None:
            raise pending_interrupt
