"""Every agent host's own tool names, and ours for each: one table.

The hosts layer maps a host's payload with its own row (`hosts.tools.ToolNames`); the guard
judges a raw payload (``amplifier-hooks test --payload``, a bench corpus), whose host it is
not told, by all the rows at once (`canonical_tool`). Both read these tables, so a name is
mapped in one place. Names follow docs/hosts.md and agent-cli-hooks.md (§1.10, §2-§4, §7,
§8); a tool no row names keeps its own name, and the guard has no opinion on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = [
    "BRIDGES",
    "CLAUDE_NAMES",
    "CLINE_NAMES",
    "CODEX_NAMES",
    "COPILOT_NAMES",
    "CURSOR_NAMES",
    "GEMINI_NAMES",
    "HOST_TOOL_NAMES",
    "MCP_BRIDGES",
    "OPENCLAW_NAMES",
    "OPENCODE_NAMES",
    "SAFER_FIRST",
    "TYPED_INTO_SHELL",
    "canonical_tool",
    "folded_tool",
    "merged_names",
]

CLAUDE_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "Bash": "bash",
        "Read": "read_file",
        "Write": "write_file",
        "Edit": "edit_file",
        "MultiEdit": "multi_edit",
        "Glob": "glob",
        "Grep": "grep",
        "WebFetch": "web_fetch",
        "WebSearch": "web_search",
        "NotebookEdit": "notebook_edit",
    }
)
"""Claude Code's built-in tools. ``PowerShell`` (its shell on Windows) is not mapped: the
guard reads POSIX shell, and would misread a PowerShell command."""

CODEX_NAMES: Mapping[str, str] = MappingProxyType(
    {
        **CLAUDE_NAMES,
        "exec_command": "bash",
        "shell": "bash",
        "local_shell": "bash",
        "apply_patch": "apply_patch",
    }
)
"""Codex: Claude Code's names in its hooks, and its own shell and patch tools."""

GEMINI_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "run_shell_command": "bash",
        "read_file": "read_file",
        "write_file": "write_file",
        "replace": "edit_file",
        "glob": "glob",
        "grep_search": "grep",
        "search_file_content": "grep",
        "web_fetch": "web_fetch",
        "google_web_search": "web_search",
        "list_directory": "list_dir",
        "read_many_files": "read_file",
    }
)
"""Gemini CLI's built-in tools (``search_file_content`` is an older name of
``grep_search``; ``read_many_files`` reads each of its ``paths``)."""

COPILOT_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "bash": "bash",
        "view": "read_file",
        "create": "write_file",
        "edit": "edit_file",
        "rg": "grep",
        "grep": "grep",
        "glob": "glob",
        "web_fetch": "web_fetch",
        "apply_patch": "apply_patch",
        "str_replace_editor": "edit_file",
    }
)
"""Copilot CLI's tools (``str_replace_editor``: its older editor tool, which also views
and creates files; judged as an edit of its ``path``)."""

OPENCODE_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "bash": "bash",
        "read": "read_file",
        "write": "write_file",
        "edit": "edit_file",
        "glob": "glob",
        "grep": "grep",
        "list": "list_dir",
        "webfetch": "web_fetch",
        "websearch": "web_search",
        "patch": "apply_patch",
    }
)
"""OpenCode's built-in tools (``patch`` takes an apply_patch envelope in ``patchText``)."""

OPENCLAW_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "exec": "bash",
        "read": "read_file",
        "write": "write_file",
        "edit": "edit_file",
        "ls": "list_dir",
        "apply_patch": "apply_patch",
        "web_fetch": "web_fetch",
        "web_search": "web_search",
    }
)
"""OpenClaw's tools. ``process`` (types into a running shell) and the ``tool_call`` bridge
are not mapped: neither is one of our tools (`TYPED_INTO_SHELL`, `BRIDGES`)."""

BRIDGES: Mapping[str, tuple[str, str]] = MappingProxyType({"tool_call": ("id", "args")})
"""Tools that call another tool: the fields of its name and of its input (OpenClaw's
``tool_call {id, args}``, whose hook fires again as the inner tool)."""

MCP_BRIDGES: Mapping[str, tuple[str, str, str]] = MappingProxyType(
    {"use_mcp_tool": ("server_name", "tool_name", "arguments")}
)
"""Tools that call an MCP server's tool by name: the fields of the server, the tool and its
arguments (Cline's ``use_mcp_tool``, whose ``arguments`` is the JSON text of an object)."""

TYPED_INTO_SHELL: Mapping[str, str] = MappingProxyType({"process": "data"})
"""Tools that type text into a running shell session, and the field of the text
(OpenClaw's ``process``, agent-cli-hooks.md §8: "judge it")."""

CLINE_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "run_commands": "bash",
        "editor": "edit_file",
        "read_files": "read_file",
        "fetch_web_content": "web_fetch",
        "search_codebase": "grep",
        "execute_command": "bash",
        "write_to_file": "write_file",
        "replace_in_file": "edit_file",
        "read_file": "read_file",
        "list_files": "list_dir",
        "search_files": "grep",
    }
)
"""Cline's tools: the SDK's (``run_commands``, ``editor``, ``read_files``...) and the
extension's (``execute_command``, ``write_to_file``, ``replace_in_file``...)."""

CURSOR_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "Shell": "bash",
        "run_terminal_cmd": "bash",
        "Read": "read_file",
        "read_file": "read_file",
        "Write": "write_file",
        "Edit": "edit_file",
        "StrReplace": "edit_file",
        "edit_file": "edit_file",
        "search_replace": "edit_file",
        "grep_search": "grep",
        "Grep": "grep",
        "Glob": "glob",
        "list_dir": "list_dir",
        "Delete": "delete_file",
        "delete_file": "delete_file",
    }
)
"""Cursor's tools, as its hooks (``Shell``, ``StrReplace``, ``Delete``...) and its agent
(``run_terminal_cmd``, ``edit_file`` with ``target_file``, ``delete_file``...) name them."""

SAFER_FIRST = ("bash", "apply_patch", "delete_file", "write_file", "multi_edit", "notebook_edit",
               "edit_file", "web_fetch", "read_file", "grep", "glob", "list_dir")  # fmt: skip
"""Where two hosts give one name to different tools, the guard reads it as the one that
can do more (a shell before a write, a write before an edit, an edit before a read): the
rules of the stronger tool then judge it, and a grant is never the weaker tool's."""


def merged_names(*tables: Mapping[str, str]) -> Mapping[str, str]:
    """The ``tables`` as one; a name two of them map differently is read `SAFER_FIRST`."""
    rank = {name: index for index, name in enumerate(SAFER_FIRST)}
    merged: dict[str, str] = {}
    for table in tables:
        for theirs, ours in table.items():
            before = merged.get(theirs)
            if before is None or rank.get(ours, len(rank)) < rank.get(before, len(rank)):
                merged[theirs] = ours
    return MappingProxyType(merged)


HOST_TOOL_NAMES = merged_names(
    CLAUDE_NAMES,
    CODEX_NAMES,
    GEMINI_NAMES,
    COPILOT_NAMES,
    OPENCODE_NAMES,
    OPENCLAW_NAMES,
    CLINE_NAMES,
    CURSOR_NAMES,
)
"""Every host's names at once: how a payload whose host is not known is read."""


def canonical_tool(name: str) -> str:
    """Our name for a host's tool ``name`` (any host's); unknown and MCP tools keep theirs."""
    return HOST_TOOL_NAMES.get(name, name)


_FOLDED = merged_names({theirs.lower(): ours for theirs, ours in HOST_TOOL_NAMES.items()})
_OURS = frozenset(HOST_TOOL_NAMES.values())


def folded_tool(name: str) -> str | None:
    """Our name for a tool no host names as ``name`` but one names in another case
    (``wRiTe``); None when no host does. A host may match names in any case, so the guard
    judges such a call as that tool, and never grants it: it is not a name a host gave."""
    if name in HOST_TOOL_NAMES or name in _OURS:
        return None
    return _FOLDED.get(name.lower())
