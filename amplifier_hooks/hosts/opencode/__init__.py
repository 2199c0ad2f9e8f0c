"""OpenCode as a host (``opencode-ai`` 1.18.33; agent-cli-hooks.md §8.1, docs/hosts.md).

- OpenCode runs no hook commands: it loads JS plugins, from ``<project>/.opencode/plugin/``
  and ``~/.config/opencode/plugin/``. ``amplifier-hooks opencode install`` writes ours
  there (`amplifier_hooks.hosts.opencode.install`); it sends each tool call to our hook
  server and acts on the answer (`amplifier_hooks.hosts.opencode.plugin`).
- Events: ``tool.execute.before`` -> tool:pre, ``tool.execute.after`` -> tool:post.
- Tools: ``bash`` -> bash, ``read`` -> read_file, ``write`` -> write_file, ``edit`` ->
  edit_file, ``webfetch`` -> web_fetch, ``glob``, ``grep``; their paths are ``filePath``.
  MCP tools (``<server>_<tool>``) keep their names.
- Answers (`amplifier_hooks.hosts.opencode.answers`): a deny is a throw whose message the
  model reads as the tool's result; a rewrite changes the arguments in place; context is
  appended to the tool's result. A plugin cannot ask.
- Failures: any throw blocks; OpenCode sets no timeout on a plugin (a wait that never
  ends hangs the session, so ours bounds its own); a plugin that fails to load is skipped
  with one log line, and ``--pure``/``OPENCODE_PURE`` skips every plugin.
"""

from __future__ import annotations

from collections.abc import Mapping

from amplifier_hooks import events
from amplifier_hooks.hosts.claude_code import ClaudeStyleAdapter
from amplifier_hooks.hosts.codex.patch import patch_targets
from amplifier_hooks.hosts.dialect import On, dialect
from amplifier_hooks.hosts.host_table import TIMEOUTS, host_profile
from amplifier_hooks.hosts.opencode.answers import build_opencode_answer, refuse_opencode
from amplifier_hooks.hosts.opencode.mapping import parse_opencode_call
from amplifier_hooks.hosts.tools import ToolNames
from amplifier_hooks.tool_names import OPENCODE_NAMES

__all__ = [
    "OPENCODE",
    "OPENCODE_DIALECT",
    "OPENCODE_EVENTS",
    "OPENCODE_PROFILE",
    "OPENCODE_TOOLS",
    "PLUGIN_WAIT",
]

BEFORE = "tool.execute.before"
AFTER = "tool.execute.after"

OPENCODE_EVENTS: Mapping[str, On] = {
    BEFORE: On(events.TOOL_PRE, "tool guards modifies context", "permission"),
    AFTER: On(events.TOOL_POST, "tool context"),
}
"""The plugin hooks ours uses (both seen with 1.18.33), a row each (`On`)."""

PLUGIN_WAIT = TIMEOUTS["opencode"].ours
"""Seconds our plugin waits for an answer before it blocks the call itself: OpenCode
would wait forever. Past the hook server's own deadline for a call (600 s, room for a
person's approval), so the server's reason arrives first whenever it can answer."""

OPENCODE_TOOLS = ToolNames(
    OPENCODE_NAMES,
    path_fields=("filePath",),
    derived={"patch": patch_targets},
)

OPENCODE_DIALECT = dialect("opencode", OPENCODE_TOOLS, OPENCODE_EVENTS)

OPENCODE_PROFILE = host_profile("opencode", OPENCODE_DIALECT)
"""Every fact about OpenCode (agent-cli-hooks.md §8.1)."""


OPENCODE = ClaudeStyleAdapter(
    OPENCODE_PROFILE, parse_opencode_call, build_opencode_answer, refuse_opencode
)
"""The OpenCode adapter."""
