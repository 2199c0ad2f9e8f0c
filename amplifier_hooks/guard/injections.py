"""Text shaped like instructions to an AI agent, carried in a command (``echo 'ignore all
previous instructions ...'``, ``cat README.md # SYSTEM OVERRIDE: ...``).

A command the model writes seldom holds such words of its own: they come from a prompt
injection in a file, an issue or a web page it read, and the command is how the injection
reaches the machine. Whatever the command does, the person is asked before it runs
(`prompt-injection-text`).
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece

__all__ = ["INJECTED", "mark_injected"]

INJECTED = "@injected-text"
"""The mark of every piece of a command that carries such text."""

_INJECTION = re.compile(
    r"ignore\s+(?:all\s+|any\s+|the\s+|your\s+)?(?:previous|prior|above|earlier)\s+"
    r"(?:instructions|prompts?|rules|directions)"
    r"|disregard\s+(?:all\s+|any\s+|the\s+|your\s+)?(?:previous\s+|prior\s+|above\s+)?"
    r"(?:instructions|policy|policies|rules|guidelines)"
    r"|system\s+override|disable\s+(?:the\s+|all\s+|your\s+)?(?:safeguards|guardrails|safety)"
    r"|act\s+as\s+(?:root|an?\s+admin)|prompt[\s_-]?injection|\btool:\s*exec\b|\bexfiltrate\b"
    r"|\bjailbreak|developer\s+mode\s+enabled|you\s+are\s+now\s+in\s+\w+\s+mode",
    re.IGNORECASE,
)
"""The phrases of prompt injections the field's corpora collect (their usual spellings)."""


_WORDS = ("ignore", "disregard", "override", "disable", "act as", "inject", "tool:",
          "exfiltrat", "jailbreak", "developer mode", "you are now")  # fmt: skip
"""A word of every phrase of `_INJECTION`: looked for first, in the lowered text, since the
phrases' search costs about 17 µs on a command of 50 characters and these words about 1
(every shell command an agent runs is screened)."""


def mark_injected(text: str, pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` marked `INJECTED` where ``text`` (the whole command, its comments too)
    carries a prompt injection's phrase."""
    lowered = text.lower()
    for word in _WORDS:  # (a loop, not any(): every command passes here)
        if word in lowered:
            break
    else:
        return pieces
    if _INJECTION.search(text) is None:
        return pieces
    return tuple(p._replace(wrappers=(*p.wrappers, INJECTED)) for p in pieces)
