"""The commands in files that `laterfiles` names and whose commands a tool runs later of
its own accord: a dev container's lifecycle commands (``postCreateCommand``), lint-staged's
commands (at every git commit), Mercurial's ``[hooks]`` (at every hg command), an Unreal
project's build steps (at every build), a deploy platform's build, release and start
commands (at the next deploy, on its builders, with the site's secrets) and mise's hooks
(at every ``cd`` into the folder) and tasks, a debugger's init file's ``shell`` lines
(gdb's and lldb's, when they start in the project).

Each lister returns the command lines, judged as planted shell (`buildfiles.planted_code`);
None where the text cannot be read (then the write stays ungranted, as any later file's).
"""

from __future__ import annotations

import re
import shlex
import tomllib
from collections.abc import Callable

import yaml

from amplifier_hooks.guard.docsources import latexmkrc_commands
from amplifier_hooks.guard.fleetcode import fleet_commands
from amplifier_hooks.guard.jsonc import jsonc_data
from amplifier_hooks.guard.spelledcode import manifest_scripts
from amplifier_hooks.guard.yamltext import LOADER

__all__ = [
    "LISTERS",
    "debugger_commands",
    "devcontainer_commands",
    "hgrc_hooks",
    "lint_staged_commands",
    "mise_commands",
    "platform_commands",
    "unreal_steps",
]

_LIFECYCLE = frozenset(
    {"initializeCommand", "onCreateCommand", "updateContentCommand", "postCreateCommand",
     "postStartCommand", "postAttachCommand"}
)  # fmt: skip
"""The dev container spec's commands (``initializeCommand`` runs on the host itself)."""


def devcontainer_commands(text: str) -> list[str] | None:
    """The lifecycle commands of a ``devcontainer.json``: a string is a shell's line, a
    list one program and its words, a mapping several commands run side by side; and
    the container's own ``docker run`` (`_container_run`)."""
    try:
        data = jsonc_data(text)  # (an edit's members too: `"postStartCommand": "...",`)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    found: list[str] = []
    for key in sorted(_LIFECYCLE & data.keys()):
        value = data[key]
        values = list(value.values()) if isinstance(value, dict) else [value]
        found.extend(line for item in values if (line := _line(item)) is not None)
    run = _container_run(data)
    return [*found, run] if run is not None else found


_LOCAL = re.compile(r"\$\{localWorkspaceFolder\}|\$\{localEnv:(\w+)(?::[^}]*)?\}")
"""The spec's variables of the host: the project's folder, the host's environment."""


def _container_run(data: dict[str, object]) -> str | None:
    """The ``docker run`` the dev container's ``runArgs`` and ``mounts`` make (its host
    mounts, privileges, network), read as that command; None: it names neither."""
    args = data.get("runArgs")
    mounts = data.get("mounts")
    words = [a for a in args if isinstance(a, str)] if isinstance(args, list) else []
    for mount in mounts if isinstance(mounts, list) else []:
        if isinstance(mount, str):
            words += ["--mount", mount]
        elif isinstance(mount, dict):
            words += ["--mount", ",".join(f"{k}={v}" for k, v in mount.items())]
    if not words:
        return None
    local = [_LOCAL.sub(lambda m: f"${m[1]}" if m[1] else ".", w) for w in words]
    return shlex.join(["docker", "run", *local, "devcontainer"])


def _line(item: object) -> str | None:
    if isinstance(item, str):
        return item
    if isinstance(item, list) and item and all(isinstance(w, str) for w in item):
        return shlex.join(item)
    return None


def lint_staged_commands(text: str) -> list[str] | None:
    """The commands of a lint-staged configuration (JSON or YAML): each glob's command,
    or list of commands, run on the staged files at every git commit."""
    try:
        data = yaml.load(text, Loader=LOADER)  # (libyaml's: `yamltext`)
    except yaml.YAMLError:
        return None
    if not isinstance(data, dict):
        return None
    found: list[str] = []
    for value in data.values():
        items = value if isinstance(value, list) else [value]
        found.extend(item for item in items if isinstance(item, str))
    return found


_SECTION = re.compile(r"^\[([^\]]+)\]\s*$")
_SETTING = re.compile(r"^([^=#;\s][^=]*?)\s*=\s*(.*)$")


def hgrc_hooks(text: str) -> list[str]:
    """The shell commands of an ``hgrc``'s ``[hooks]`` section (``python:`` hooks name a
    module's function, not a command: read as the words they are)."""
    found: list[str] = []
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        header = _SECTION.match(line)
        if header is not None:
            section = header.group(1).strip().lower()
            continue
        setting = _SETTING.match(line)
        if section == "hooks" and setting is not None and setting.group(2):
            found.append(setting.group(2))
    return found


_UNREAL_STEPS = ("PreBuildSteps", "PostBuildSteps")


def unreal_steps(text: str) -> list[str]:
    """The shell lines of an Unreal project's or plugin's ``PreBuildSteps`` and
    ``PostBuildSteps`` (per platform), which every build of it runs."""
    return manifest_scripts(text, _UNREAL_STEPS)


_PLATFORM_KEYS = frozenset(
    {"command", "buildCommand", "installCommand", "devCommand", "ignoreCommand",
     "startCommand", "preDeployCommand", "release_command", "predeploy", "postdeploy",
     "cmd", "entrypoint"}
)  # fmt: skip
"""Netlify's ``[build] command``, Vercel's ``buildCommand`` and ``installCommand``,
Render's and Railway's ``preDeployCommand`` and ``startCommand``, Fly's
``release_command``, Firebase's ``predeploy`` hooks: the keys whose value is a command."""


def platform_commands(text: str) -> list[str] | None:
    """The commands of a deploy platform's file (``netlify.toml``, ``vercel.json``,
    ``fly.toml``, ``render.yaml``, ``firebase.json``, ``railway.json``), read as TOML,
    else as YAML (JSON is YAML; an edit's ``"key": "value"`` lines are too): the strings
    under its command keys, wherever they are. None: the text reads as neither."""
    data: object
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        try:
            data = yaml.load(text, Loader=LOADER)
        except yaml.YAMLError:
            return None
    found: list[str] = []
    stack: list[tuple[object, bool]] = [(data, False)]
    while stack:
        node, command = stack.pop()
        if isinstance(node, str) and command:
            found.append(node)
        elif isinstance(node, dict):
            stack.extend((v, k in _PLATFORM_KEYS) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((item, command) for item in node)
    return found


def mise_commands(text: str) -> list[str] | None:
    """The commands of a mise configuration: its ``[hooks]`` (``enter``, ``cd``,
    ``preinstall``...: a line, a list of lines, or a table with ``run``), its tasks' ``run``
    and ``[env]``'s ``_.source`` scripts (sourced by the shell at every ``cd``)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    found: list[str] = []
    hooks = data.get("hooks")
    for value in hooks.values() if isinstance(hooks, dict) else ():
        for item in value if isinstance(value, list) else [value]:
            run = item.get("run") if isinstance(item, dict) else item
            found.extend(_lines(run))
    tasks = data.get("tasks")
    for task in tasks.values() if isinstance(tasks, dict) else ():
        found.extend(_lines(task.get("run") if isinstance(task, dict) else task))
    env = data.get("env")
    source = env.get("_", {}).get("source") if isinstance(env, dict) and isinstance(
        env.get("_"), dict) else None  # fmt: skip
    found.extend(f". {shlex.quote(path)}" for path in _lines(source))
    return found


def _lines(value: object) -> list[str]:
    """A command line, or a list of them."""
    items = value if isinstance(value, list) else [value]
    return [item for item in items if isinstance(item, str)]


_DEBUGGER_SHELL = re.compile(r"^\s*(?:shell|!|platform\s+shell)\s+(\S.*)$", re.M)


def debugger_commands(text: str) -> list[str]:
    """The shell lines of a ``.gdbinit`` or ``.lldbinit`` (``shell CMD``, ``!CMD``, lldb's
    ``platform shell CMD``): the debugger runs each as it starts."""
    return _DEBUGGER_SHELL.findall(text)


LISTERS: dict[str, Callable[[str], list[str] | None]] = {
    "devcontainer": devcontainer_commands,
    "lint-staged": lint_staged_commands,
    "hgrc": hgrc_hooks,
    "latexmkrc": latexmkrc_commands,  # (`docsources`)
    "unreal-steps": unreal_steps,
    "platform-build": platform_commands,
    "fleet": fleet_commands,
    "mise": mise_commands,
    "debugger-init": debugger_commands,
}
"""The readers above by the name `laterfiles` gives their files' runner."""
