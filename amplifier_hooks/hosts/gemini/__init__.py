"""Gemini CLI as a host: its own event and tool names, the same kind of answers.

What differs from Claude Code (agent-cli-hooks.md §2, §7.2; docs/hosts.md):
- Events: ``BeforeTool`` -> tool:pre, ``AfterTool`` -> tool:post, ``BeforeAgent`` ->
  prompt:submit, ``AfterAgent`` -> prompt:complete, ``SessionStart``/``SessionEnd`` as
  they are; others become ``gemini-cli:<name>`` (``gemini-cli:before_model``).
- ``PreCompress`` is ``context:compaction`` only with ``trigger: "manual"`` (``/compress``,
  which compresses whenever there is history). Gemini CLI 0.61 sends ``trigger: "auto"``
  before every model call and only afterwards compares the token count (not in the hook
  input) with its threshold, so an automatic one says nothing about a compaction: it is
  ``gemini-cli:pre_compress``.
- Tools: ``run_shell_command`` -> bash, ``replace`` -> edit_file, ``grep_search`` ->
  grep, ``google_web_search`` -> web_search (`GEMINI_TOOLS`); MCP tools
  (``mcp_<server>_<tool>``) keep their names.
- A deny is ``decision: "deny"`` + ``reason`` (BeforeTool, AfterTool, BeforeAgent,
  AfterAgent); an approval ``decision: "allow"``; a changed input is
  ``hookSpecificOutput.tool_input``, merged over the model's arguments (so a removed
  field cannot be said: that is a deny); context is ``additionalContext`` on AfterTool,
  BeforeAgent and SessionStart.
- Gemini CLI 0.61 takes ``decision: "ask"`` on BeforeTool (its confirmation prompt),
  but tells its hooks nothing of whether a person is there, and under ``gemini -p`` an
  ask ends the turn: the tool does not run and neither the model nor the user is told
  why. So we never send one: approval provider ``host`` denies there, saying so, and
  ``auto`` queues or denies (`AnswerRules.no_ask`).
- Its configured timeouts are milliseconds (its inputs also carry ``timestamp``).
"""

from __future__ import annotations

from collections.abc import Mapping

from amplifier_hooks import events
from amplifier_hooks.hosts.claude_code import ClaudeStyleAdapter
from amplifier_hooks.hosts.dialect import On, dialect
from amplifier_hooks.hosts.host_table import host_profile
from amplifier_hooks.hosts.tools import GEMINI_TOOLS

__all__ = ["GEMINI", "GEMINI_DIALECT", "GEMINI_EVENTS", "GEMINI_PROFILE"]

GEMINI_EVENTS: Mapping[str, On] = {
    "BeforeTool": On(events.TOOL_PRE, "tool guards modifies", "decision"),
    "AfterTool": On(events.TOOL_POST, "tool context", "decision"),
    "BeforeAgent": On(events.PROMPT_SUBMIT, "guards context", "decision"),
    "AfterAgent": On(events.PROMPT_COMPLETE, "keeps-working", "decision"),
    "BeforeModel": On(),
    "AfterModel": On(),
    "BeforeToolSelection": On(),
    "SessionStart": On(events.SESSION_START, "context"),
    "SessionEnd": On(events.SESSION_END),
    "PreCompress": On(events.CONTEXT_COMPACTION, only_when=("trigger", "manual")),
    "Notification": On(),
}
"""Gemini CLI's events, a row each (`On`)."""

GEMINI_DIALECT = dialect("gemini-cli", GEMINI_TOOLS, GEMINI_EVENTS, input_style="merge")

GEMINI_PROFILE = host_profile("gemini-cli", GEMINI_DIALECT)
"""Every fact about Gemini CLI (agent-cli-hooks.md §7.2)."""

GEMINI = ClaudeStyleAdapter(GEMINI_PROFILE)
"""The Gemini CLI adapter."""
