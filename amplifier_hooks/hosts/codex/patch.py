"""The files a Codex ``apply_patch`` call touches, read from its patch text.

Codex edits files with ``apply_patch``: its hook input has no path, only the patch in
``tool_input.command`` (``*** Begin Patch``, then ``*** Add File: P``, ``*** Update File:
P`` with an optional ``*** Move to: Q``, ``*** Delete File: P``). Path rules need the
paths, so the canonical input adds them (docs/hosts.md):

- ``operations``: one ``{"op": "add" | "update" | "delete", "path": P}`` per file, in
  order, with ``"to": Q`` on an update that moves the file;
- ``paths``: every path written, changed, deleted or moved to, in order, once each;
- ``path``: the one path, when the patch touches exactly one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["DERIVED_FIELDS", "patch_operations", "patch_targets", "patch_text"]

DERIVED_FIELDS = ("operations", "paths", "path")
"""The fields the canonical input adds (read from the patch, never sent back)."""

_HEADER = re.compile(r"^\*\*\* (Add File|Update File|Delete File|Move to): (.+?)\s*$")
_OPS = {"Add File": "add", "Update File": "update", "Delete File": "delete"}


def patch_text(tool_input: Mapping[str, Any]) -> str | None:
    """The patch in an ``apply_patch`` input (``command``; ``input`` or ``patch`` in
    other shapes of the tool)."""
    for key in ("command", "input", "patch"):
        value = tool_input.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return str(value[-1])  # the argv form: ["apply_patch", PATCH]
    return None


def patch_operations(patch: str) -> list[dict[str, str]]:
    """One operation per file header of ``patch``, in order."""
    operations: list[dict[str, str]] = []
    for line in patch.splitlines():
        found = _HEADER.match(line)
        if found is None:
            continue
        kind, path = found.groups()
        if kind == "Move to":
            if operations and operations[-1]["op"] == "update" and "to" not in operations[-1]:
                operations[-1]["to"] = path
            else:  # a move with no file to move: still a path the patch names
                operations.append({"op": "update", "path": path})
            continue
        operations.append({"op": _OPS[kind], "path": path})
    return operations


def patch_targets(tool_input: Mapping[str, Any]) -> dict[str, Any]:
    """The fields an ``apply_patch`` input gets on our side (see the module docstring)."""
    patch = patch_text(tool_input)
    operations = patch_operations(patch) if patch is not None else []
    paths: list[str] = []
    for operation in operations:
        for key in ("path", "to"):
            value = operation.get(key)
            if value is not None and value not in paths:
                paths.append(value)
    derived: dict[str, Any] = {"operations": operations, "paths": paths}
    if len(paths) == 1:
        derived["path"] = paths[0]
    return derived
