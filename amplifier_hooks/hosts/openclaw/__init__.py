"""OpenClaw as a host (``openclaw`` 2026.9.6; agent-cli-hooks.md §8.3, docs/hosts.md).

- Guarding is a native plugin, not a command hook: a folder with ``package.json``,
  ``openclaw.plugin.json`` and ``index.js``, wired in ``~/.openclaw/openclaw.json``
  (``plugins.load.paths`` and ``plugins.entries.<id>``). Ours (`plugin`) posts each hook
  to our server and hands OpenClaw the answer (`amplifier_hooks.hosts.openclaw.answers`).
- Hooks are snake_case: ``before_tool_call`` -> tool:pre, ``after_tool_call`` ->
  tool:post, ``before_prompt_build`` -> prompt:submit, ``session_start`` ->
  session:start, ``session_end`` -> session:end, ``agent_end`` -> prompt:complete.
- Tools: ``exec`` -> bash, ``read`` -> read_file, ``write`` -> write_file, ``edit`` ->
  edit_file, ``ls`` -> list_dir, ``apply_patch`` (paths read from its patch); ``process``
  typing into a shell is judged as what it types (`amplifier_hooks.hosts.openclaw.mapping`).
- A person can answer OpenClaw's own approval only on a channel: the plugin says
  ``channel`` as the call's entrypoint when ``ctx.channelId`` is set, ``local`` otherwise.
- Failures of the plugin block the call (a throw, a timeout), but the model then reads
  only "Tool call blocked because before_tool_call hook failed": ours never throws, and
  answers a deny with its reason before OpenClaw's budget runs out. A ``load.paths`` folder
  that is missing fails open, silently; ``openclaw agent exec`` runs no plugin at all.
"""

from __future__ import annotations

from collections.abc import Mapping

from amplifier_hooks import events
from amplifier_hooks.hosts.claude_code import ClaudeStyleAdapter
from amplifier_hooks.hosts.codex.patch import patch_targets
from amplifier_hooks.hosts.dialect import On, dialect
from amplifier_hooks.hosts.host_table import host_profile
from amplifier_hooks.hosts.openclaw.answers import build_openclaw_answer, refuse_openclaw
from amplifier_hooks.hosts.openclaw.mapping import parse_openclaw_call
from amplifier_hooks.hosts.tools import ToolNames
from amplifier_hooks.tool_names import OPENCLAW_NAMES

__all__ = [
    "OPENCLAW",
    "OPENCLAW_DIALECT",
    "OPENCLAW_EVENTS",
    "OPENCLAW_PROFILE",
    "OPENCLAW_TOOLS",
]

OPENCLAW_EVENTS: Mapping[str, On] = {
    "before_tool_call": On(events.TOOL_PRE, "tool guards asks modifies", "block"),
    "after_tool_call": On(events.TOOL_POST, "tool"),
    "before_prompt_build": On(events.PROMPT_SUBMIT, "context"),
    "session_start": On(events.SESSION_START),
    "session_end": On(events.SESSION_END),
    "agent_end": On(events.PROMPT_COMPLETE),
}
"""The OpenClaw plugin hooks our plugin can register (its catalogue has more), a row each
(`On`)."""

OPENCLAW_TOOLS = ToolNames(
    OPENCLAW_NAMES,
    path_fields=("path",),
    derived={"apply_patch": patch_targets},
)

OPENCLAW_DIALECT = dialect("openclaw", OPENCLAW_TOOLS, OPENCLAW_EVENTS, input_style="merge")

OPENCLAW_PROFILE = host_profile("openclaw", OPENCLAW_DIALECT)
"""Every fact about OpenClaw. Timeouts are milliseconds (``plugins.entries.<id>.hooks.
timeouts.before_tool_call``, at most 600000); ``ours`` is the default bundle's: a 300 s
question plus a margin (`amplifier_hooks.hosts.openclaw.install.hook_budget_ms`).
``missing_program`` is a ``load.paths`` folder that is gone: OpenClaw then loads nothing,
and says nothing."""


OPENCLAW = ClaudeStyleAdapter(
    OPENCLAW_PROFILE, parse_openclaw_call, build_openclaw_answer, refuse_openclaw
)
"""The OpenClaw adapter."""
