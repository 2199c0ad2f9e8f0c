"""Code a configuration manager runs on the machines it manages: Ansible's tasks and
playbooks, Puppet's manifests, Chef's recipes, Salt's states, cloud-init's first-boot
config (and Home Assistant's ``configuration.yaml``, whose ``shell_command`` entries its
host runs).

Such a file runs later, on every host it reaches, often as root, when someone applies it:
a write into it is planted code, never granted (`buildfiles.runs_later`). The commands it
spells out (Ansible's ``shell:``/``command:``, Puppet's ``exec { command => ... }``,
Chef's ``execute``/``bash``, Salt's ``cmd.run``, cloud-init's ``runcmd``) are read, and
those that fetch code and run it (``curl URL | bash``) are denied as planted: the rest
configure servers, which is the file's job, and is judged when it is applied
(`fleetruns`). What a change to it does besides (every host at once, a condition that kept
a task off production dropped) is marked `ROLLOUT_WIDENED`.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Iterator, Mapping
from typing import Any

import yaml

from amplifier_hooks.guard.changedtext import more
from amplifier_hooks.guard.ignorefiles import edit_pairs

__all__ = ["ROLLOUT_WIDENED", "fleet_commands", "fleet_system", "widens_rollout"]

ROLLOUT_WIDENED = "@fleet-rollout-widened"
_ANSIBLE_FOLDERS = frozenset({"tasks", "handlers", "playbooks", "plays"})
_ANSIBLE_KEYS = frozenset(
    f"{prefix}{module}"
    for prefix in ("", "ansible.builtin.", "ansible.legacy.", "ansible.windows.")
    for module in ("shell", "command", "raw", "script", "win_shell", "win_command")
)
"""The task modules whose value is a command line (`_commands_in`)."""
_SALT_KEYS = frozenset({"cmd.run", "cmd.wait", "cmd.script", "cmd.shell"})
_CLOUD_KEYS = frozenset({"runcmd", "bootcmd"})
_QUOTED = r"""(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")"""
"""A quoted string (single or double), its text in one of two groups."""
_PUPPET = re.compile(rf"\b(?:command|unless|onlyif)\s*=>\s*{_QUOTED}")
_CHEF_COMMAND = re.compile(rf"^\s*(?:command|execute)\s+{_QUOTED}", re.M)
_CHEF_CODE = re.compile(r"^\s*code\s+<<[-~]?['\"]?(\w+)['\"]?\s*\n(.*?)^\s*\1\s*$", re.M | re.S)
_LINE_KEY = re.compile(r"^(\s*)(?:-\s+)?(?P<key>[\w.]+):\s*(?P<value>.*)$")
"""A YAML line ``key: value`` (an edit's fragment is often no YAML document)."""
_MAX_COMMANDS = 64


def fleet_system(path: str) -> str | None:
    """The configuration manager that runs the file at ``path`` on its hosts, or None."""
    folder, name = posixpath.split(path.lower())
    parent = posixpath.basename(folder)
    if name.endswith(".pp"):
        return "puppet"
    if name.endswith(".sls"):
        return "salt"
    if name.endswith(".rb") and parent == "recipes":
        return "chef"
    if parent in ("cloud-init", "cloud-config") or name.startswith(("user-data", "cloud-config")):
        return "cloud-init"
    if name == "configuration.yaml" and parent in ("homeassistant", "home-assistant"):
        return "home assistant"  # its shell_command and command_line sensors run on its host
    if not name.endswith((".yml", ".yaml")):
        return None
    if parent in _ANSIBLE_FOLDERS or "playbook" in name or name in ("site.yml", "site.yaml"):
        return "ansible"
    return None


def fleet_commands(text: str) -> list[str]:
    """The command lines ``text`` (a manifest, recipe, state, playbook or cloud-config, or
    a fragment of one) spells out."""
    found = [a or b for a, b in _PUPPET.findall(text)]
    found += [a or b for a, b in _CHEF_COMMAND.findall(text)]
    found += [code for _, code in _CHEF_CODE.findall(text)]
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        data = None
    if isinstance(data, (dict, list)):
        found += list(_commands_in(data))
    else:  # a fragment: the lines that set a command module's value
        found += _line_commands(text)
    return [c for c in found if c.strip()][:_MAX_COMMANDS]


def _commands_in(data: object, depth: int = 0) -> Iterator[str]:
    if depth > 12:
        return
    if isinstance(data, list):
        for item in data:
            yield from _commands_in(item, depth + 1)
        return
    if not isinstance(data, Mapping):
        return
    for key, value in data.items():
        key = str(key)
        if key in _ANSIBLE_KEYS or key in _CLOUD_KEYS:
            yield from _command_values(value)
        elif key == "shell_command" and isinstance(value, Mapping):  # Home Assistant's
            yield from (v for v in value.values() if isinstance(v, str))
        elif key in _SALT_KEYS and isinstance(value, list):
            for item in value:
                if isinstance(item, Mapping) and isinstance(item.get("name"), str):
                    yield item["name"]
        else:
            yield from _commands_in(value, depth + 1)


def _command_values(value: object) -> Iterator[str]:
    """A command module's value: a line, ``{cmd: ...}`` or ``{argv: [...]}``, or
    cloud-init's list of lines and argument lists."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        if isinstance(value.get("cmd"), str):
            yield value["cmd"]
        argv = value.get("argv")
        if isinstance(argv, list) and all(isinstance(w, str) for w in argv):
            yield shlex.join(argv)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, list) and all(isinstance(w, str) for w in item):
                yield shlex.join(item)
            elif isinstance(item, str):
                yield item


def _line_commands(text: str) -> list[str]:
    found: list[str] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        match = _LINE_KEY.match(line)
        if match is None or match["key"] not in _ANSIBLE_KEYS | {"cmd"}:
            continue
        value = match["value"].strip()
        if value in ("|", ">", "|-", ">-"):  # a block: the lines indented below it
            indent = len(match.group(1)) + 1
            block = []
            for below in lines[i + 1 :]:
                if below.strip() and len(below) - len(below.lstrip()) < indent:
                    break
                block.append(below.strip())
            found.append("\n".join(block))
        elif value and value[0] not in "{[":
            found.append(value.strip("'\""))
    return found


_ROLLOUT = re.compile(
    r"^\s*(?:serial:\s*['\"]?100%|max_fail_percentage:\s*100\b|any_errors_fatal:\s*false)",
    re.M,
)
_PRODUCTION_WHEN = re.compile(r"^\s*when:.*\bprod(?:uction)?\b", re.M | re.I)


def widens_rollout(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """Whether an edit of a playbook makes it run on every host at once or through every
    failure (``serial: "100%"``, ``max_fail_percentage: 100``), or drops a ``when:`` that
    named production (a task kept off it now runs there); or whether a staged rollout's
    settings send it to every device at once (`_to_everyone`)."""
    if any(_ROLLOUT_FILE.search(p) for p in paths) and any(
        _to_everyone(old, new) for old, new in edit_pairs(inputs)
    ):
        return True
    if not any(fleet_system(p) == "ansible" for p in paths):
        return False
    for old, new in edit_pairs(inputs):
        if _ROLLOUT.search(new) and not _ROLLOUT.search(old):
            return True
        if len(_PRODUCTION_WHEN.findall(new)) < len(_PRODUCTION_WHEN.findall(old)):
            return True
    return False


_ROLLOUT_FILE = re.compile(r"(?:^|/)(?:ota|rollouts?|canary|releases?)/|rollout[^/]*\Z", re.I)
"""A staged rollout's settings (an over-the-air update's cohorts, a canary's weights)."""
_SHARE = re.compile(
    r"\b(?P<key>percent(?:age)?|rollout_?percent(?:age)?|weight|traffic|fraction)[\"']?\s*[:=]\s*"
    r"[\"']?(?P<n>\d+(?:\.\d+)?)",
    re.I,
)
_ALL = re.compile(
    r"\b(?:cohort|ring|group|audience|segment|target)[\"']?\s*[:=]\s*[\"']?all\b", re.I
)


def _to_everyone(old: str, new: str) -> bool:
    """A staged rollout's share raised to all (``percentage: 5`` made ``100``), or its
    cohort made ``all``."""
    before = {m["key"].lower(): float(m["n"]) for m in _SHARE.finditer(old)}
    for found in _SHARE.finditer(new):
        was = before.get(found["key"].lower())
        if was is not None and was < 50 and float(found["n"]) >= 100:
            return True
    return more(_ALL, old, new)
