"""The client's side of a stdio proxy: its pipes, with each message bounded in size.

The SDK's stdio transport reads a line of any length; a proxy must not hold whatever one
line its client writes. This one reads its lines with `lines.read_messages`, at most
`Limits.max_message` bytes of each, answers a longer request with a JSON-RPC error (its
id is read from the line's ends, where clients write it) and drops the rest of the line
unread. Like the SDK's, it moves
the wire off file descriptors 0 and 1 while it serves, so that nothing else in the
process (a module, a console prompt, a server's stray print) can read or write the
protocol: fd 0 reads the null device, fd 1 writes to stderr.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator

import mcp_types as types
from mcp.shared.message import SessionMessage

from amplifier_hooks.logs import get_logger
from amplifier_hooks.transports.mcp.limits import Limits
from amplifier_hooks.transports.mcp.lines import json_line, line_id, names_a_method, read_messages

logger = get_logger()

__all__ = ["OVERSIZED", "ClientWire", "client_stdio", "oversized_error"]

OVERSIZED = "message too large for amplifier-hooks mcp"
"""The error message of a request over the size bound (its data says the bound)."""


def _claim(fd: int, divert: int) -> int:
    """A private copy of ``fd`` for the wire; ``fd`` itself now points at ``divert``."""
    private = os.dup(fd)
    os.set_inheritable(private, False)
    os.dup2(divert, fd)
    return private


class ClientWire:
    """The client's pipes: `messages` read from its stdin, `send` written to its stdout.

    No task and no stream in between: each message is parsed where it is read and
    written where it is sent (one write of one line, so that messages of concurrent
    senders never interleave)."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, limits: Limits
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.limits = limits

    def messages(self) -> AsyncIterator[SessionMessage | Exception]:
        """Each message the client writes (an unreadable one as its error), until it
        closes its end; a line over the bound is answered here and never read."""
        return read_messages(self.reader, self._refuse_oversized)

    async def send(self, message: SessionMessage) -> None:
        """Write ``message`` as one line."""
        data = json_line(message.message)
        self.writer.write(data)
        await self.writer.drain()

    async def _refuse_oversized(self, ends: bytes) -> None:
        error = oversized_error(ends, self.limits)
        if error is not None:
            await self.send(SessionMessage(error))
        return None  # the client reads the error; nothing is relayed


@contextlib.asynccontextmanager
async def client_stdio(limits: Limits) -> AsyncIterator[ClientWire]:
    """The client's wire over this process's stdin and stdout (pipes, as a client
    starts its servers). Read and written by the event loop, never by a thread, so that a
    client that neither writes nor closes cannot keep the process from exiting."""
    loop = asyncio.get_running_loop()
    restore: list[tuple[int, int]] = []
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        wire_in = _claim(0, null)
        restore.append((0, wire_in))
        wire_out = _claim(1, 2)
        restore.append((1, wire_out))
    finally:
        os.close(null)
    reader = asyncio.StreamReader(limit=limits.max_message + 1)
    source = os.fdopen(wire_in, "rb", buffering=0)
    sink = os.fdopen(wire_out, "wb", buffering=0)
    read_transport, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), source
    )
    write_transport, protocol = await loop.connect_write_pipe(
        lambda: asyncio.streams.FlowControlMixin(), sink
    )
    writer = asyncio.StreamWriter(write_transport, protocol, None, loop)
    try:
        yield ClientWire(reader, writer, limits)
    finally:
        read_transport.close()
        write_transport.close()
        for fd, private in restore:
            with contextlib.suppress(OSError):
                os.dup2(private, fd)


def oversized_error(ends: bytes, limits: Limits) -> types.JSONRPCError | None:
    """The answer to a message over the bound, of which ``ends`` holds the first and the
    last bytes (a newline between); None for a notification or a response."""
    ident = line_id(ends)
    logger.warning("refused an oversized MCP message", limit_bytes=limits.max_message)
    if ident is None or not names_a_method(ends):
        return None  # a notification, or a response of the client's: nothing to answer
    return types.JSONRPCError(
        jsonrpc="2.0",
        id=ident,
        error=types.ErrorData(
            code=types.INVALID_REQUEST,
            message=OVERSIZED,
            data={"max_bytes": limits.max_message},
        ),
    )
