"""Claude Code's `HostProfile` (observed on ``@anthropic-ai/claude-code`` 2.1.331)."""

from __future__ import annotations

from amplifier_hooks.hosts.dialect import CLAUDE_CODE_DIALECT
from amplifier_hooks.hosts.host_table import host_profile

__all__ = ["CLAUDE_CODE_PROFILE"]

CLAUDE_CODE_PROFILE = host_profile("claude-code", CLAUDE_CODE_DIALECT)
"""Claude Code: hooks in ``.claude/settings.json``, timeouts in seconds (its rows:
`amplifier_hooks.hosts.host_table`)."""
