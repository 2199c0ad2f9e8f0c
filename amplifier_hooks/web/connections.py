"""The connections of one server, capped and timed before any request is read.

aiohttp closes a kept-alive connection after a while, but not one that never finishes a
request's headers, and it accepts connections until the process runs out of files --
after which a legitimate call cannot connect either. The guard wraps each connection's
protocol: it closes a connection that has not sent a complete request in time, and at the
cap it closes the oldest idle connection to make room for the new one.
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from amplifier_hooks.web.limits import Limits, Trouble

__all__ = ["ConnectionGuard", "raise_open_files_limit"]

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

_RESERVED_FILES = 64 + 128
"""Open files kept for everything but client connections: the bundle's files, logs, a
store, the process's own (64), and the connections the event loop accepts in one go
before any is seen here (a site's listen backlog, 128 in aiohttp)."""


def raise_open_files_limit() -> int:
    """Raise this process's soft open-files limit to its hard one; the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = 65536 if hard == resource.RLIM_INFINITY else hard
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    return soft


class _Guarded(asyncio.Protocol):
    """One connection: the aiohttp protocol inside, with the time it began waiting for a
    request and whether a request is in progress."""

    def __init__(self, guard: ConnectionGuard, inner: asyncio.Protocol) -> None:
        self.guard = guard
        self.inner = inner
        self.transport: asyncio.BaseTransport | None = None
        self.waiting_since = 0.0
        self.busy = 0
        self.admitted = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.waiting_since = self.guard.clock()
        if not self.guard.admit(self):
            transport.close()
            return
        self.admitted = True
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.admitted:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.admitted else None

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.forget(self)
        if self.admitted:
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


class ConnectionGuard:
    """Caps and times the connections of one server (see the module)."""

    def __init__(self, limits: Limits, trouble: Trouble) -> None:
        self.limits = limits
        self.trouble = trouble
        self.clock = asyncio.get_running_loop().time
        files = raise_open_files_limit()
        self.cap = max(1, min(limits.max_connections, files - _RESERVED_FILES))
        self._open: dict[_Guarded, None] = {}  # oldest first
        self._by_transport: dict[asyncio.BaseTransport, _Guarded] = {}
        self._sweeper: asyncio.Task[None] | None = None

    def __len__(self) -> int:
        return len(self._open)

    def factory(self, inner: Callable[[], Any]) -> Callable[[], asyncio.Protocol]:
        """A protocol factory for `loop.create_server` around aiohttp's."""
        return lambda: _Guarded(self, inner())

    def admit(self, connection: _Guarded) -> bool:
        if len(self._open) >= self.cap:
            oldest = next((c for c in self._open if not c.busy), None)
            if oldest is None:
                self.trouble.note("connection refused: every connection has a call in progress")
                return False
            self.trouble.note("oldest idle connection closed: at the cap", cap=self.cap)
            self._drop(oldest)
        self._open[connection] = None
        if connection.transport is not None:
            self._by_transport[connection.transport] = connection
        return True

    def forget(self, connection: _Guarded) -> None:
        self._drop(connection, close=False)

    def _drop(self, connection: _Guarded, close: bool = True) -> None:
        self._open.pop(connection, None)
        if connection.transport is not None:
            self._by_transport.pop(connection.transport, None)
        if close:
            connection.close()

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Marks the connection busy while its request is handled (first middleware)."""
        transport = request.transport
        connection = self._by_transport.get(transport) if transport is not None else None
        if connection is None:
            return await handler(request)
        connection.busy += 1
        try:
            return await handler(request)
        finally:
            connection.busy -= 1
            connection.waiting_since = self.clock()

    def sweep(self) -> int:
        """Close the connections idle past ``header_timeout``; how many."""
        deadline = self.clock() - self.limits.header_timeout
        late = [c for c in self._open if not c.busy and c.waiting_since < deadline]
        for connection in late:
            self._drop(connection)
        if late:
            self.trouble.note(
                "connections closed: no complete request in time",
                connections=len(late),
                header_timeout=self.limits.header_timeout,
            )
        return len(late)

    def start(self) -> None:
        """Sweep now and then until `stop`."""

        async def sweeping() -> None:
            every = min(1.0, self.limits.header_timeout / 2)
            while True:
                await asyncio.sleep(every)
                self.sweep()

        self._sweeper = asyncio.ensure_future(sweeping())

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
