"""JSON-RPC messages read from a pipe, one a line, each bounded in size.

Both of the proxy's stdio sides (`client_stdio`, `server_stdio`) read the same way: a
line at most the reader's limit long is parsed into a message (an unreadable one is
yielded as its error); a longer line is never read whole, and what it becomes is the
side's to say (`Oversized`): the client's is answered with an error, the server's answer
is replaced by one. Its id is read from the line's ends, where writers put it.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Awaitable, Callable

import mcp_types as types
import pydantic_core
from mcp.shared.message import SessionMessage

__all__ = [
    "Oversized",
    "json_line",
    "line_id",
    "names_a_method",
    "parsed",
    "read_messages",
]

Oversized = Callable[[bytes], Awaitable[SessionMessage | None]]
"""What a line over the bound becomes, given its first and last bytes (a newline
between): a message to yield in its place, or None (nothing is)."""

_ENDS = 256
"""Bytes kept of each end of a line over the bound."""

_VALIDATE = types.jsonrpc_message_adapter.validate_python

_ID_AT_END = re.compile(rb'"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")\s*[,}]')


async def read_messages(
    reader: asyncio.StreamReader, oversized: Oversized
) -> AsyncIterator[SessionMessage | Exception]:
    """Each message of ``reader`` (an unreadable one as its error) until it ends; a line
    over the reader's limit is what ``oversized`` makes of it."""
    readuntil = reader.readuntil
    while True:
        try:
            line = await readuntil(b"\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError) as exc:
            async for line, whole in _rest(reader, exc):
                if whole:
                    yield parsed(line)
                else:
                    instead = await oversized(line)
                    if instead is not None:
                        yield instead
            if isinstance(exc, asyncio.IncompleteReadError):
                return
            continue
        if not line.isspace():  # its newline is JSON's whitespace: not copied off
            yield parsed(line)


def parsed(line: bytes) -> SessionMessage | Exception:
    """The message on ``line`` (one JSON value), or why it is none.

    Parsed into Python values first (`pydantic_core.from_json`), then validated as a
    message: the same checks as the adapter's ``validate_json``, for about 60% of its
    time on a 10 kB result, which ``validate_json`` reads into JSON values of its own
    before it makes Python ones (benchmarks/bench_mcp_proxy; NaN and duplicate keys are
    read as it reads them)."""
    try:
        return SessionMessage(_VALIDATE(pydantic_core.from_json(line), by_name=False))
    except Exception as exc:
        return exc


async def _rest(
    reader: asyncio.StreamReader, exc: asyncio.IncompleteReadError | asyncio.LimitOverrunError
) -> AsyncIterator[tuple[bytes, bool]]:
    """What a read that ended in ``exc`` leaves: the last line, which has no newline, and
    True; or the first and last bytes of a line over the limit (the rest is read and
    dropped) and False."""
    if isinstance(exc, asyncio.IncompleteReadError):
        if exc.partial.strip():
            yield exc.partial.rstrip(b"\r"), True
        return
    first = await reader.readexactly(exc.consumed)
    head, tail = first[:_ENDS], first[-_ENDS:]
    while True:  # drop the rest of the line, keeping its end
        try:
            tail = (tail + await reader.readuntil(b"\n"))[-_ENDS:]
            break
        except asyncio.LimitOverrunError as more:
            tail = (tail + await reader.readexactly(more.consumed))[-_ENDS:]
        except asyncio.IncompleteReadError as end:
            tail = (tail + end.partial)[-_ENDS:]
            break
    yield head + b"\n" + tail.rstrip(b"\r\n"), False


def json_line(message: types.JSONRPCMessage) -> bytes:
    """``message`` as one line of JSON, its newline included: serialized straight to
    bytes (no text made and encoded, no second copy to add the newline)."""
    data = message.__pydantic_serializer__.to_json(message, by_alias=True, exclude_unset=True)
    return data + b"\n"


def line_id(ends: bytes) -> int | str | None:
    """The id of a message over the bound, of which ``ends`` holds the first and the last
    bytes (a newline between), where a writer puts it; None when neither end holds one."""
    head, _, tail = ends.partition(b"\n")
    found = _ID_AT_END.search(tail) or _ID_AT_END.search(head)
    if found is None:
        return None
    raw = found.group(1)
    return int(raw) if raw[:1] != b'"' else raw[1:-1].decode("utf-8", "replace")


def names_a_method(ends: bytes) -> bool:
    """Whether a message over the bound (its ends, as for `line_id`) is a request or a
    notification, as far as its ends tell."""
    head, _, tail = ends.partition(b"\n")
    return b'"method"' in head + tail
