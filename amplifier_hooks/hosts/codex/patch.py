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

from collections.abc import Mapping
from typing import Any

from amplifier_hooks.toolcalls import patch_operations, patch_text

__all__ = ["patch_operations", "patch_targets", "patch_text"]


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
