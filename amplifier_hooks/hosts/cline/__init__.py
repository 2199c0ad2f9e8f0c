"""Cline as a host (the ``cline`` CLI 3.0.65; agent-cli-hooks.md §8.2, docs/hosts.md).

- Hooks are files named after their event, run by their shebang, from
  ``~/.cline/hooks/``, ``<ws>/.cline/hooks/`` (and two more folders); every matching file
  runs, so ours sit beside the user's (`amplifier_hooks.hosts.cline.install`). Hooks run
  in the hub daemon's environment, not the CLI's: ours carry their bundle (and URL).
- Events: ``PreToolUse`` -> tool:pre, ``PostToolUse`` -> tool:post, ``TaskStart`` ->
  session:start, ``UserPromptSubmit`` -> prompt:submit, ``TaskComplete`` ->
  prompt:complete, ``SessionShutdown`` -> session:end; others ``cline:<name>``.
- Tools: ``run_commands`` -> bash (its ``commands`` also as one ``command``, a line
  each), ``editor`` -> edit_file (it writes anywhere, with no prompt), ``read_files`` ->
  read_file, ``fetch_web_content`` -> web_fetch, ``search_codebase`` -> grep.
- Answers (`amplifier_hooks.hosts.cline.answers`): a deny is an invalid ``overrideInput``
  with the reason as ``context``, never ``cancel`` (which aborts the whole task).
- Failures: every one fails open -- a non-zero exit, output that is not JSON, a program
  that cannot start, a hang (killed at 120 s, then the tool runs); so our hook is the
  fail-closed wrapper, answering a JSON deny well before 120 s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from amplifier_hooks import events
from amplifier_hooks.hosts.claude_code import ClaudeStyleAdapter
from amplifier_hooks.hosts.cline.answers import build_cline_answer, refuse_cline
from amplifier_hooks.hosts.cline.mapping import parse_cline_call
from amplifier_hooks.hosts.dialect import On, dialect
from amplifier_hooks.hosts.host_table import host_profile
from amplifier_hooks.hosts.tools import ToolNames
from amplifier_hooks.tool_names import CLINE_NAMES

__all__ = ["CLINE", "CLINE_DIALECT", "CLINE_EVENTS", "CLINE_PROFILE", "CLINE_TOOLS"]


def _commands(tool_input: Mapping[str, Any]) -> dict[str, Any]:
    """``run_commands``' commands as one script, a line each: what a rule on
    ``command`` reads (each line is judged, as each command runs)."""
    commands = tool_input.get("commands")
    if isinstance(commands, str):
        return {"command": commands}
    if isinstance(commands, list):
        return {"command": "\n".join(str(c) for c in commands)}
    return {"command": ""}


CLINE_TOOLS = ToolNames(
    CLINE_NAMES,
    path_fields=("path",),
    derived={"run_commands": _commands},
)

CLINE_EVENTS: Mapping[str, On] = {
    "TaskStart": On(events.SESSION_START, "context"),
    "TaskResume": On(),
    "TaskCancel": On(),
    "TaskComplete": On(events.PROMPT_COMPLETE),
    "TaskError": On(),
    "PreToolUse": On(events.TOOL_PRE, "tool guards modifies context", "permission"),
    "PostToolUse": On(events.TOOL_POST, "tool context"),
    "UserPromptSubmit": On(events.PROMPT_SUBMIT, "context"),
    "SessionShutdown": On(events.SESSION_END),
}
"""Cline's events (the names of its hook files), a row each (`On`)."""

CLINE_DIALECT = dialect("cline", CLINE_TOOLS, CLINE_EVENTS)

CLINE_PROFILE = host_profile("cline", CLINE_DIALECT)
"""Every fact about Cline (agent-cli-hooks.md §8.2)."""


CLINE = ClaudeStyleAdapter(CLINE_PROFILE, parse_cline_call, build_cline_answer, refuse_cline)
"""The Cline adapter."""
