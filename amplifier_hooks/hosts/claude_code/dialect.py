"""Claude Code's dialect: the Claude-style protocol record (`amplifier_hooks.hosts.dialect`,
whose defaults are Claude Code's) with Claude Code's events."""

from __future__ import annotations

from amplifier_hooks.hosts.dialect import (
    CLAUDE_CODE_DIALECT,
    CLAUDE_CODE_EVENTS,
    STANDARD_EVENTS,
    TOOL_EVENTS,
    DenyStyle,
    Dialect,
    Names,
    namespaced,
)

__all__ = [
    "CLAUDE_CODE_DIALECT",
    "CLAUDE_CODE_EVENTS",
    "STANDARD_EVENTS",
    "TOOL_EVENTS",
    "DenyStyle",
    "Dialect",
    "Names",
    "namespaced",
]
