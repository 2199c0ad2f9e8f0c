"""Codex CLI as a host (``@openai/codex`` 0.169.0): Claude Code's protocol, with these
differences (agent-cli-hooks.md §7.1; docs/hosts.md).

- Fewer events (`CODEX_EVENTS`); an event it sends that we do not know is still
  accepted, under ``codex:<name>`` (``codex:permission_request``). Its inputs add
  ``turn_id`` and ``model``; ``transcript_path`` may be null: they pass through.
- Tools: the shell arrives as ``Bash`` (also for the model's ``exec_command``) -> bash;
  file edits as ``apply_patch`` with the patch in ``tool_input.command`` -> apply_patch,
  with the files it touches added (`amplifier_hooks.hosts.codex.patch`).
- Answers: the same JSON, but Codex takes no "ask", no bare allow, no rewrite without an
  allow and no deny without a reason: each is a failed hook, and a failed hook lets the
  call run. `CODEX_PROFILE.answers` says so; the adapter sends the closest safe answer.
- Every failure of a hook (exit 1, timeout, bad JSON, a missing program, an untrusted
  hook) lets the call run: ``amplifier-hooks codex install`` wraps the command so that
  our failures block, and records the hooks' trust (`amplifier_hooks.hosts.codex.trust`).
"""

from __future__ import annotations

from dataclasses import replace

from amplifier_hooks.hosts.claude_code import ClaudeStyleAdapter
from amplifier_hooks.hosts.codex.patch import patch_targets
from amplifier_hooks.hosts.dialect import CLAUDE_CODE_DIALECT, Names
from amplifier_hooks.hosts.host_table import host_profile
from amplifier_hooks.hosts.tools import ToolNames
from amplifier_hooks.tool_names import CODEX_NAMES

__all__ = ["CODEX", "CODEX_DIALECT", "CODEX_EVENTS", "CODEX_PROFILE", "CODEX_TOOLS"]

CODEX_EVENTS = Names(
    {
        "PreToolUse",
        "PermissionRequest",
        "PostToolUse",
        "PreCompact",
        "PostCompact",
        "SessionStart",
        "UserPromptSubmit",
        "Stop",
        "SubagentStart",
        "SubagentStop",
        "Interrupt",
        "SessionEnd",
    }
)
"""Codex's events (seen or listed by 0.169.0, agent-cli-hooks.md §7.1)."""

CODEX_TOOLS = ToolNames(
    CODEX_NAMES,
    derived={"apply_patch": patch_targets},
)
"""Claude Code's names, Codex's shell tools, and ``apply_patch`` with its paths."""

CODEX_DIALECT = replace(
    CLAUDE_CODE_DIALECT, name="codex", known_events=CODEX_EVENTS, tools=CODEX_TOOLS, can_ask=Names()
)
"""Codex's protocol: Claude Code's answers, no "ask" from a hook."""

CODEX_PROFILE = host_profile("codex", CODEX_DIALECT)
"""Every fact about Codex CLI."""

CODEX = ClaudeStyleAdapter(CODEX_PROFILE)
"""The Codex adapter."""
