"""Codex CLI as a host: Claude Code's protocol, with these differences.

- Fewer events (`CODEX_EVENTS`: no PostToolUseFailure, Notification, ...); an event it
  sends that we do not know is still accepted, under ``codex:<name>``.
- Its inputs add ``turn_id`` (turn-scoped events) and ``model``; ``transcript_path`` may
  be null. All of them pass through to the event data unchanged.
- Other events keep the ``codex:`` prefix (``codex:permission_request``).
- The answers are the same JSON (``hookSpecificOutput.permissionDecision``,
  ``updatedInput``, ``additionalContext``, ``decision: "block"``).
"""

from __future__ import annotations

from amplifier_hooks.hosts.claude_code import CODEX_DIALECT, ClaudeStyleAdapter

__all__ = ["CODEX"]

CODEX = ClaudeStyleAdapter(CODEX_DIALECT)
"""The Codex adapter."""
