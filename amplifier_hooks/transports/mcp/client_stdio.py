"""The client's side of a stdio proxy: its pipes, with each message bounded in size.

The SDK's stdio transport reads a line of any length; a proxy must not hold whatever one
line its client writes. This one reads at most `Limits.max_message` bytes of a line,
answers a longer request with a JSON-RPC error (its id is read from the line's ends,
where clients write it) and drops the rest of the line unread. Like the SDK's, it moves
the wire off file descriptors 0 and 1 while it serves, so that nothing else in the
process (a module, a console prompt, a server's stray print) can read or write the
protocol: fd 0 reads the null device, fd 1 writes to stderr.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections.abc import AsyncIterator

import mcp_types as types
from mcp.shared.message import SessionMessage

from amplifier_hooks.logs import get_logger
from amplifier_hooks.transports.mcp.limits import Limits

logger = get_logger()

__all__ = [
    "OVERSIZED",
    "ClientWire",
    "bounded_lines",
    "client_stdio",
    "line_id",
    "oversized_error",
]

OVERSIZED = "message too large for amplifier-hooks mcp"
"""The error message of a request over the size bound (its data says the bound)."""

_ID_AT_END = re.compile(rb'"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")\s*[,}]')


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

    async def messages(self) -> AsyncIterator[SessionMessage | Exception]:
        """Each message the client writes (an unreadable one as its error), until it
        closes its end; a line over the bound is answered here and never read."""
        async for line, whole in bounded_lines(self.reader):
            if not whole:
                await self._refuse_oversized(line)
                continue
            try:
                message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
            except Exception as exc:
                yield exc
                continue
            yield SessionMessage(message)

    async def send(self, message: SessionMessage) -> None:
        """Write ``message`` as one line."""
        data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
        self.writer.write(data.encode() + b"\n")
        await self.writer.drain()

    async def _refuse_oversized(self, ends: bytes) -> None:
        error = oversized_error(ends, self.limits)
        if error is not None:
            await self.send(SessionMessage(error))


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


async def bounded_lines(reader: asyncio.StreamReader) -> AsyncIterator[tuple[bytes, bool]]:
    """Each line of ``reader`` (without its newline) and True; for a line over the
    reader's limit, its first and last bytes (the rest is read and dropped) and False."""
    while True:
        try:
            line = await reader.readuntil(b"\n")
        except asyncio.IncompleteReadError as end:  # the last line has no newline
            if end.partial.strip():
                yield end.partial.rstrip(b"\r"), True
            return
        except asyncio.LimitOverrunError as over:
            first = await reader.readexactly(over.consumed)
            head, tail = first[:256], first[-256:]
            while True:  # drop the rest of the line, keeping its end
                try:
                    tail = (tail + await reader.readuntil(b"\n"))[-256:]
                    break
                except asyncio.LimitOverrunError as more:
                    tail = (tail + await reader.readexactly(more.consumed))[-256:]
                except asyncio.IncompleteReadError as end:
                    tail = (tail + end.partial)[-256:]
                    break
            yield head + b"\n" + tail.rstrip(b"\r\n"), False
            continue
        if line.strip():
            yield line.rstrip(b"\r\n"), True


def line_id(ends: bytes) -> int | str | None:
    """The id of a message over the bound, of which ``ends`` holds the first and the last
    bytes (a newline between), where a writer puts it; None when neither end holds one."""
    head, _, tail = ends.partition(b"\n")
    found = _ID_AT_END.search(tail) or _ID_AT_END.search(head)
    if found is None:
        return None
    raw = found.group(1)
    return int(raw) if raw[:1] != b'"' else raw[1:-1].decode("utf-8", "replace")


def oversized_error(ends: bytes, limits: Limits) -> types.JSONRPCError | None:
    """The answer to a message over the bound, of which ``ends`` holds the first and the
    last bytes (a newline between); None for a notification or a response."""
    head, _, tail = ends.partition(b"\n")
    ident = line_id(ends)
    logger.warning("refused an oversized MCP message", limit_bytes=limits.max_message)
    if ident is None or b'"method"' not in head + tail:
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
