"""Files that run code later by what they say, not by their names: read from the text a
write, an edit or a patch puts into them.

- A VS Code task with ``runOptions.runOn: folderOpen`` runs its command as soon as the
  folder is opened, with no one asking (`EDITOR_AUTORUN`). Its command is judged too, as
  planted code (`planted`); this asks even when the command looks harmless, since running
  by itself is the person's choice.
- A VS Code setting that names a program the editor runs (an interpreter or a tool's
  ``...Path``, the terminal's shell, profiles and environment) runs that program whenever
  the editor needs it (`EDITOR_PROGRAM`). The project's own virtual environment's Python
  (``.venv/bin/python``), which VS Code would pick itself, is not asked.
- A VS Code setting that approves the editor's agent's tool calls by itself
  (``chat.tools.autoApprove``, ``chat.tools.global.autoApprove``, the terminal's
  ``chat.tools.terminal.autoApprove`` list) switches off the approval another host asks
  for (`EDITOR_APPROVAL_OFF`), as changing an agent CLI's settings would; set to
  ``false`` it only asks again.
- A bundler's configuration whose ``define`` puts the whole environment into the client's
  bundle (`clientenv`).
- A GitHub workflow started by ``pull_request_target`` or ``workflow_run`` runs with the
  repository's secrets and a token that can write; one that checks out or uses the pull
  request's own code (``${{ github.event.pull_request.head.sha }}``, ``github.head_ref``)
  runs code anyone who opens a pull request wrote, with them (`CI_UNTRUSTED`). An edit's
  trigger may be in the part of the file it keeps, so the file as it is is read too (an
  edit of a file there is no reading of leaves its triggers unknown: asked). When such a
  workflow, on a trigger in view, also has ``run:`` steps, the pull request's code runs
  there with the secrets (``npm ci`` runs its install scripts, ``make`` its Makefile):
  `CI_UNTRUSTED_RUN`.

The texts are read with readers, not patterns: JSONC tokens (`jsontokens`), YAML line by
line (an edit's lines are rarely a whole document), and the ``${{ }}`` expressions.
Everyday edits (``"editor.tabSize": 4``, a workflow on ``pull_request``) stay free.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

import yaml

from amplifier_hooks.guard.clientenv import client_env_marks
from amplifier_hooks.guard.jsontokens import MAX_TEXT, pairs
from amplifier_hooks.guard.toolpolicy import policy_marks
from amplifier_hooks.guard.workflows import is_workflow, on_disk, run_scripts

__all__ = [
    "CI_UNTRUSTED",
    "CI_UNTRUSTED_RUN",
    "EDITOR_APPROVAL_OFF",
    "EDITOR_AUTORUN",
    "EDITOR_PROGRAM",
    "autorun_marks",
]

EDITOR_AUTORUN = "@editor-autorun"
EDITOR_PROGRAM = "@editor-program"
EDITOR_APPROVAL_OFF = "@editor-approval-off"
CI_UNTRUSTED = "@ci-untrusted-code"
CI_UNTRUSTED_RUN = "@ci-untrusted-code-run"

_TERMINAL = ("terminal.integrated.env.", "terminal.integrated.profiles.",
             "terminal.integrated.shell.", "terminal.integrated.shellargs.",
             "terminal.integrated.automationprofile.",
             "terminal.integrated.automationshell.")  # fmt: skip
"""Settings that set the program VS Code's terminal runs, or the variables it runs with
(``BASH_ENV``, ``PATH``)."""
_PROGRAM_ENDS = ("path", "commandline", "tsdk")
"""The last word of a setting that names a program or a folder of code the editor runs
(``python.defaultInterpreterPath``, ``git.path``, ``eslint.nodePath``,
``rust-analyzer.server.path``, ``jest.jestCommandLine``, ``typescript.tsdk``)."""
_VENVS = frozenset({".venv", "venv"})
_PYTHONS = re.compile(r"python(?:3(?:\.\d+)?)?(?:\.exe)?\Z")
_TRIGGERS = frozenset({"pull_request_target", "workflow_run"})
_EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}", re.DOTALL)
_HEADS = ("github.event.pull_request.head.", "github.head_ref",
          "github.event.workflow_run.head_", "github.event.pull_request.merge_commit_sha",
          "refs/pull/")  # fmt: skip
"""What names the pull request's own code in an expression."""
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def autorun_marks(path: str, text: str, editing: bool) -> tuple[str, ...]:
    """The marks of writing ``text`` into ``path`` (resolved; ``editing``: the text goes
    into the file as it is, which is read for what the text leaves out)."""
    if not text or len(text) > MAX_TEXT:
        return ()
    folder, name = posixpath.split(path)
    if ".config." in name:  # a bundler's configuration (`clientenv`)
        return client_env_marks(path, text)
    opened = policy_marks(path, text)  # a document tool's sandbox opened (`toolpolicy`)
    if opened:
        return opened
    if posixpath.basename(folder) == ".vscode" or name.endswith(".code-workspace"):
        return _editor_marks(name, text)
    if not (is_workflow(path) and _uses_pr_code(text)):
        return ()
    current = on_disk(path) if editing else ""
    known = _untrusted(text) or _untrusted(current)
    if known and run_scripts(text):
        return (CI_UNTRUSTED_RUN,)
    return (CI_UNTRUSTED,) if known or (editing and not current) else ()


def _editor_marks(name: str, text: str) -> tuple[str, ...]:
    marks: list[str] = []
    tasks, settings = name == "tasks.json", name != "tasks.json"
    for key, value in pairs(text):
        if tasks and key == "runOn" and value.kind == "string" and value.text == "folderOpen":
            marks.append(EDITOR_AUTORUN)
        elif settings and key == "task.allowAutomaticTasks" and value.text == "on":
            marks.append(EDITOR_AUTORUN)  # every folderOpen task then runs with no prompt
        elif settings and _runs_program(key, value.text if value.kind == "string" else None):
            marks.append(EDITOR_PROGRAM)
        elif settings and key.lower().endswith("autoapprove") and value.text != "false":
            marks.append(EDITOR_APPROVAL_OFF)  # (an object of commands approves those)
    return tuple(dict.fromkeys(marks))


def _runs_program(key: str, value: str | None) -> bool:
    lowered = key.lower()
    if lowered.startswith(_TERMINAL):
        return True
    if not lowered.rpartition(".")[2].endswith(_PROGRAM_ENDS) or "." not in lowered:
        return False
    return value is None or not _venv_python(value)


def _venv_python(value: str) -> bool:
    """Whether ``value`` is a virtual environment's Python of the project (``.venv/bin/
    python3``, ``${workspaceFolder}\\venv\\Scripts\\python.exe``): inside the workspace,
    by a relative path."""
    parts = value.replace("\\", "/").split("/")
    if parts[0] in ("${workspaceFolder}", "."):
        parts = parts[1:]
    return (
        len(parts) == 3 and parts[0] in _VENVS and parts[1] in ("bin", "Scripts")
        and bool(_PYTHONS.match(parts[2]))
    )  # fmt: skip


def _uses_pr_code(text: str) -> bool:
    if "refs/pull/${{" in text:  # ``refs/pull/${{ github.event.number }}/merge``
        return True
    return any(head in e for e in _EXPRESSION.findall(text) for head in _HEADS)


def _untrusted(text: str) -> bool:
    """Whether ``text`` (a workflow, or lines of one) names a trigger that runs with the
    repository's secrets for others' pull requests. Read line by line as YAML: an edit's
    lines are rarely a document; a key or a value of a line that is the trigger's name."""
    for line in text.splitlines():
        if not any(t in line for t in _TRIGGERS):
            continue
        try:
            data = yaml.load(line.strip(), Loader=_LOADER)
        except yaml.YAMLError:
            continue
        if not _TRIGGERS.isdisjoint(_names(data)):
            return True
    return False


def _names(data: object) -> set[str]:
    found: set[str] = set()
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            found.add(node)
        elif isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found
