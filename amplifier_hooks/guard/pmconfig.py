"""A package manager's settings file, read as the ``config set`` commands it amounts to.

A project's ``.npmrc`` (``script-shell=``, ``node-options=``, ``registry=``),
``.yarnrc.yml`` (``yarnPath:``, ``npmRegistryServer:``) or ``.yarnrc`` decides what runs
every later install's scripts, what every ``node`` it starts loads first, and where
packages come from. Writing one is judged as setting each key from the command line
(``npm config set KEY VALUE``), so the rules on those settings judge both
(`buildfiles`, `planted`). Read with a safe loader (YAML) or line by line as npm and yarn
read them, never with patterns over the values.
"""

from __future__ import annotations

import shlex

import yaml

from amplifier_hooks.guard.yamltext import yaml_data

__all__ = ["npmrc_settings", "yarnrc_settings", "yarnrc_yml_settings"]

MAX_SETTINGS = 64


def npmrc_settings(text: str) -> list[str]:
    """``npm config set KEY VALUE`` for each ``KEY=VALUE`` line of an ``.npmrc``."""
    found: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith((";", "#")):
            continue
        key, equals, value = line.partition("=")
        if equals and key.strip():
            found.append(_set("npm", key.strip(), value.strip().strip("'\"")))
    return found[:MAX_SETTINGS]


def yarnrc_settings(text: str) -> list[str]:
    """``yarn config set KEY VALUE`` for each ``KEY VALUE`` line of a (classic) ``.yarnrc``."""
    found: list[str] = []
    for line in text.splitlines():
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            continue
        if len(words) >= 2:
            found.append(_set("yarn", words[0], " ".join(words[1:])))
    return found[:MAX_SETTINGS]


def yarnrc_yml_settings(text: str) -> list[str] | None:
    """``yarn config set KEY VALUE`` for each top-level scalar of a ``.yarnrc.yml``; None:
    not YAML."""
    try:
        data = yaml_data(text)
    except yaml.YAMLError:
        return None
    if not isinstance(data, dict):
        return []
    return [_set("yarn", str(k), str(v)) for k, v in data.items()
            if isinstance(v, str | int | bool)][:MAX_SETTINGS]  # fmt: skip


def _set(program: str, key: str, value: str) -> str:
    return shlex.join((program, "config", "set", key, value))
