"""CI and release configurations: the files whose commands run on another machine with
the repository's secrets, and the scripts they hold.

A GitLab job's ``script:``, a CircleCI ``run:``, a Jenkinsfile's ``sh`` step, Renovate's
``postUpgradeTasks``, a Dockerfile's ``RUN`` and cloud-init's ``runcmd`` all run later, on
a CI runner, a bot, inside an image's build or at a machine's first boot, where the
project's secrets are (a job's variables, a build secret, the bot's token) and where logs
others read are printed. Like a GitHub workflow (`workflows`), writing such a file is
never granted (`grant`), and the scripts it holds are judged as CI steps (`cisteps`). Each
file is read with a safe reader (YAML, JSON, the Dockerfile's instructions, the Groovy
string literals of a Jenkinsfile's steps); what cannot be read is simply not judged (the
write keeps no grant either way).
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex
import textwrap
from collections.abc import Callable, Iterator, Sequence

import yaml

from amplifier_hooks.guard.groovysteps import jenkins_steps
from amplifier_hooks.guard.workflows import is_workflow, run_scripts
from amplifier_hooks.guard.yamltext import yaml_data

__all__ = ["MAX_TEXT", "ci_config", "ci_data", "ci_scripts", "yaml_scripts"]

MAX_TEXT = 256 * 1024
"""Longer text is not read (the write is not granted either way)."""

_YAML_NAMES = {
    ".gitlab-ci.yml": "GitLab CI",
    ".gitlab-ci.yaml": "GitLab CI",
    "bitbucket-pipelines.yml": "Bitbucket Pipelines",
    ".travis.yml": "Travis CI",
    ".drone.yml": "Drone",
    ".woodpecker.yml": "Woodpecker",
    ".cirrus.yml": "Cirrus CI",
    "appveyor.yml": "AppVeyor",
    ".appveyor.yml": "AppVeyor",
    "cloudbuild.yaml": "Cloud Build",
    "cloudbuild.yml": "Cloud Build",
    "buildspec.yml": "CodeBuild",
    ".readthedocs.yaml": "Read the Docs",
    ".readthedocs.yml": "Read the Docs",
}
"""YAML configurations by their name: their script keys are read (`_SCRIPT_KEYS`)."""
_YAML_FOLDERS = {
    ".circleci": "CircleCI",
    ".buildkite": "Buildkite",
    ".woodpecker": "Woodpecker",
    ".azure-pipelines": "Azure Pipelines",
    ".tekton": "Tekton",
}
"""Folders whose YAML files are a CI system's configuration."""
_RENOVATE = frozenset(
    {"renovate.json", "renovate.json5", ".renovaterc", ".renovaterc.json", ".renovaterc.json5"}
)
_AZURE = re.compile(r"^azure-pipelines[\w.-]*\.ya?ml$")
_GITLAB_INCLUDED = re.compile(r"(?:^|/)\.gitlab(?:/ci|-ci)/(?:[^/]+/)*[^/]+\.ya?ml$")
"""The files a ``.gitlab-ci.yml`` includes, by the places GitLab's documentation keeps them."""
_DOCKERFILE = re.compile(r"^(?:(?:Docker|Container)file(?:\.[\w.-]+)?|[\w.-]+\.(?:[Dd]ockerfile))$")
_JENKINSFILE = re.compile(r"^(?:Jenkinsfile(?:\.[\w.-]+)?|[\w.-]+\.[Jj]enkinsfile)$")
_YAML = re.compile(r"\.ya?ml$")
_CLOUD_INIT = re.compile(
    r"^(?:[\w.-]*[-_.])?(?:cloud[-_]init|cloud[-_]config|user[-_]data)[\w.-]*\.ya?ml$"
)
"""A VM image's or instance's cloud-init configuration (``user-data``, ``cloud-init.yaml``):
its ``runcmd``/``bootcmd`` run as root at the machine's first boot."""

_SCRIPT_KEYS = frozenset(
    {"script", "before_script", "after_script", "after-script", "run", "command",
     "commands", "cmd", "cmds", "bash", "sh", "inlineScript", "install", "before_install",
     "after_success", "after_failure", "before_deploy", "after_deploy", "before_cache",
     "hooks", "pre", "post", "entrypoint_script", "build_script", "test_script", "runcmd",
     "bootcmd", "post_checkout", "pre_system_dependencies", "post_system_dependencies",
     "pre_create_environment", "post_create_environment", "pre_install", "post_install",
     "pre_build", "post_build"}
)  # fmt: skip
"""Keys whose value is a script, or a list of them, in the CI systems read as YAML
(GitLab, CircleCI, Azure, Bitbucket, Travis, Drone, Buildkite, goreleaser's hooks, Read
the Docs' build jobs, ...)."""


def ci_config(path: str) -> str | None:
    """The CI system or release tool whose configuration ``path`` is (None: it is none)."""
    if is_workflow(path):
        return "GitHub Actions"
    folder, name = posixpath.split(path)
    parent = posixpath.basename(folder)
    if name in ("action.yml", "action.yaml") and "/.github/" in f"/{folder}/":
        return "GitHub Actions"  # a composite action's steps
    found = _YAML_NAMES.get(name)
    if found is not None:
        return found
    if _YAML.search(name) and parent in _YAML_FOLDERS:
        return _YAML_FOLDERS[parent]
    if _AZURE.match(name):
        return "Azure Pipelines"
    if _GITLAB_INCLUDED.search(path):
        return "GitLab CI"
    if name.endswith(".py") and parent == "dags":
        return "Airflow's scheduler"  # (a DAG runs there, with production's connections)
    if name in _RENOVATE or (name == "default.json" and parent in ("renovate", "renovate-config")):
        return "Renovate"
    if _JENKINSFILE.match(name):
        return "Jenkins"
    if _DOCKERFILE.match(name):
        return "docker build"
    if name == "user-data" or _CLOUD_INIT.match(name):
        return "cloud-init"
    return None


def ci_data(text: str) -> object | None:
    """``text`` read as YAML (JSON is YAML too), dedented (an edit's lines are indented as
    in the file); an object's members without their braces (``"a": 1, "b": 2``, what an
    edit of a JSON file puts in) are read with them. None: it cannot be read."""
    if len(text) > MAX_TEXT:
        return None
    try:
        return yaml_data(text)
    except (yaml.YAMLError, ValueError):
        pass
    try:
        return yaml_data("{" + textwrap.dedent(text).strip().rstrip(",") + "}", dedent=False)
    except (yaml.YAMLError, ValueError):
        return None


def ci_scripts(path: str, text: str) -> tuple[str, ...] | None:
    """The shell scripts ``text``, written into the CI configuration at ``path``, holds
    (None: the text cannot be read, or ``path`` is no CI configuration)."""
    system = ci_config(path)
    if system is None or len(text) > MAX_TEXT:
        return None
    if system == "GitHub Actions":
        return _whole_or_lines(text, run_scripts)
    if system == "Jenkins":
        return jenkins_steps(text)
    if system == "docker build":
        return docker_runs(text)
    if system == "Renovate":
        data = ci_data(text)
        return None if data is None else tuple(_renovate_commands(data))
    return _whole_or_lines(text, yaml_scripts)


def _whole_or_lines(
    text: str, read: Callable[[str], Sequence[str] | None]
) -> tuple[str, ...] | None:
    """The scripts ``read`` finds in ``text``, or, when it is no YAML as a whole (a patch's
    added lines, each indented as in its file), in each line of it read alone."""
    whole = read(text)
    if whole is not None:
        return tuple(whole)
    found: list[str] = []
    for line in text.splitlines():
        item = line.strip().removeprefix("- ").strip()
        if ":" in item:
            found.extend(read(item) or ())
    return tuple(found)


def yaml_scripts(text: str) -> list[str] | None:
    """The scripts under the script keys of a YAML configuration (goreleaser's hooks, which
    run where goreleaser runs: `buildfiles`); None: it cannot be read."""
    data = ci_data(text)
    return None if data is None else list(_scripts(data))


def _scripts(data: object) -> Iterator[str]:
    """The strings under every script key of ``data``, and of the lists below them."""
    stack: list[tuple[object, bool]] = [(data, False)]
    while stack:
        node, scripted = stack.pop()
        if isinstance(node, str):
            if scripted:
                yield node
        elif isinstance(node, dict):
            for key, value in node.items():
                stack.append((value, key in _SCRIPT_KEYS))
        elif isinstance(node, list):
            stack.extend((item, scripted) for item in reversed(node))


def _renovate_commands(data: object) -> Iterator[str]:
    """The commands of Renovate's ``postUpgradeTasks`` (wherever a package rule has them)."""
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "postUpgradeTasks" and isinstance(value, dict):
                    commands = value.get("commands")
                    if isinstance(commands, list):
                        yield from (c for c in commands if isinstance(c, str))
                else:
                    stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)


# -- a Dockerfile's RUN instructions ---------------------------------------------------------

_RUN = re.compile(r"^\s*RUN\s+(.*)$", re.IGNORECASE | re.DOTALL)


def docker_runs(text: str) -> tuple[str, ...] | None:
    """The shell scripts of a Dockerfile's ``RUN`` instructions (their ``--mount``,
    ``--network`` and ``--security`` options left out; an exec form's words quoted as the
    command they are). None: a heredoc's body (``RUN <<EOF``), which is not read."""
    found: list[str] = []
    for instruction in _instructions(text):
        match = _RUN.match(instruction)
        if match is None:
            continue
        body = match.group(1).strip()
        while body.startswith("--"):
            _, _, body = body.partition(" ")
            body = body.lstrip()
        if body.startswith("<<"):
            return None
        if body.startswith("["):
            try:
                words = json.loads(body)
            except ValueError:
                return None
            if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
                return None
            body = shlex.join(words)
        if body:
            found.append(body)
    return tuple(found)


def _instructions(text: str) -> Iterator[str]:
    """A Dockerfile's instructions, each with its continued lines (``\\`` at a line's end)
    joined, comments and blank lines left out."""
    current: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not current and (not stripped or stripped.startswith("#")):
            continue
        if current and stripped.startswith("#"):
            continue  # a comment inside a continued instruction
        if stripped.endswith("\\"):
            current.append(stripped[:-1].rstrip())
            continue
        current.append(stripped)
        yield " ".join(current)
        current = []
    if current:
        yield " ".join(current)
