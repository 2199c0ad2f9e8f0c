"""The commands a tool's task file runs by itself: pre-commit's local hooks, VS Code's
tasks that run when the folder opens.

``pre-commit`` runs a ``repo: local`` hook's ``entry`` at every commit once its hooks are
installed; VS Code runs a task whose ``runOptions.runOn`` is ``folderOpen`` as soon as the
folder is opened. Writing one is judged as those commands (`buildfiles`, `planted`); the
files are read with safe loaders (YAML; JSON with VS Code's ``//`` comments left out),
never with patterns over the text.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator
from typing import Any

import yaml

from amplifier_hooks.guard.yamltext import yaml_data

__all__ = ["folder_open_tasks", "local_hooks"]

_RUN_AS_COMMAND = frozenset({"system", "script", "unsupported", "unsupported_script"})
"""pre-commit's languages whose ``entry`` is a command of this machine (the others install
a package from the hook's own repository into an environment of its own)."""
_COMMENT = re.compile(r"^\s*//.*$", re.MULTILINE)


def local_hooks(text: str) -> list[str] | None:
    """The command line of each hook in a ``.pre-commit-config.yaml`` text (whole, or an
    edit's lines) whose ``entry`` runs on this machine; None: not YAML."""
    try:
        data = yaml_data(text)
    except yaml.YAMLError:
        return None
    found: list[str] = []
    for node in _mappings(data):
        entry, language = node.get("entry"), node.get("language")
        if isinstance(entry, str) and language in _RUN_AS_COMMAND:
            found.append(_joined(entry, node.get("args")))
    return found


def folder_open_tasks(text: str) -> list[str] | None:
    """The command line of each task in a ``.vscode/tasks.json`` text that runs when the
    folder opens; None: not JSON the guard can read."""
    try:
        data = json.loads(_COMMENT.sub("", text))
    except ValueError:
        return None
    found: list[str] = []
    for node in _mappings(data):
        options = node.get("runOptions")
        command = node.get("command")
        runs = isinstance(options, dict) and options.get("runOn") == "folderOpen"
        if runs and isinstance(command, str):
            found.append(_joined(command, node.get("args")))
    return found


def _joined(command: str, args: object) -> str:
    words = [a for a in args if isinstance(a, str)] if isinstance(args, list) else []
    return " ".join([command, *(shlex.quote(w) for w in words)])


def _mappings(data: object) -> Iterator[dict[str, Any]]:
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            yield node
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
