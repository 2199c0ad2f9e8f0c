"""Claude Code's `HostProfile` (observed on ``@anthropic-ai/claude-code`` 2.1.331)."""

from __future__ import annotations

from amplifier_hooks.hosts.claude_code.entrypoint import ATTENDED_ENTRYPOINTS
from amplifier_hooks.hosts.dialect import CLAUDE_CODE_DIALECT
from amplifier_hooks.hosts.host_table import host_profile
from amplifier_hooks.hosts.profile import (
    SettingsPlaces,
    Trust,
)

__all__ = ["CLAUDE_CODE_PROFILE"]

CLAUDE_CODE_PROFILE = host_profile(
    "claude-code",
    CLAUDE_CODE_DIALECT,
    settings=SettingsPlaces(
        user="~/.claude/settings.json",
        project=".claude/settings.json",
        home_variable=None,
    ),
    trust=Trust(
        mechanism="none",
        note="Claude Code runs every hook in its settings (a project's own settings once "
        "its folder is trusted at the first start)",
    ),
    wraps_command=False,
    failure_fix="every guarding hook is installed with onFailure: block, so Claude Code "
    "blocks the call on any failure of the hook (command and HTTP alike)",
    probe={
        "session_id": "amplifier-hooks-doctor",
        "hook_event_name": "PreToolUse",
        "permission_mode": "default",
        "tool_name": "Bash",
        "tool_input": {"command": "true", "description": "amplifier-hooks doctor probe"},
        "tool_use_id": "amplifier-hooks-doctor",
    },
    answer_words={
        "attended": ATTENDED_ENTRYPOINTS,
    },
)
"""Claude Code: hooks in ``.claude/settings.json``, timeouts in seconds."""
