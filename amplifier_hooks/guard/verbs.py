"""The verbs that name what a command or tool does to a service, written once.

An MCP tool's name (``delete_track_release``, `mcpverbs`) and a service CLI's subcommand
(``nats stream delete``, ``rabbitmqctl delete_user``, `services`) say what they do with
the same words: a verb that destroys (`DESTROYS`) takes away what others use, a verb that
only looks (`LOOKS`) reads what its other words name.
"""

from __future__ import annotations

__all__ = ["DESTROYS", "LOOKS"]

DESTROYS = frozenset({"delete", "destroy", "drop", "purge", "remove", "wipe", "erase",
                      "truncate", "nuke", "terminate", "deprovision", "uninstall"})  # fmt: skip
"""Verbs that take something away for good, whoever calls them."""
LOOKS = frozenset({"get", "list", "read", "search", "find", "view", "show", "describe",
                   "fetch", "query", "check", "validate", "preview", "count", "lookup",
                   "inspect", "status", "diff", "explain", "estimate", "dry", "plan"})  # fmt: skip
"""Verbs that only look: the words after one name what it looks at."""
