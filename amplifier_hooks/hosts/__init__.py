"""Agent CLIs as hosts: their hook protocols <-> our events (CONTRACT §11).

An adapter translates (`HostAdapter`: payload -> `HostCall`, `Outcome` -> `HostAnswer`)
from its `HostProfile`, the one record of every fact about its host; `HOSTS` lists them
once. `HostSessions` keeps one coordinator per host session and never lets a failure
allow a guarded call. See docs/hosts.md and docs/claude-code.md.
"""

from __future__ import annotations

from amplifier_hooks.hosts.base import (
    OUTPUT_LIMIT,
    HostAdapter,
    HostAnswer,
    HostCall,
    HostInputError,
    cap_text,
    guess_guarding,
)
from amplifier_hooks.hosts.claude_code import CLAUDE_CODE, ClaudeStyleAdapter, Dialect
from amplifier_hooks.hosts.cline import CLINE
from amplifier_hooks.hosts.codex import CODEX
from amplifier_hooks.hosts.copilot import COPILOT
from amplifier_hooks.hosts.gemini import GEMINI
from amplifier_hooks.hosts.openclaw import OPENCLAW
from amplifier_hooks.hosts.opencode import OPENCODE
from amplifier_hooks.hosts.profile import HostProfile
from amplifier_hooks.hosts.registry import HOSTS, host_commands, host_named
from amplifier_hooks.hosts.sessions import (
    DEFAULT_IDLE_TIMEOUT,
    HostSessions,
    answer_in_process,
)

__all__ = [
    "CLAUDE_CODE",
    "CLINE",
    "CODEX",
    "COPILOT",
    "DEFAULT_IDLE_TIMEOUT",
    "GEMINI",
    "HOSTS",
    "OPENCLAW",
    "OPENCODE",
    "OUTPUT_LIMIT",
    "ClaudeStyleAdapter",
    "Dialect",
    "HostAdapter",
    "HostAnswer",
    "HostCall",
    "HostInputError",
    "HostProfile",
    "HostSessions",
    "answer_in_process",
    "cap_text",
    "guess_guarding",
    "host_commands",
    "host_named",
]
