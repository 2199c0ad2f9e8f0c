"""The MCP server `bench_mcp_proxy` calls: one tool answering with a text of the size
asked (lines of code, as a file read answers), on the SDK, over stdio (``python -m
benchmarks.mcp_echo_server``)."""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer

server = MCPServer("echo")

LINE = "    result = handlers.get(event, default)(data)  # route one event to its handler\n"
"""A line of source code: what a file-reading tool answers with, more or less."""


@server.tool()
def echo(size: int) -> str:
    """A text of ``size`` characters (lines of code)."""
    return (LINE * (size // len(LINE) + 1))[:size]


if __name__ == "__main__":
    server.run()
