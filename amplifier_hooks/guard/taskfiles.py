"""The commands a tool's task file runs later: pre-commit's local hooks, VS Code's tasks.

``pre-commit`` runs a ``repo: local`` hook's ``entry`` at every commit once its hooks are
installed; VS Code runs a task when a person starts it by its label (a build, a test), or
as soon as the folder is opened when its ``runOptions.runOn`` is ``folderOpen``: either
way its command line is not shown. Writing one is judged as those commands (`buildfiles`,
`planted`; the task that runs by itself is asked besides, `autoruns`); the files are read
with safe loaders (YAML; JSON with VS Code's ``//`` comments, `jsonc`), never with
patterns over the text.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from typing import Any

import yaml

from amplifier_hooks.guard.jsonc import jsonc_data
from amplifier_hooks.guard.yamltext import yaml_data

__all__ = ["local_hooks", "task_commands"]

_RUN_AS_COMMAND = frozenset({"system", "script", "unsupported", "unsupported_script"})
"""pre-commit's languages whose ``entry`` is a command of this machine (the others install
a package from the hook's own repository into an environment of its own)."""


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


def task_commands(text: str) -> list[str] | None:
    """The command line of each task in a ``.vscode/tasks.json`` text (whole, or an edit's
    members); None: not JSON the guard can read."""
    try:
        data = jsonc_data(text)
    except ValueError:
        return None
    return [
        _joined(command, node.get("args"))
        for node in _mappings(data)
        if isinstance(command := node.get("command"), str)
    ]


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
