"""Exit codes the command's parts share (the full list is in `amplifier_hooks.cli`)."""

from __future__ import annotations

__all__ = ["INTERRUPTED"]

INTERRUPTED = 130
"""A command stopped with Ctrl+C (a replay, the approver's console, any command), as for
any interrupted command: 128 + SIGINT."""
