"""A CI workflow's ``run:`` steps, read as the shell scripts they are.

Writing ``.github/workflows/x.yml`` writes code that runs on the CI machine with the
repository's secrets, on the next push, and prints into logs others read. So the guard
reads each ``run:`` of the text a write or an edit puts there (YAML, read with a safe
loader: never a pattern over the text), and judges each script's commands as pieces marked
`CI_STEP`. They run on another machine, so the rules about this machine's places do not
apply to them: only the rules that name the mark do (`Policy.for_ci_steps`), and those are
about what a step sends out or prints (``env | curl``, ``echo "${{ secrets.X }}" |
base64``). A secret of the workflow's, ``${{ secrets.NAME }}``, is read as the variable
``$SECRETS_NAME``, so it reads like a secret whatever its name; any other ``${{ }}`` as a
variable of its own (its value is known only on CI). The write itself is never granted (a
grant does not change ``.github``: `grant.CONFIG_NAMES`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

import yaml

from amplifier_hooks.guard.yamltext import yaml_data

__all__ = ["CI_STEP", "is_workflow", "on_disk", "run_scripts", "self_hosted_scripts"]

CI_STEP = "@ci-step"
"""The mark of a piece read from a workflow's ``run:`` step."""

_WORKFLOW = re.compile(r"(?:^|/)\.github/workflows/[^/]+\.ya?ml$")
_SECRET = re.compile(r"\$\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
_EXPRESSION = re.compile(r"\$\{\{.*?\}\}", re.DOTALL)
_SECRETS = re.compile(r"\bsecrets\b")
MAX_TEXT = 256 * 1024
"""Longer text is not read (its steps are not judged; the write is not granted anyway)."""


def on_disk(path: str) -> str:
    """The workflow file as it is now, for an edit's fragment to be read beside (its
    triggers, its runners); empty when it is not there, or too long to read."""
    try:
        if os.path.getsize(path) > MAX_TEXT:
            return ""
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except (OSError, ValueError):
        return ""


def is_workflow(path: str) -> bool:
    """Whether ``path`` names a GitHub Actions workflow file."""
    return bool(_WORKFLOW.search(path))


def run_scripts(text: str) -> tuple[str, ...] | None:
    """The scripts of every ``run:`` in ``text`` (a whole workflow, or the lines an edit
    puts into one), with ``${{ }}`` expressions as variables; None when the text is not
    YAML the guard can read."""
    if len(text) > MAX_TEXT:
        return None
    try:
        data = yaml_data(text)
    except yaml.YAMLError:
        return None
    return tuple(_as_shell(script) for script in _runs(data))


def self_hosted_scripts(text: str) -> frozenset[str]:
    """The scripts (as `run_scripts` gives them) of the jobs of a whole workflow ``text``
    that run on a self-hosted runner (``runs-on: [self-hosted, ...]``): a machine of the
    person's or their organisation's, which keeps what a step leaves and reaches what it
    reaches, not CI's throwaway one. Empty when none does, or the jobs are not in view."""
    if len(text) > MAX_TEXT or "self-hosted" not in text:
        return frozenset()
    try:
        data = yaml_data(text)
    except yaml.YAMLError:
        return frozenset()
    jobs = data.get("jobs") if isinstance(data, dict) else None
    if not isinstance(jobs, dict):
        return frozenset()
    return frozenset(_as_shell(script) for job in jobs.values()
                     if isinstance(job, dict) and _self_hosted(job.get("runs-on"))
                     for script in _runs(job))  # fmt: skip


def _self_hosted(runs_on: object) -> bool:
    if isinstance(runs_on, dict):  # {group: ..., labels: [...]}
        runs_on = runs_on.get("labels")
    labels = [runs_on] if isinstance(runs_on, str) else runs_on
    return isinstance(labels, list) and "self-hosted" in labels


def _runs(data: object) -> Iterator[str]:
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "run" and isinstance(value, str):
                    yield value
                else:
                    stack.append(value)
        elif isinstance(node, list):
            stack.extend(reversed(node))


def _as_shell(script: str) -> str:
    script = _SECRET.sub(lambda m: "${SECRETS_" + m.group(1).upper() + "}", script)
    return _EXPRESSION.sub(_expression, script)


def _expression(match: re.Match[str]) -> str:
    """Any other expression, as a variable: one that reads the secrets as a whole
    (``toJSON(secrets)``, ``secrets[inputs.name]``) reads like a secret."""
    return "${SECRETS_EXPRESSION}" if _SECRETS.search(match.group()) else "${GITHUB_EXPRESSION}"
