"""Reading a tool call out of event data, safely: one implementation for every hook.

Approval rules, policies and prompts all need the same facts of an event (the tool name, the
command, the path) and all face the same tricks: a command that chains a second one behind
an allowed prefix, a path that climbs out of an allowed folder with ``..`` or a symlink,
text that repaints the terminal or reads backwards. Keeping the defences in one place keeps
them from drifting apart.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Mapping
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

__all__ = [
    "COMMAND_KEYS",
    "DETAIL_LIMIT",
    "INPUT_KEYS",
    "PATH_KEYS",
    "SHELL_OPERATORS",
    "TOOL_KEYS",
    "URL_KEYS",
    "as_text",
    "clean_text",
    "command_allowed_by",
    "command_of",
    "extract_fields",
    "patch_operations",
    "patch_text",
    "path_candidates",
    "path_of",
    "resolve_path",
    "resolve_workspace",
    "shell_operators",
    "shorten_middle",
    "tool_input",
    "tool_name",
    "url_of",
]

TOOL_KEYS = ("tool_name", "tool", "name")
INPUT_KEYS = ("tool_input", "input", "arguments", "args", "params", "parameters")
COMMAND_KEYS = ("command", "cmd", "script")
PATH_KEYS = ("file_path", "path", "notebook_path", "filename", "file", "target")
URL_KEYS = ("url", "uri")

DETAIL_LIMIT = 160
"""Characters of one value shown to a person before `clean_text` cuts it with an ellipsis."""

SHELL_OPERATORS = frozenset(";&|`$()<>\n\r")
"""Characters that chain, substitute, group or redirect in a shell command. An allow glob
must spell out every one a command uses, so ``git status*`` cannot approve
``git status; rm -rf ~`` (see `command_allowed_by`)."""


# -- reading the event data -------------------------------------------------------------


def tool_input(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """The tool's arguments: the first of `INPUT_KEYS` holding a mapping, or a JSON object
    given as a string (some runtimes pass the model's arguments through unparsed)."""
    for key in INPUT_KEYS:
        value = data.get(key)
        if isinstance(value, str) and value.lstrip().startswith("{"):
            try:
                value = json.loads(value)
            except ValueError:
                continue
        if isinstance(value, Mapping):
            return value
    return {}


def _first(
    data: Mapping[str, Any], keys: tuple[str, ...], inputs: Mapping[str, Any] | None = None
) -> Any:
    # The tool's own arguments win over the envelope: they are what the tool will act on.
    for scope in (tool_input(data) if inputs is None else inputs, data):
        for key in keys:
            value = scope.get(key)
            if value is not None and value != "":
                return value
    return None


def as_text(value: object) -> str:
    """``value`` as text: strings as they are, anything else as JSON (``repr`` if not)."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(value)


def tool_name(data: Mapping[str, Any]) -> str | None:
    """The tool's name from the top level of the event data, if there is a text one."""
    for key in TOOL_KEYS:
        value = data.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def command_of(data: Mapping[str, Any], inputs: Mapping[str, Any] | None = None) -> str | None:
    """The shell command, stripped; an argv list is joined with shell quoting.
    ``inputs``: ``tool_input(data)``, when the caller has it already (as for `path_of`
    and `url_of`)."""
    value = _first(data, COMMAND_KEYS, inputs)
    if value is None:
        return None
    if isinstance(value, list | tuple):
        return shlex.join(str(part) for part in value)
    return as_text(value).strip()


def path_of(data: Mapping[str, Any], inputs: Mapping[str, Any] | None = None) -> str | None:
    """The path the tool acts on, unresolved (see `resolve_path`)."""
    value = _first(data, PATH_KEYS, inputs)
    if value is None:
        return None
    if isinstance(value, os.PathLike):
        return os.fspath(value)  # type: ignore[no-any-return]  # PathLike[Any]
    return as_text(value)


_PATCH_HEADER = re.compile(r"^\*\*\* (Add File|Update File|Delete File|Move to): (.+?)\s*$")
_PATCH_OPS = {"Add File": "add", "Update File": "update", "Delete File": "delete"}


def patch_text(inputs: Mapping[str, Any]) -> str | None:
    """The patch of an ``apply_patch`` call's arguments (Codex's ``command``; ``input``,
    ``patch`` or OpenCode's ``patchText`` in other hosts' shapes of the tool; the last word
    of an argv form)."""
    for key in ("command", "input", "patch", "patchText"):
        value = inputs.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return str(value[-1])  # the argv form: ["apply_patch", PATCH]
    return None


def patch_operations(patch: str) -> list[dict[str, str]]:
    """One ``{"op": "add" | "update" | "delete", "path": P}`` per file header of an
    ``apply_patch`` patch (``*** Add File: P``...), in order; an update that moves its file
    (``*** Move to: Q``) has ``"to": Q``. The hosts add these to the call and the guard
    judges them: one reader, so the two never disagree on what a patch touches."""
    operations: list[dict[str, str]] = []
    for line in patch.splitlines():
        found = _PATCH_HEADER.match(line)
        if found is None:
            continue
        kind, path = found.groups()
        if kind == "Move to":
            if operations and operations[-1]["op"] == "update" and "to" not in operations[-1]:
                operations[-1]["to"] = path
            else:  # a move with no file to move: still a path the patch names
                operations.append({"op": "update", "path": path})
            continue
        operations.append({"op": _PATCH_OPS[kind], "path": path})
    return operations


def url_of(data: Mapping[str, Any], inputs: Mapping[str, Any] | None = None) -> str | None:
    """The URL the tool acts on, if any."""
    value = _first(data, URL_KEYS, inputs)
    return None if value is None else as_text(value)


def extract_fields(data: Mapping[str, Any]) -> dict[str, str]:
    """The tool, command, path and url of an event, untruncated, where they can be found
    (the top level, or inside the tool's input); missing ones are left out."""
    found = {
        "tool": tool_name(data),
        "command": command_of(data),
        "path": path_of(data),
        "url": url_of(data),
    }
    return {name: value for name, value in found.items() if value}


# -- commands ---------------------------------------------------------------------------


def shell_operators(text: str) -> frozenset[str]:
    """The `SHELL_OPERATORS` that occur in ``text``."""
    return SHELL_OPERATORS.intersection(text)


def command_allowed_by(command: str, pattern: str) -> bool:
    """Whether an *allow* glob ``pattern`` covers ``command``: it must match, and every
    shell operator in the command must also appear in the pattern."""
    return shell_operators(command) <= shell_operators(pattern) and fnmatchcase(command, pattern)


# -- paths ------------------------------------------------------------------------------


def resolve_workspace(configured: str | os.PathLike[str] | None) -> Path:
    """The workspace as a real absolute path (the current directory if none is known)."""
    base = Path(os.path.expanduser(configured)) if configured else Path.cwd()
    return Path(os.path.realpath(base.absolute()))


def resolve_path(raw: str, workspace: Path) -> Path | None:
    """``raw`` as the real absolute path a tool would touch, or None if it cannot be known.

    ``~`` is expanded, a relative path is taken from ``workspace``, ``..`` is collapsed and
    symlinks are followed (as far as they exist). ``workspace`` should itself be resolved
    (`resolve_workspace`). None means "unknown": never inside anything, for an allow rule.
    """
    try:
        candidate = Path(os.path.expanduser(raw))
        if not candidate.is_absolute():
            candidate = workspace / candidate
        return Path(os.path.realpath(candidate))
    except (OSError, ValueError, RuntimeError):  # embedded NUL, unreadable part, loops
        return None


def path_candidates(path: Path, workspace: Path) -> list[str]:
    """The strings a path glob is tried on: the resolved absolute path and, inside the
    workspace, the path relative to it (so ``src/*.py`` works)."""
    found = [path.as_posix()]
    if path.is_relative_to(workspace):
        found.append(path.relative_to(workspace).as_posix())
    return found


# -- showing untrusted text -------------------------------------------------------------

# Bidirectional overrides and zero-width characters can make text read differently from
# what it is ("Trojan Source"), so they are escaped like control characters. Escaping ESC
# (\x1b) also defuses every ANSI escape sequence.
_INVISIBLE = "\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff"
_CONTROL = re.compile(f"[\x00-\x1f\x7f-\x9f{_INVISIBLE}]")
_CONTROL_BUT_NEWLINE = re.compile(f"[\x00-\x09\x0b-\x1f\x7f-\x9f{_INVISIBLE}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def clean_text(
    value: str, limit: int | None = DETAIL_LIMIT, *, newlines: bool = False, middle: bool = False
) -> str:
    """Make untrusted text safe to show, and cut it to ``limit`` characters.

    Control characters (an escape sequence could repaint the screen, a newline push half a
    command out of view, a bidirectional override reorder it) become visible
    ``\\xNN``/``\\uNNNN`` escapes. ``newlines`` keeps line breaks, for prompts. A cut
    ends in `…`; with ``middle`` (paths and commands) the `…` replaces the middle instead
    (`shorten_middle`).
    """
    pattern = _CONTROL_BUT_NEWLINE if newlines else _CONTROL
    text = pattern.sub(_escape, value)
    if limit is not None and len(text) > limit:
        text = shorten_middle(text, limit) if middle else text[: limit - 1] + "…"
    return text


def shorten_middle(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters: its start and its end kept, `…` between.

    The one way paths and commands are shortened for a person: the end of a path (the
    file, the project) and of a command (what a ``;`` chains behind an innocent start)
    matter as much as its start, and the `…` shows that something was left out.
    """
    if len(text) <= width:
        return text
    if width <= 1:
        return "…"[: max(width, 0)]
    tail = (width - 1) // 2
    head = width - 1 - tail
    return text[:head] + "…" + text[len(text) - tail :]
