"""What a rule is matched against: the tool, command and path of an event, made safe.

Paths are resolved before any glob sees them (``..`` collapsed, symlinks followed, relative
paths taken from the workspace), so ``src/../../etc/passwd`` or a symlink out of the
workspace cannot slip past a rule written for the real location. A path that cannot be
resolved counts as outside the workspace and never matches an allow rule: approvals fail
closed. The reading, resolving and escaping are `amplifier_hooks.toolcalls`, shared with
the approval gate and its policy provider.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from amplifier_hooks.toolcalls import (
    SHELL_OPERATORS,
    clean_text,
    command_allowed_by,
    command_of,
    path_candidates,
    path_of,
    resolve_path,
    resolve_workspace,
    tool_name,
)

__all__ = [
    "DISPLAY_LIMIT",
    "SHELL_OPERATORS",
    "Target",
    "display",
    "match_command",
    "match_path",
    "match_tool",
    "resolve_path",
    "resolve_workspace",
    "target_of",
]

DISPLAY_LIMIT = 200


@dataclass(frozen=True)
class Target:
    """The facts of one event that rules look at. ``path`` is resolved when possible."""

    event: str
    tool: str | None
    command: str | None
    raw_path: str | None
    path: Path | None
    workspace: Path

    @property
    def outside_workspace(self) -> bool | None:
        """None without a path; True when the path is outside or cannot be resolved."""
        if self.raw_path is None:
            return None
        if self.path is None:
            return True
        return not self.path.is_relative_to(self.workspace)

    def path_candidates(self, *, allowing: bool = False) -> list[str]:
        """Strings a path glob is tried against: the resolved absolute path, and the path
        relative to the workspace when it is inside (so ``src/*.py`` works). A path that
        cannot be resolved is tried as written, except by an allow rule."""
        if self.path is None:
            return [self.raw_path] if self.raw_path is not None and not allowing else []
        return path_candidates(self.path, self.workspace)

    def display_path(self) -> str:
        if self.path is not None:
            return str(self.path)
        return self.raw_path or ""


def target_of(event: str, data: Mapping[str, Any], workspace: Path) -> Target:
    """Pull tool, command and path out of event data, tolerating any missing piece."""
    raw = path_of(data)
    return Target(
        event=event,
        tool=tool_name(data),
        command=command_of(data),
        raw_path=raw,
        path=None if raw is None else resolve_path(raw, workspace),
        workspace=workspace,
    )


def match_tool(patterns: tuple[str, ...], tool: str | None) -> bool:
    """Tool names compare case-insensitively (``Bash`` is ``bash``)."""
    if tool is None:
        return False
    name = tool.lower()
    return any(fnmatchcase(name, p.lower()) for p in patterns)


def match_command(patterns: tuple[str, ...], command: str | None, *, allowing: bool) -> bool:
    """An allowing rule's glob must also spell out every shell operator the command uses."""
    if command is None:
        return False
    if allowing:
        return any(command_allowed_by(command, pattern) for pattern in patterns)
    return any(fnmatchcase(command, pattern) for pattern in patterns)


def match_path(patterns: tuple[str, ...], target: Target, *, allowing: bool = False) -> bool:
    """Globs are tried on the resolved path (see `Target.path_candidates`)."""
    candidates = target.path_candidates(allowing=allowing)
    return any(
        fnmatchcase(candidate, os.path.expanduser(pattern))
        for pattern in patterns
        for candidate in candidates
    )


def display(value: str | None) -> str:
    """A value fit for a prompt: control, ANSI, bidirectional and zero-width characters
    shown as escapes, long text cut."""
    return clean_text(value or "", DISPLAY_LIMIT)
