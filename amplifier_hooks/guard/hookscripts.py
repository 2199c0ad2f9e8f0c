"""The script files the hosts' settings run as hooks: read from the settings files in the
workspace and the home folder, so that changing such a script is changing a hook (a
place `ownplaces.OwnPlaces` protects as it protects the settings that name it).
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["hook_scripts"]

SETTINGS_WITH_HOOKS = (
    ".claude/settings.json", ".claude/settings.local.json", ".gemini/settings.json",
    ".codex/hooks.json", ".cursor/hooks.json",
)  # fmt: skip
"""Settings files, in the project and the home folder, whose hook commands name scripts."""
MAX_SETTINGS_BYTES = 1 << 20


def hook_scripts(
    home: str, workspace: str, env: Mapping[str, str] | None = None
) -> tuple[str, ...]:
    """The script files the hosts' settings run as hooks (a word of a hook command that
    is an existing file), read from the settings in the workspace and the home folder."""
    found: list[str] = []
    for base in (workspace, home):
        for name in SETTINGS_WITH_HOOKS:
            settings = os.path.join(base, name)
            for command in _commands(settings):
                found.extend(_script_words(command, base, home))
        hooks_folder = os.path.join(base, ".github", "hooks")
        try:
            listed = sorted(os.listdir(hooks_folder))
        except OSError:
            listed = []
        for entry in listed[:64]:
            if entry.endswith(".json"):
                for command in _commands(os.path.join(hooks_folder, entry)):
                    found.extend(_script_words(command, base, home))
    return tuple(dict.fromkeys(found))


def _commands(path: str) -> list[str]:
    """Every hook command in a settings file (``command``, ``bash``, ``powershell``)."""
    try:
        if os.path.getsize(path) > MAX_SETTINGS_BYTES:
            return []
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return []
    found: list[str] = []
    stack: list[Any] = [data]
    while stack and len(found) < 256:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key in ("command", "bash", "powershell") and isinstance(value, str):
                    found.append(value)
                else:
                    stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
    return found


_PROJECT = re.compile(r"\$\{?(CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|PWD)\}?")


def _script_words(command: str, base: str, home: str) -> Iterator[str]:
    try:
        words = shlex.split(command)
    except ValueError:
        return
    for word in words:
        if "/" not in word or word.startswith("-"):
            continue
        word = _PROJECT.sub(base.replace("\\", "\\\\"), word)
        word = re.sub(r"\$\{?HOME\}?", home.replace("\\", "\\\\"), word)
        if word.startswith("~/"):
            word = home + word[1:]
        path = word if os.path.isabs(word) else os.path.join(base, word)
        if os.path.isfile(path):
            yield os.path.realpath(path)
