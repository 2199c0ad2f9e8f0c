"""GitHub Copilot CLI as a host (``@github/copilot`` 1.0.102; agent-cli-hooks.md §7.3,
docs/hosts.md).

- Hooks live in ``<repo>/.github/hooks/*.json`` (``{"version": 1, "hooks": {event: [{"type":
  "command", "bash": CMD, "timeoutSec": N}]}}``) and run only in a trusted folder
  (``--trust-folder`` for one ``-p`` session; skipped silently otherwise).
- Events are camelCase and the input names none, so each installed command names its
  own (``amplifier-hooks copilot hook --event preToolUse``; see
  `amplifier_hooks.hosts.copilot.mapping`).
  ``sessionStart`` -> session:start, ``userPromptSubmitted`` -> prompt:submit,
  ``preToolUse`` -> tool:pre, ``postToolUse`` -> tool:post, ``agentStop`` ->
  prompt:complete, ``sessionEnd`` -> session:end; others ``copilot:<name>``
  (``copilot:permission_request``).
- Tools: ``bash`` -> bash, ``view`` -> read_file, ``create`` -> write_file, ``edit`` ->
  edit_file, ``rg``/``grep`` -> grep, ``glob``, ``web_fetch``; ``apply_patch`` (the same
  patch format as Codex) carries the paths it touches.
- Answers are top-level fields (`amplifier_hooks.hosts.copilot.answers`).
- Failures (preToolUse): exit 1, exit 2 and a missing program deny (the model reads "hook
  errored" or "hook exited with code 2", not our reason); a timeout and output that is not
  JSON let the tool run. On userPromptSubmitted exit 2 lets the prompt through.
"""

from __future__ import annotations

from collections.abc import Mapping

from amplifier_hooks import events
from amplifier_hooks.hosts.claude_code import ClaudeStyleAdapter
from amplifier_hooks.hosts.codex.patch import patch_targets
from amplifier_hooks.hosts.copilot.answers import build_copilot_answer, refuse_copilot
from amplifier_hooks.hosts.copilot.mapping import parse_copilot_call
from amplifier_hooks.hosts.dialect import On, dialect
from amplifier_hooks.hosts.host_table import host_profile
from amplifier_hooks.hosts.tools import ToolNames
from amplifier_hooks.tool_names import COPILOT_NAMES

__all__ = [
    "COPILOT",
    "COPILOT_DIALECT",
    "COPILOT_EVENTS",
    "COPILOT_PROFILE",
    "COPILOT_TOOLS",
]

COPILOT_EVENTS: Mapping[str, On] = {
    "sessionStart": On(events.SESSION_START, "context"),
    "userPromptSubmitted": On(events.PROMPT_SUBMIT, "guards context", "block"),
    "preToolUse": On(events.TOOL_PRE, "tool guards asks modifies context", "permission"),
    "permissionRequest": On(None, "tool"),
    "postToolUse": On(events.TOOL_POST, "tool context"),
    "errorOccurred": On(),
    "agentStop": On(events.PROMPT_COMPLETE, "keeps-working"),
    "subagentStop": On(None, "keeps-working"),
    "notification": On(),
    "sessionEnd": On(events.SESSION_END),
}
"""Copilot CLI's documented events, a row each (`On`); all but errorOccurred, subagentStop
and notification were seen with 1.0.102."""

COPILOT_TOOLS = ToolNames(
    COPILOT_NAMES,
    path_fields=("path",),
    derived={"apply_patch": patch_targets},
)

COPILOT_DIALECT = dialect("copilot", COPILOT_TOOLS, COPILOT_EVENTS)

COPILOT_PROFILE = host_profile("copilot", COPILOT_DIALECT)
"""Every fact about GitHub Copilot CLI."""


COPILOT = ClaudeStyleAdapter(
    COPILOT_PROFILE, parse_copilot_call, build_copilot_answer, refuse_copilot
)
"""The GitHub Copilot CLI adapter."""
