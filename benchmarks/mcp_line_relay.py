"""The floor under `bench_mcp_proxy`'s proxy: a relay of stdio lines that parses nothing.

``python -m benchmarks.mcp_line_relay SERVER...`` starts the server and copies each line
the client writes to the server's stdin and each line the server writes to the client,
on uvloop as the proxy runs (asyncio's streams, one read loop a direction). It costs the
process hop alone (two more pipes, their reads and writes, the wake-ups): what the proxy
costs beyond it is its own work (parsing, judging, serializing, its tasks).
"""

from __future__ import annotations

import asyncio
import os
import sys

LIMIT = 1 << 23
"""Bytes of one line: far over the benchmark's largest message."""


async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    while line := await reader.readline():
        writer.write(line)
        await writer.drain()
    writer.close()


async def relay(command: list[str]) -> int:
    loop = asyncio.get_running_loop()
    server = await asyncio.create_subprocess_exec(
        *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=LIMIT
    )
    assert server.stdin is not None and server.stdout is not None
    client = asyncio.StreamReader(limit=LIMIT)
    await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(client), os.fdopen(0, "rb", buffering=0)
    )
    transport, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, os.fdopen(1, "wb", buffering=0)
    )
    answers = asyncio.StreamWriter(transport, protocol, None, loop)
    await asyncio.gather(_pump(client, server.stdin), _pump(server.stdout, answers))
    return await server.wait()


def main(command: list[str]) -> int:
    try:
        import uvloop
    except ImportError:  # the proxy runs on asyncio's own loop then, and so does this
        return asyncio.run(relay(command))
    return uvloop.run(relay(command))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
