"""Agent CLIs as hosts: their hook protocols <-> our events (CONTRACT §11).

An adapter translates (`HostAdapter`: payload -> `HostCall`, `Outcome` -> `HostAnswer`);
`HostSessions` keeps one coordinator per host session and never lets a failure allow a
guarded call. Adapters: `CLAUDE_CODE`, `CODEX`, `GEMINI`. See docs/claude-code.md.
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
from amplifier_hooks.hosts.codex import CODEX
from amplifier_hooks.hosts.gemini import GEMINI
from amplifier_hooks.hosts.sessions import (
    DEFAULT_IDLE_TIMEOUT,
    HostSessions,
    answer_in_process,
)

__all__ = [
    "CLAUDE_CODE",
    "CODEX",
    "DEFAULT_IDLE_TIMEOUT",
    "GEMINI",
    "OUTPUT_LIMIT",
    "ClaudeStyleAdapter",
    "Dialect",
    "HostAdapter",
    "HostAnswer",
    "HostCall",
    "HostInputError",
    "HostSessions",
    "answer_in_process",
    "cap_text",
    "guess_guarding",
]
