"""Bounds on what the proxy takes from a client: a message's size and a value's depth.

A proxy reads whatever its client writes; without bounds one line could hold the process's
memory, or a nested value its stack (a handler walks arguments recursively). Both are
checked before anything is judged, so that an oversized call is refused, never forwarded.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["DEFAULT_LIMITS", "Limits", "too_deep"]


class Limits(NamedTuple):
    """The proxy's bounds (``amplifier-hooks mcp --max-message``, ``--max-depth``)."""

    max_message: int = 4 * 1024 * 1024
    """Bytes of one JSON-RPC message from the client, and of one result from the server."""
    max_depth: int = 64
    """Levels of nesting in a tool's arguments."""


DEFAULT_LIMITS = Limits()


def too_deep(value: object, limit: int) -> bool:
    """Whether ``value`` (JSON data) nests more than ``limit`` levels of lists and objects.

    Iterative, so that checking a value never meets the recursion limit it guards."""
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: list[object] = list(item.values())
        elif isinstance(item, list):
            children = list(item)
        else:
            continue
        if depth >= limit and children:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False
