"""`amplifier-hooks mcp`: a bundle in front of any MCP server, for any MCP client (CONTRACT §13).

The proxy relays JSON-RPC messages between the client's transport and the real server's
(over stdio its own, `client_stdio` and `server_stdio`, on the ``mcp`` SDK's models; over
HTTP the SDK's: the ``amplifier-hooks[mcp]`` extra), and reads only what it judges
(`relay`, `intercepts`). Every ``tools/call`` is a ``tool:pre`` event the bundle judges
before anything is forwarded, and every result passes ``tool:post`` before the client
sees it (`judge`). `configs` rewrites MCP clients'
configs so that their servers run through it (``mcp wrap`` / ``mcp unwrap``), and needs no
SDK. See docs/mcp.md.
"""

from __future__ import annotations

from amplifier_hooks.transports.mcp.names import mcp_tool_name, server_name
from amplifier_hooks.transports.mcp.sdk import EXTRA_MISSING, McpUnavailable, require_sdk

__all__ = ["EXTRA_MISSING", "McpUnavailable", "mcp_tool_name", "require_sdk", "server_name"]
