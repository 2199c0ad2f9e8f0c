"""The real MCP server behind the proxy: started over stdio, or reached at a URL.

The proxy holds the server's transport streams (`server_stdio`, or the SDK's
`streamable_http_client`), not a session: the client's own messages go through them, so
the server negotiates with the client itself and every id is the client's. Over HTTP the
transport sends the headers a session would stamp on each message (the protocol version,
and on the 2026 protocol the method and the name), so the proxy stamps them (`Upstream.send`).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import AsyncIterable, AsyncIterator, Sequence
from typing import Any, NamedTuple, Protocol, TextIO

import anyio
import mcp_types as types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.inbound import (
    MCP_METHOD_HEADER,
    MCP_NAME_HEADER,
    MCP_PROTOCOL_VERSION_HEADER,
    NAME_BEARING_METHODS,
    encode_header_value,
)
from mcp.shared.message import ClientMessageMetadata, SessionMessage

from amplifier_hooks.transports.mcp.limits import DEFAULT_LIMITS, Limits
from amplifier_hooks.transports.mcp.server_stdio import server_stdio

__all__ = ["PROBE_SECONDS", "ServerWrite", "Upstream", "UpstreamTarget", "connect"]

PROBE_SECONDS = 30.0
"""How long a server at a URL has to answer the proxy's start-up ``initialize``."""


class UpstreamTarget(NamedTuple):
    """Where the real server is: a command (and arguments) to run, or a URL."""

    command: Sequence[str] = ()
    url: str | None = None
    cwd: str | None = None

    def describe(self) -> str:
        return self.url if self.url is not None else " ".join(self.command)


class ServerWrite(Protocol):
    """What the proxy needs of a transport's write stream (its own, so that the SDK's
    private stream protocols can change under it without breaking it silently)."""

    async def send(self, message: SessionMessage, /) -> None: ...


class Upstream:
    """A server's transport: what it sends (`read`), and `send` for what it is sent."""

    def __init__(
        self,
        read: AsyncIterable[SessionMessage | Exception],
        write: ServerWrite,
        http: bool,
        bounded: bool = False,
    ) -> None:
        self.read = read
        self.write = write
        self.http = http
        self.bounded = bounded
        """Whether each message read is at most `Limits.max_message` bytes long (the
        proxy's own stdio wire refuses longer lines), so that no result needs measuring."""
        self.version: str | None = None
        """The protocol version the server answered ``initialize`` with (HTTP only)."""

    async def send(self, message: types.JSONRPCMessage) -> None:
        """Send ``message`` to the server, with the headers HTTP needs."""
        await self.write.send(SessionMessage(message, self._stamp(message) if self.http else None))

    def answered(self, result: dict[str, Any]) -> None:
        """Note the server's ``initialize`` result (the version later requests declare)."""
        version = result.get("protocolVersion")
        if isinstance(version, str):
            self.version = version

    def _stamp(self, message: types.JSONRPCMessage) -> ClientMessageMetadata | None:
        params = getattr(message, "params", None) or {}
        meta = params.get("_meta")
        modern = meta.get(types.PROTOCOL_VERSION_META_KEY) if isinstance(meta, dict) else None
        if isinstance(modern, str) and isinstance(
            message, types.JSONRPCRequest | types.JSONRPCNotification
        ):
            headers = {MCP_PROTOCOL_VERSION_HEADER: modern, MCP_METHOD_HEADER: message.method}
            name = params.get(NAME_BEARING_METHODS.get(message.method, ""))
            if isinstance(name, str):
                headers[MCP_NAME_HEADER] = encode_header_value(name)
            return ClientMessageMetadata(headers=headers)
        if self.version is None:
            return None
        return ClientMessageMetadata(headers={MCP_PROTOCOL_VERSION_HEADER: self.version})


@contextlib.asynccontextmanager
async def connect(
    target: UpstreamTarget, errlog: TextIO = sys.stderr, limits: Limits = DEFAULT_LIMITS
) -> AsyncIterator[Upstream]:
    """Start or reach ``target`` and yield its transport; the server is stopped (its
    process group ended) when the block exits."""
    if target.url is not None:
        await _probe(target.url)
        async with streamable_http_client(target.url) as (read, write):
            yield Upstream(read, write, http=True)
        return
    # The server gets the proxy's whole environment: a client's config sets the server's
    # variables on the proxy's entry (`mcp wrap` leaves ``env`` there).
    if sys.platform != "win32":
        async with server_stdio(target.command, os.environ, target.cwd, errlog, limits) as wire:
            yield Upstream(wire.messages(), wire, http=False, bounded=True)
        return
    command, *args = target.command  # pragma: no cover (Windows: the SDK's process job)
    params = StdioServerParameters(
        command=command, args=list(args), env=dict(os.environ), cwd=target.cwd
    )
    async with stdio_client(params, errlog=errlog) as (read, write):
        yield Upstream(read, write, http=False)


async def _probe(url: str) -> None:
    """Raise unless the server at ``url`` answers ``initialize``: a server that cannot be
    reached is reported when the proxy starts (over stdio, starting it tells), not left
    to a client whose first request would go unanswered."""
    with anyio.fail_after(PROBE_SECONDS):
        async with (
            streamable_http_client(url) as (read, write),
            ClientSession(read, write) as probe,
        ):
            await probe.initialize()
