"""A small MCP server on the SDK, for the proxy's tests: what the filesystem server lacks.

Run as ``python sample_server.py PIDFILE``: it writes its pid there, then serves on stdio;
``python sample_server.py PIDFILE --http PORT`` serves Streamable HTTP on loopback instead.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from mcp.server.mcpserver import MCPServer

server = MCPServer("sample")
NOTES = Path(sys.argv[1]).with_name("notes.txt")


@server.resource(f"file://{NOTES}", name="notes", mime_type="text/plain")
def notes() -> str:
    return NOTES.read_text()


@server.prompt()
def review(path: str) -> str:
    """A prompt that asks for a review of ``path``."""
    return f"Review {path} for bugs."


@server.tool()
def large(size: int) -> str:
    """A text of ``size`` characters."""
    return "x" * size


@server.tool()
def crash() -> str:
    """The server exits at once, as a crashing server does."""
    os._exit(3)


if __name__ == "__main__":
    Path(sys.argv[1]).write_text(str(os.getpid()))
    if sys.argv[2:3] == ["--http"]:
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[3]))
    else:
        server.run()
