"""The sessions of a server, from a bundle file that may change while it runs.

A long-lived server must not keep guarding with a bundle the user has since edited. A
call compares the bundle file's modification time and size with those it was loaded from
(at most every `CHECK_EVERY` seconds: a stat per call is time every call pays); on a
change the bundle is loaded again and new calls go to new sessions, while the old
sessions finish their calls in flight and are then closed (their module state goes
with them: a changed bundle may have changed the modules). A bundle that no longer loads
is not replaced by the old one: every call gets the fail-closed answer, with the loader's
error, until the file is fixed.

Only the bundle file itself is watched; after changing a file it includes, touch it.
"""

from __future__ import annotations

import asyncio
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from amplifier_hooks.bundles import load_bundle
from amplifier_hooks.engine.reply import Reply
from amplifier_hooks.engine.tasks import describe_exception
from amplifier_hooks.hosts import HostAdapter, HostAnswer, HostSessions
from amplifier_hooks.hosts.base import refuse_payload
from amplifier_hooks.logs import get_logger

__all__ = ["BundleSessions"]

logger = get_logger()

Stamp = tuple[int, int]  # (st_mtime_ns, st_size)

PLAIN_HANDLER_THREADS = 32
"""Threads the sessions' plain handlers run in (`amplifier_hooks.engine.offload`)."""

CHECK_EVERY = 0.5
"""Most seconds between two looks at the bundle file: an edit is in force by the first
call this long after it."""


@dataclass
class _Generation:
    sessions: HostSessions | None
    stamp: Stamp | None
    error: str | None = None
    busy: int = field(default=0)


class BundleSessions:
    """`HostSessions` for the bundle at ``path``, reloaded when the file changes.

    ``check_every``: seconds between looks at the file (`CHECK_EVERY`; 0: every call).
    ``session_options`` go to every `HostSessions` (``idle_timeout``, a coordinator's
    ``approval_provider``...). Construction loads the bundle and raises what the loader
    raises, so a server started with a broken bundle says so and does not start.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        check_every: float = CHECK_EVERY,
        **session_options: Any,
    ) -> None:
        self.path = os.path.abspath(path)
        # One pool for every session's plain handlers: bounded, so handlers that never
        # return hold at most this many threads (later ones wait, and time out).
        self._threads = ThreadPoolExecutor(PLAIN_HANDLER_THREADS, "ah-plain-handler")
        self._options = {"plain_handlers": self._threads, **session_options}
        stamp = self._stamp()
        self._current = _Generation(HostSessions(load_bundle(self.path), **self._options), stamp)
        self._lock = asyncio.Lock()
        self._closed = False
        self._clock = time.monotonic
        self._check_every = check_every
        self._checked = self._clock()

    @property
    def sessions(self) -> HostSessions | None:
        """The sessions new calls go to (None while the bundle does not load)."""
        return self._current.sessions

    def _stamp(self) -> Stamp | None:
        try:
            info = os.stat(self.path)
        except OSError:
            return None
        return (info.st_mtime_ns, info.st_size)

    async def _generation(self) -> _Generation:
        now = self._clock()
        if now - self._checked < self._check_every:
            return self._current
        self._checked = now
        stamp = self._stamp()
        if stamp == self._current.stamp:
            return self._current
        async with self._lock:
            if stamp != self._current.stamp:
                await self._reload(stamp)
        return self._current

    async def _reload(self, stamp: Stamp | None) -> None:
        old = self._current
        try:
            # Read in a thread: a large bundle's files must not hold up the calls.
            bundle = await asyncio.to_thread(load_bundle, self.path)
            new = _Generation(HostSessions(bundle, **self._options), stamp)
        except Exception as exc:
            error = f"the bundle {self.path} changed and no longer loads: {describe_exception(exc)}"
            logger.error("bundle reload failed", bundle=self.path, error=describe_exception(exc))
            new = _Generation(None, stamp, error)
        else:
            logger.warning(
                "bundle changed on disk: reloaded; open sessions start over",
                bundle=self.path,
                closed_sessions=len(old.sessions) if old.sessions is not None else 0,
            )
        self._current = new
        if old.busy == 0:
            await self._close(old)

    async def answer(
        self, adapter: HostAdapter, payload: object, *, entrypoint: str | None = None
    ) -> HostAnswer:
        """The answer to one call (never raises but for cancellation); ``entrypoint``:
        see `HostSessions.answer`."""
        return await (await self.reply(adapter, payload, entrypoint=entrypoint)).finish()

    async def reply(
        self, adapter: HostAdapter, payload: object, *, entrypoint: str | None = None
    ) -> Reply[HostAnswer]:
        """The answer, with what is left once it is sent in the reply's background
        (`HostSessions.reply`: finish it once, whatever happens to the answer)."""
        if self._closed:
            return Reply(refuse_payload(adapter, payload, "the hook server is shutting down"))
        generation = await self._generation()
        if generation.sessions is None:
            reason = generation.error or "the bundle does not load"
            return Reply(refuse_payload(adapter, payload, reason))
        generation.busy += 1
        try:
            replied = await generation.sessions.reply(adapter, payload, entrypoint=entrypoint)
        except BaseException:
            await self._release(generation)
            raise
        return replied.then(lambda: self._release(generation))

    async def _release(self, generation: _Generation) -> None:
        generation.busy -= 1
        if generation is not self._current and generation.busy == 0:
            await self._close(generation)

    async def expire_idle(self) -> list[str]:
        """Close the sessions idle for their ``idle_timeout``; their ids."""
        sessions = self._current.sessions
        return [] if sessions is None else await sessions.expire_idle()

    async def _close(self, generation: _Generation) -> None:
        if generation.sessions is not None:
            await generation.sessions.aclose()
            generation.sessions = None

    async def aclose(self) -> None:
        """Close every session (their modules' cleanups run); later calls are refused."""
        self._closed = True
        await self._close(self._current)
        self._threads.shutdown(wait=False, cancel_futures=True)
