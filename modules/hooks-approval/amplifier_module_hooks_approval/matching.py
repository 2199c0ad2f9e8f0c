"""What a rule is matched against: the tool, command and path of an event, made safe.

Paths are resolved before any glob sees them (``..`` collapsed, symlinks followed, relative
paths taken from the workspace), so ``src/../../etc/passwd`` or a symlink out of the
workspace cannot slip past a rule written for the real location. A path that cannot be
resolved counts as outside the workspace: approvals fail closed.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

_TOOL_KEYS = ("tool_name", "tool", "name")
_INPUT_KEYS = ("tool_input", "input", "arguments", "args", "params", "parameters")
_COMMAND_KEYS = ("command", "cmd", "script")
_PATH_KEYS = ("path", "file_path", "filename", "file", "notebook_path", "target")

SHELL_OPERATORS = frozenset(";&|`$<>()\n\r")
"""Characters that chain, substitute or redirect in a shell command. An ``allow`` rule's
command glob never matches a command using one its pattern does not spell out, so
``git status*`` cannot approve ``git status; rm -rf ~``."""

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
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

    def path_candidates(self) -> list[str]:
        """Strings a path glob is tried against: the resolved absolute path, and the path
        relative to the workspace when it is inside (so ``src/*.py`` works)."""
        if self.path is None:
            return [self.raw_path] if self.raw_path is not None else []
        found = [self.path.as_posix()]
        if self.path.is_relative_to(self.workspace):
            found.append(self.path.relative_to(self.workspace).as_posix())
        return found

    def display_path(self) -> str:
        if self.path is not None:
            return str(self.path)
        return self.raw_path or ""


def resolve_workspace(configured: str | None) -> Path:
    """The workspace as a real path (the current directory if none is known)."""
    base = Path(os.path.expanduser(configured)) if configured else Path.cwd()
    return Path(os.path.realpath(base.absolute()))


def resolve_path(raw: str, workspace: Path) -> Path | None:
    """``raw`` as the real absolute path a tool would touch, or None if it cannot be."""
    try:
        candidate = Path(os.path.expanduser(raw))
        if not candidate.is_absolute():
            candidate = workspace / candidate
        return Path(os.path.realpath(candidate))
    except (OSError, ValueError):  # embedded NUL, unreadable component
        return None


def _tool_input(data: Mapping[str, Any]) -> Mapping[str, Any]:
    for key in _INPUT_KEYS:
        value = data.get(key)
        if isinstance(value, str) and value.lstrip().startswith("{"):
            # Some runtimes pass the model's arguments as the raw JSON string.
            try:
                value = json.loads(value)
            except ValueError:
                continue
        if isinstance(value, Mapping):
            return value
    return {}


def _first(scopes: tuple[Mapping[str, Any], ...], keys: tuple[str, ...]) -> Any:
    for scope in scopes:
        for key in keys:
            value = scope.get(key)
            if value not in (None, ""):
                return value
    return None


def target_of(event: str, data: Mapping[str, Any], workspace: Path) -> Target:
    """Pull tool, command and path out of event data, tolerating any missing piece."""
    tool = _first((data,), _TOOL_KEYS)
    inner = _tool_input(data)
    scopes = (inner, data)
    command = _first(scopes, _COMMAND_KEYS)
    if isinstance(command, list | tuple):
        command = shlex.join(str(part) for part in command)
    raw_path = _first(scopes, _PATH_KEYS)
    if isinstance(raw_path, os.PathLike):
        raw_path = os.fspath(raw_path)
    raw = None if raw_path is None else str(raw_path)
    return Target(
        event=event,
        tool=tool if isinstance(tool, str) else None,
        command=None if command is None else str(command).strip(),
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
    if command is None:
        return False
    operators = SHELL_OPERATORS.intersection(command)
    for pattern in patterns:
        if allowing and not operators.issubset(pattern):
            continue
        if fnmatchcase(command, pattern):
            return True
    return False


def match_path(patterns: tuple[str, ...], target: Target) -> bool:
    candidates = target.path_candidates()
    return any(
        fnmatchcase(candidate, os.path.expanduser(pattern))
        for pattern in patterns
        for candidate in candidates
    )


def display(value: str | None) -> str:
    """A value fit for a prompt: control characters visible, long text cut."""
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", value or "")
    return text if len(text) <= DISPLAY_LIMIT else text[: DISPLAY_LIMIT - 1] + "…"
