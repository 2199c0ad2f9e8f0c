"""Names: an MCP tool as our handlers see it, and the name a server goes by.

Claude Code calls a server's tool ``mcp__<server>__<tool>``; the proxy names tools the
same way, so that one rule written for Claude Code's MCP tools holds behind the proxy too.
"""

from __future__ import annotations

import os
import re

__all__ = ["default_server_name", "mcp_tool_name", "server_name"]

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


def server_name(name: str) -> str:
    """``name`` as a server name in tool names: letters, digits, ``_`` and ``-`` (other
    runs become ``_``), at most 64 characters; ``ValueError`` if nothing is left."""
    cleaned = _UNSAFE.sub("_", name).strip("_")[:64]
    if not cleaned:
        raise ValueError(f"not a usable MCP server name: {name!r}")
    return cleaned


def default_server_name(command: str) -> str:
    """The name of a server run as ``command``: the program's name without its extension."""
    return server_name(os.path.splitext(os.path.basename(command))[0] or command)


def mcp_tool_name(server: str, tool: str) -> str:
    """``mcp__<server>__<tool>``, Claude Code's name for ``server``'s tool ``tool``."""
    return f"mcp__{server}__{tool}"
