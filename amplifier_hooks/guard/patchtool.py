"""``apply_patch`` (Codex's, Copilot's and OpenClaw's patch tool) judged as the file calls
it amounts to.

The tool names no path of its own: its patch does (``*** Add File: P``, ``*** Update File:
P`` with an optional ``*** Move to: Q``, ``*** Delete File: P``). An added file is a
``write_file``, an updated one an ``edit_file``, a deleted one an ``rm``, a move an ``mv``
and a delete of what it moves, so the rules that judge those calls judge the patch: a patch
that adds ``.claude/settings.local.json`` is denied as a Write of it is. The paths come from
the patch text, which is what the tool applies (`toolcalls.patch_operations`, the reader
the hosts use for the ``operations`` they add); an ``operations`` list in the input adds
its paths too, so a list that disagrees with the patch can only make the verdict stricter.
A patch with a header the reader does not know, or that names no file, also keeps the tool
itself as a piece, which no rule grants.

A delete tool (Cursor's ``Delete`` and ``delete_file``) is the patch of one ``*** Delete
File:`` of each path it names, read as ``rm -r`` (the path may be a folder): the delete
rules judge it, and the tool itself stays a piece, so it is never granted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks import toolcalls
from amplifier_hooks.guard.inputs import file_input
from amplifier_hooks.guard.mcptools import (
    Same,
    Split,
    bases_of,
    moved_calls,
    path_calls,
    pieces_of,
)
from amplifier_hooks.guard.model import Piece, Places, Verdict
from amplifier_hooks.tool_names import canonical_tool

__all__ = ["DELETE_TOOLS", "PATCH_TOOLS", "heredoc_patch", "patch_pieces"]

PATCH_TOOLS = frozenset({"apply_patch"})
"""The canonical name the hosts give the patch tool (docs/hosts.md)."""

DELETE_TOOLS = frozenset({"delete_file"})
"""The canonical name of a tool that deletes the path it names (`tool_names`)."""

_KNOWN_HEADERS = ("*** Begin Patch", "*** End Patch", "*** End of File", "*** Add File: ",
                  "*** Update File: ", "*** Delete File: ", "*** Move to: ")  # fmt: skip
_KINDS = {"add": "write", "update": "edit", "delete": "delete"}
_HEREDOC = re.compile(
    r"\s*(?:apply_patch|applypatch)\s*<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1[ \t]*\n"
    r"(?P<body>.*?)\n[ \t]*\2[ \t]*\n?\s*\Z",
    re.DOTALL,
)
SHELL_PATCH = "the patch is applied through a shell command"


def heredoc_patch(command: str) -> dict[str, Any] | None:
    """The ``apply_patch`` call a shell command amounts to when it is the patch tool fed
    its patch on a heredoc (``apply_patch <<'EOF' ... EOF``: Codex runs that as its patch
    tool), as ``tool:pre`` data; None for any other command."""
    found = _HEREDOC.match(command)
    if found is None:
        return None
    return {"tool_name": "apply_patch", "tool_input": {"command": found.group("body")}}


def patch_pieces(
    data: Mapping[str, Any], places: Places, split: Split
) -> tuple[str | None, tuple[Piece, ...], Verdict | None] | None:
    """The pieces of the ``apply_patch`` call in ``data`` (``split``: `policy.pieces_for` of
    one call), or None when ``data`` is not one."""
    name = toolcalls.tool_name(data)
    name = canonical_tool(name) if name is not None else None
    if name not in PATCH_TOOLS and name not in DELETE_TOOLS:
        return None
    inputs = toolcalls.tool_input(data)
    text = toolcalls.patch_text(inputs) if name in PATCH_TOOLS else None
    operations = toolcalls.patch_operations(text) if text is not None else []
    if name in DELETE_TOOLS:
        deleted = file_input(name, inputs, toolcalls.path_of(data, inputs)).paths
        operations = [{"op": "delete", "path": path} for path in deleted]
    operations.extend(_listed(inputs.get("operations")))
    bases = bases_of(places)
    calls: list[dict[str, Any]] = []
    for operation in operations:
        path, to = operation["path"], operation.get("to")
        calls.extend(path_calls(_KINDS[operation["op"]], [path], bases))
        if to is not None:
            calls.extend(moved_calls([path], [to], bases))
    _, pieces, unreadable = pieces_of(Same(name, tuple(calls)), split)
    if unreadable is not None:
        return None, (), unreadable
    why = _not_understood(text, operations) if name in PATCH_TOOLS else "a delete tool"
    if why is not None:
        pieces = (Piece(text=f"{name} ({why})", program=name, tool=name, dynamic=False), *pieces)
    return None, pieces, None


def _listed(value: object) -> list[dict[str, str]]:
    """The well-formed entries of an ``operations`` list (the hosts' derived field)."""
    if not isinstance(value, list):
        return []
    found = []
    for entry in value:
        if not isinstance(entry, Mapping):
            continue
        op, path, to = entry.get("op"), entry.get("path"), entry.get("to")
        if op in _KINDS and isinstance(path, str) and path:
            found.append({"op": op, "path": path, **({"to": to} if isinstance(to, str) else {})})
    return found


def _not_understood(text: str | None, operations: list[dict[str, str]]) -> str | None:
    """Why the patch is not fully understood, or None when every header is read."""
    if text is None:
        return "no patch text"
    if not operations:
        return "the patch names no file"
    for line in text.splitlines():
        if line.startswith("*** ") and not line.startswith(_KNOWN_HEADERS):
            return f"a header the guard does not know: {line[:60]}"
    return None
