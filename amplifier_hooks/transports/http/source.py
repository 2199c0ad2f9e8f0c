"""The sessions of a server, from a bundle file that may change while it runs.

A long-lived server must not keep guarding with a bundle the user has since edited. Each
call compares the bundle file's modification time and size with those it was loaded
from; on a change the bundle is loaded again and new calls go to new sessions, while the
old sessions finish their calls in flight and are then closed (their module state goes
with them: a changed bundle may have changed the modules). A bundle that no longer loads
is not replaced by the old one: every call gets the fail-closed answer, with the loader's
error, until the file is fixed.

Only the bundle file itself is watched; after changing a file it includes, touch it.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from typing import Any

from amplifier_hooks.engine.tasks import describe_exception
from amplifier_hooks.hosts import HostAdapter, HostAnswer, HostSessions
from amplifier_hooks.hosts.base import guess_guarding
from amplifier_hooks.logs import get_logger

__all__ = ["BundleSessions", "refuse_payload"]

logger = get_logger()

Stamp = tuple[int, int]  # (st_mtime_ns, st_size)


@dataclass
class _Generation:
    sessions: HostSessions | None
    stamp: Stamp | None
    error: str | None = None
    busy: int = field(default=0)


class BundleSessions:
    """`HostSessions` for the bundle at ``path``, reloaded when the file changes.

    ``session_options`` go to every `HostSessions` (``idle_timeout``, a coordinator's
    ``approval_provider``...). Construction loads the bundle and raises what the loader
    raises, so a server started with a broken bundle says so and does not start.
    """

    def __init__(self, path: str | os.PathLike[str], **session_options: Any) -> None:
        self.path = os.path.abspath(path)
        self._options = session_options
        stamp = self._stamp()
        self._current = _Generation(HostSessions(self.path, **session_options), stamp)
        self._lock = asyncio.Lock()
        self._closed = False

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
            new = _Generation(HostSessions(self.path, **self._options), stamp)
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

    async def answer(self, adapter: HostAdapter, payload: object) -> HostAnswer:
        """The answer to one call (never raises but for cancellation)."""
        if self._closed:
            return refuse_payload(adapter, payload, "the hook server is shutting down")
        generation = await self._generation()
        if generation.sessions is None:
            return refuse_payload(adapter, payload, generation.error or "the bundle does not load")
        generation.busy += 1
        try:
            return await generation.sessions.answer(adapter, payload)
        finally:
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


def refuse_payload(adapter: HostAdapter, payload: object, reason: str) -> HostAnswer:
    """The adapter's fail-closed answer to ``payload``, guarding as its event is."""
    try:
        call = adapter.parse(payload)
    except Exception:
        return adapter.refuse(None, reason, guess_guarding(adapter, payload))
    return adapter.refuse(call, reason, call.guarding)
