"""The server's side of a stdio proxy: its process and its pipes, each message parsed where
it is read and written where it is sent.

The SDK's `stdio_client` moves each message through a task and a memory stream per
direction, which suits a session; a proxy relays every message, and there it cost two
task switches and several checkpoints a message, more than the relay itself. This is the
client's side (`client_stdio`) turned round: the relay reads the server's lines in its
own loop (`lines.read_messages`, as the client's are read) and writes to the server's
stdin from the task that sends. A line longer than `Limits.max_message` is not read: an
answer is replaced by a JSON-RPC error for its id (`SERVER_OVERSIZED`), anything else is
dropped and logged.

The server's life follows the SDK's policy: it runs in a process group of its own; at the
end its stdin is closed, it has `EXIT_SECONDS` to exit, then the group is sent SIGTERM
and, `EXIT_SECONDS` later, SIGKILL. POSIX only: elsewhere `upstream.connect` uses the
SDK's transport.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import TextIO

import anyio
import mcp_types as types
from mcp.shared.message import SessionMessage

from amplifier_hooks.logs import get_logger
from amplifier_hooks.transports.mcp.limits import Limits
from amplifier_hooks.transports.mcp.lines import json_line, line_id, names_a_method, read_messages

__all__ = ["EXIT_SECONDS", "SERVER_OVERSIZED", "ServerWire", "server_stdio"]

logger = get_logger()

EXIT_SECONDS = 2.0
"""How long a server has to exit once its stdin is closed, and again after SIGTERM."""

SERVER_OVERSIZED = "the MCP server's answer is larger than amplifier-hooks mcp takes"
"""The error message that replaces an answer over the size bound (its data says the
bound)."""

_POLL_SECONDS = 0.01


class ServerWire:
    """The server's pipes: `messages` read from its stdout, `send` written to its stdin."""

    def __init__(self, process: asyncio.subprocess.Process, limits: Limits) -> None:
        assert process.stdin is not None and process.stdout is not None
        self.process = process
        self.reader = process.stdout
        self.writer = process.stdin
        self.limits = limits

    def messages(self) -> AsyncIterator[SessionMessage | Exception]:
        """Each message the server writes (an unreadable one as its error), until it
        closes its stdout; an answer over the bound becomes an error for its id."""
        return read_messages(self.reader, self._oversized)

    async def send(self, message: SessionMessage) -> None:
        """Write ``message`` as one line; a server gone is a broken stream, as the
        SDK's transport says it."""
        data = json_line(message.message)
        try:
            self.writer.write(data)
            await self.writer.drain()
        except (OSError, RuntimeError) as exc:  # a closed pipe, or its transport closing
            raise anyio.BrokenResourceError(f"the MCP server's stdin is closed: {exc}") from exc

    async def _oversized(self, ends: bytes) -> SessionMessage | None:
        ident = line_id(ends)
        logger.warning(
            "refused an oversized message of the MCP server", limit_bytes=self.limits.max_message
        )
        if ident is None or names_a_method(ends):
            return None  # a request or notification of the server's: nobody waits here
        error = types.ErrorData(
            code=types.INTERNAL_ERROR,
            message=SERVER_OVERSIZED,
            data={"max_bytes": self.limits.max_message},
        )
        return SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=ident, error=error))


@contextlib.asynccontextmanager
async def server_stdio(
    command: Sequence[str],
    env: Mapping[str, str],
    cwd: str | None,
    errlog: TextIO,
    limits: Limits,
) -> AsyncIterator[ServerWire]:
    """Start the server ``command`` and yield its wire; stopped when the block exits."""
    program, *args = command
    process = await asyncio.create_subprocess_exec(
        program,
        *args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=errlog,
        env=dict(env),
        cwd=cwd,
        start_new_session=True,
        limit=limits.max_message + 1,
    )
    try:
        yield ServerWire(process, limits)
    finally:
        with anyio.CancelScope(shield=True):
            await _stop(process)


async def _stop(process: asyncio.subprocess.Process) -> None:
    """Close the server's stdin, give it `EXIT_SECONDS`, then end its process group."""
    assert process.stdin is not None
    with contextlib.suppress(OSError, RuntimeError):
        process.stdin.close()
    if not await _exited(process, EXIT_SECONDS):
        _signal_group(process.pid, signal.SIGTERM)
        if not await _exited(process, EXIT_SECONDS):
            _signal_group(process.pid, signal.SIGKILL)
            await _exited(process, EXIT_SECONDS)


async def _exited(process: asyncio.subprocess.Process, seconds: float) -> bool:
    """Whether the server exited within ``seconds`` (its return code polled: `wait`
    also waits for its pipes, which a child of the server's may hold open)."""
    with anyio.move_on_after(seconds):
        while process.returncode is None:  # noqa: ASYNC110 (no event says it alone)
            await anyio.sleep(_POLL_SECONDS)
    return process.returncode is not None


def _signal_group(pgid: int, signum: int) -> None:
    # The server leads its own group (start_new_session): its pid is the group's id.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)
