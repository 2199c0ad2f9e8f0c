"""Contribution channels: pull-based collection of data from many modules.

Hooks push on events; a channel inverts that. Modules register a *contributor* (a callback)
on a named channel and a consumer pulls from all of them when it needs the data, so neither
side knows the other. Contributors are called concurrently, each under its own timeout; a
failing or slow one is logged and skipped, and the results keep registration order. A
contributor that returns after its timeout is slow too, even if it got there by blocking the
event loop (so that no timer could stop it): its value is dropped.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Awaitable, Callable
from typing import Any

from amplifier_hooks.engine.options import at_least_one
from amplifier_hooks.engine.tables import Remover
from amplifier_hooks.engine.tasks import describe_exception, gather_all, run_guarded
from amplifier_hooks.logs import get_logger

__all__ = ["OBSERVABILITY_EVENTS", "ContributionChannels", "Contributor"]

logger = get_logger()

Contributor = Callable[[], Any]
"""A callback that takes no arguments and returns a value, an awaitable, or None."""

OBSERVABILITY_EVENTS = "observability.events"
"""Channel on which modules contribute the names of the custom events they emit."""


class _Registration:
    __slots__ = ("callback", "name", "seq", "timeout")

    def __init__(self, name: str, callback: Contributor, seq: int, timeout: float | None):
        self.name = name
        self.callback = callback
        self.seq = seq
        self.timeout = timeout


class ContributionChannels:
    """Named channels of contributors.

    ``default_timeout`` bounds each contributor (seconds; None for no bound);
    ``max_concurrency`` bounds how many of one collection run at once; ``clock`` is the
    monotonic clock a contributor's time is measured on (a test may pass its own).
    """

    def __init__(
        self,
        *,
        default_timeout: float | None = 1.0,
        max_concurrency: int = 10,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if default_timeout is not None and not default_timeout > 0:
            raise ValueError("default_timeout must be positive or None")
        self.default_timeout = default_timeout
        self.max_concurrency = at_least_one(max_concurrency, "max_concurrency")
        self._clock = clock
        self._channels: dict[str, tuple[_Registration, ...]] = {}
        self._seq = itertools.count()

    def register_contributor(
        self,
        channel: str,
        name: str,
        callback: Contributor,
        *,
        timeout: float | None = None,
    ) -> Callable[[], None]:
        """Add ``callback`` to ``channel`` under ``name``; returns an idempotent unregister."""
        if not isinstance(channel, str) or not channel.strip() or channel != channel.strip():
            raise ValueError(f"channel must be a non-empty name without outer spaces: {channel!r}")
        if not isinstance(name, str) or not name:
            raise ValueError(f"contributor name must be a non-empty string: {name!r}")
        if not callable(callback):
            raise TypeError(f"contributor {name!r} must be callable, got {type(callback).__name__}")
        if timeout is not None and not timeout > 0:
            raise ValueError(f"contributor timeout must be positive, got {timeout!r}")
        registration = _Registration(name, callback, next(self._seq), timeout)
        # Copy-on-write tuples: a collection in progress keeps the set it started with.
        self._channels[channel] = (*self._channels.get(channel, ()), registration)

        return Remover(self._channels, channel, registration)

    def contributors(self, channel: str | None = None) -> dict[str, list[str]]:
        """Contributor names per channel, in registration order."""
        names = [channel] if channel is not None else sorted(self._channels)
        return {c: [r.name for r in self._channels.get(c, ())] for c in names}

    def callbacks(self) -> dict[str, list[tuple[str, Contributor]]]:
        """Every channel's contributors as ``(name, callback)``, in registration order."""
        return {c: [(r.name, r.callback) for r in regs] for c, regs in self._channels.items()}

    async def collect_contributions(self, channel: str) -> list[Any]:
        """Call every contributor of ``channel`` and return their non-None results in
        registration order. Failures and timeouts are logged and contribute nothing; the
        caller's cancellation propagates."""
        registrations = self._channels.get(channel, ())
        if not registrations:
            return []
        semaphore = asyncio.Semaphore(self.max_concurrency)

        async def one(registration: _Registration) -> tuple[bool, Any]:
            async with semaphore:
                return await self._call(channel, registration)

        results = await gather_all(one(r) for r in registrations)
        return [value for ok, value in results if ok and value is not None]

    async def _call(self, channel: str, registration: _Registration) -> tuple[bool, Any]:
        clock = self._clock
        started = finished = clock()
        timeout = registration.timeout or self.default_timeout

        async def invoke() -> Any:
            nonlocal started, finished
            # Timed from inside the work: contributors run concurrently, and one that
            # blocked the loop must not make another that had already finished look late.
            started = clock()
            value = registration.callback()
            if isinstance(value, Awaitable):
                value = await value
            finished = clock()
            return value

        kind, value = await run_guarded(invoke(), timeout)
        if kind == "ok":
            if timeout is None or finished - started <= timeout:
                return True, value
            # Done, but late: the loop was blocked, so the timer could not stop it in time.
            kind, value = (
                "timeout",
                TimeoutError(
                    f"no result within {timeout:g}s (the event loop was blocked past the "
                    "deadline, so no timer could stop the contributor; its value was dropped)"
                ),
            )
        logger.warning(
            "contributor failed; skipped",
            channel=channel,
            contributor=registration.name,
            failure=kind,
            error=describe_exception(value),
            duration_ms=round((clock() - started) * 1000, 3),
            exc_info=value if kind == "raised" else None,
        )
        return False, None
