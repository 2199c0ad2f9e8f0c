"""The guard's one memo across a decision: a path resolved once per call.

One call's checks name the same path again and again (the rules, the grant, the losses,
a link made earlier in the command), and resolving it reads the file system. Between
`begin` and `end` (`policy.judge`, `judge_pieces`, `pieces_for`) each is resolved once;
outside them nothing is remembered, so a symlink made between two calls is always seen.
Inline code is read once there too (`codereaders.read_once`). Kept in a context
variable: each thread and task judges with its own.
"""

from __future__ import annotations

from contextvars import ContextVar, Token
from typing import Any

__all__ = ["begin", "end", "resolved"]

_RESOLVED: ContextVar[dict[Any, Any] | None] = ContextVar("guard_resolved", default=None)


def resolved() -> dict[Any, Any] | None:
    """This call's resolved paths (None: outside a call, nothing is remembered)."""
    return _RESOLVED.get()


def begin() -> Token[dict[Any, Any] | None] | None:
    """Start remembering for a call (None: one is already open; this joins it)."""
    return _RESOLVED.set({}) if _RESOLVED.get() is None else None


def end(token: Token[dict[Any, Any] | None] | None) -> None:
    """Forget what the call `begin` opened remembered."""
    if token is not None:
        _RESOLVED.reset(token)
