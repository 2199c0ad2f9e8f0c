"""The commands Mercurial's and Jujutsu's settings on their command line make them run.

``hg --config 'alias.st=!rm -rf ~' st`` runs ``rm -rf ~`` (an alias whose value starts
with ``!`` is a shell command); so do ``hg --config ui.editor=CMD commit``, a hook, a
merge tool's executable and an extension loaded from a file (its Python runs in hg). Sapling
(``sl``) and chg read the same options. ``jj --config ui.diff.tool='["sh", "-c", CMD]'
diff`` (or ``--config-toml``) runs CMD: a TOML value that is a list is the program and its
words. Each command is judged like any other (`table.commands_run`).
"""

from __future__ import annotations

import re
import shlex
import tomllib
from typing import Any

__all__ = ["VCS_TOOLS", "vcs_setting_commands"]

VCS_TOOLS = frozenset({"hg", "sl", "chg", "jj"})
_HG_RUNS = re.compile(
    r"^(alias\.[^=]+|ui\.(editor|merge|ssh|askpass)|pager\.pager|hooks\.[^=]+"
    r"|merge-tools\.[^=]+\.executable|extdiff\.(cmd|opts)\.[^=]+|extensions\.[^=]+"
    r"|diff\.external|web\.[^=]*cmd|fsmonitor\.[^=]*watchman_exe)$",
    re.IGNORECASE,
)
"""Mercurial's keys whose value it runs (an extension's value is the file it imports)."""
_JJ_RUNS = re.compile(
    r"^(ui\.(editor|pager|diff\.tool|diff-editor|merge-editor|diff-formatter)"
    r"|merge-tools\.[^=]+\.program|fix\.tools\.[^=]+\.command|signing\.backends\.[^=]+\.program"
    r"|aliases\.[^=]+)$",
    re.IGNORECASE,
)
"""Jujutsu's keys whose value it runs (an alias runs jj, or ``util exec`` a program)."""
_BUILTIN = re.compile(r"^:")
"""jj's own tools (``:builtin``, ``:git``): no program."""


def vcs_setting_commands(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    """The shell commands ``PROGRAM ARGS`` (hg, sl, chg or jj) is set to run."""
    settings = list(_given(args, toml=program == "jj"))
    found: list[str] = []
    for key, value in settings:
        if program == "jj":
            found.extend(_jj_command(key, value))
        else:
            found.extend(_hg_command(key, value))
    return tuple(found)


def _given(args: tuple[str, ...], toml: bool) -> list[tuple[str, Any]]:
    """Each ``--config KEY=VALUE`` (and jj's ``--config-toml TOML``) given, read."""
    found: list[tuple[str, Any]] = []
    for index, arg in enumerate(args):
        name, eq, attached = arg.partition("=")
        if name not in ("--config", "--config-toml"):
            continue
        value = attached if eq else (args[index + 1] if index + 1 < len(args) else "")
        if name == "--config-toml":
            found.extend(_flat(_toml(value)))
            continue
        key, _, raw = value.partition("=")
        found.append((key.strip(), _toml_value(raw) if toml else raw))
    return found


def _toml(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}


def _toml_value(raw: str) -> Any:
    """A jj ``--config`` value: TOML when it reads as TOML, else the text itself."""
    read = _toml(f"v = {raw}")
    return read.get("v", raw)


def _flat(table: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    for key, value in table.items():
        if isinstance(value, dict):
            found.extend(_flat(value, f"{prefix}{key}."))
        else:
            found.append((f"{prefix}{key}", value))
    return found


def _hg_command(key: str, value: Any) -> list[str]:
    if not isinstance(value, str) or not _HG_RUNS.match(key) or not value.strip():
        return []
    lowered = key.lower()
    if lowered.startswith("alias."):
        return [value[1:]] if value.startswith("!") and value[1:].strip() else []
    if lowered.startswith("extensions."):  # `!` disables; a path is Python hg imports
        return [] if value.startswith("!") else [shlex.join(["python3", value])]
    return [value]


def _jj_command(key: str, value: Any) -> list[str]:
    if not _JJ_RUNS.match(key):
        return []
    words = [value] if isinstance(value, str) else value
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words) or not words:
        return []
    if key.lower().startswith("aliases."):  # `["util", "exec", "--", PROGRAM, ...]`
        if words[:2] != ["util", "exec"]:
            return []
        words = words[3:] if words[2:3] == ["--"] else words[2:]
        return [shlex.join(words)] if words else []
    if _BUILTIN.match(words[0]):
        return []
    return [words[0]] if len(words) == 1 else [shlex.join(words)]
