"""The MCP server `bench_mcp_proxy` calls: one tool answering with a text of the size
asked (lines of code, as a file read answers), on the SDK, over stdio (``python -m
benchmarks.mcp_echo_server``)."""

from __future__ import annotations

import itertools

from mcp.server.mcpserver import MCPServer

server = MCPServer("echo")

LINE = "    result = handlers.get(event, default)(data)  # route one event to its handler\n"
"""A line of source code: what a file-reading tool answers with, more or less."""


CALLS = itertools.count()


@server.tool()
def echo(size: int) -> str:
    """A text of ``size`` characters (lines of code), a different one each call (its
    number first), as real results are: a memo of texts seen before must not count."""
    text = f"# call {next(CALLS)}\n" + LINE * (size // len(LINE) + 1)
    return text[:size]


if __name__ == "__main__":
    server.run()
