"""The real MCP server behind the proxy: started over stdio, or reached at a URL.

The proxy is this server's client (the SDK's `ClientSession`). Between the transport and
the session sits a relay that notices the server going away (its process exiting, its
pipe or HTTP stream closing), so that the proxy can say so and exit non-zero rather than
answer every later call with a timeout.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import AsyncIterator, Sequence
from typing import Any, NamedTuple, TextIO

import anyio
import mcp_types as types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.message import SessionMessage

__all__ = ["Upstream", "UpstreamTarget", "connect"]


class UpstreamTarget(NamedTuple):
    """Where the real server is: a command (and arguments) to run, or a URL."""

    command: Sequence[str] = ()
    url: str | None = None
    cwd: str | None = None

    def describe(self) -> str:
        return self.url if self.url is not None else " ".join(self.command)


class Upstream(NamedTuple):
    """A connected server: its session, its ``initialize`` answer, and an event set when
    its connection ends."""

    session: ClientSession
    info: types.InitializeResult
    gone: anyio.Event


@contextlib.asynccontextmanager
async def connect(target: UpstreamTarget, errlog: TextIO = sys.stderr) -> AsyncIterator[Upstream]:
    """Start or reach ``target``, initialize a session with it, and yield it; the server
    is stopped (its process group ended) when the block exits."""
    gone = anyio.Event()
    async with contextlib.AsyncExitStack() as stack:
        if target.url is not None:
            read, write = await stack.enter_async_context(streamable_http_client(target.url))
        else:
            command, *args = target.command
            # The server gets the proxy's whole environment: a client's config sets the
            # server's variables on the proxy's entry (`mcp wrap` leaves ``env`` there).
            params = StdioServerParameters(
                command=command, args=list(args), env=dict(os.environ), cwd=target.cwd
            )
            read, write = await stack.enter_async_context(stdio_client(params, errlog=errlog))
        relay_in, relay_out = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        group = await stack.enter_async_context(anyio.create_task_group())
        group.start_soon(_relay, read, relay_in, gone)
        session = await stack.enter_async_context(ClientSession(relay_out, write))
        info = await session.initialize()
        try:
            yield Upstream(session, info, gone)
        finally:
            group.cancel_scope.cancel()


async def _relay(
    source: Any, sink: anyio.abc.ObjectSendStream[SessionMessage | Exception], gone: anyio.Event
) -> None:
    """Pass the server's messages on; set ``gone`` when it stops sending."""
    try:
        async with sink:
            async for item in source:
                await sink.send(item)
    except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream):
        pass
    finally:
        gone.set()
