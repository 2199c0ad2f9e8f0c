"""A compose file's services, read as the ``docker run`` commands ``docker compose up`` makes.

``docker compose up`` runs what a compose file says with the daemon's power: a restart
policy that brings the service back at every boot, a mount of the home folder, a
privileged container. Writing such a file is judged as running those containers (the same
rules as ``docker run``: `planted`), never by patterns over the text: the YAML is read
with a safe loader, whole or as the lines an edit puts in.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

import yaml

from amplifier_hooks.guard.yamltext import yaml_data

__all__ = ["compose_runs"]

_SERVICE_KEYS = frozenset(
    {"image", "build", "restart", "volumes", "privileged", "command", "network_mode", "pid",
     "cap_add", "devices", "ports", "environment"}
)  # fmt: skip
"""Keys that make a mapping a service (an edit's lines may hold one without ``services``)."""
_HOST_PATH = ("/", "~", ".", "$")
_HOME = re.compile(r"^\$(?:\{HOME\}|HOME\b)")
"""Compose fills ``${HOME}`` in from the environment: the home folder."""


def compose_runs(text: str) -> list[str] | None:
    """The ``docker run`` command of each service in ``text`` whose options reach past its
    container (a restart policy, a host mount, privileges, the host's network or process
    namespace, a device); None when the text is not YAML the guard can read."""
    try:
        data = yaml_data(text)
    except yaml.YAMLError:
        return None
    return [command for service in _services(data) if (command := _run(service)) is not None]


def _services(data: object) -> list[dict[str, Any]]:
    if not isinstance(data, dict):
        return []
    if not _SERVICE_KEYS.isdisjoint(data):
        return [data]  # the lines of one service
    services = data.get("services", data)
    if not isinstance(services, dict):
        return []
    return [s for s in services.values() if isinstance(s, dict)]


def _run(service: dict[str, Any]) -> str | None:
    words: list[str] = []
    restart = service.get("restart")
    if isinstance(restart, str) and restart != "no":
        words.append(f"--restart={restart}")
    if service.get("privileged") is True:
        words.append("--privileged")
    for key, option in (("network_mode", "--network"), ("pid", "--pid")):
        if service.get(key) == "host":
            words.append(f"{option}=host")
    words.extend(f"--cap-add={c}" for c in _texts(service.get("cap_add")))
    words.extend(f"--device={d}" for d in _texts(service.get("devices")))
    for volume in _listed(service.get("volumes")):
        source = _source(volume)
        if source is not None and source.startswith(_HOST_PATH):
            words.extend(("-v", _HOME.sub("~", source) + ":/mnt"))
    if not words:
        return None
    image = service.get("image")
    return shlex.join(["docker", "run", *words, image if isinstance(image, str) else "built"])


def _listed(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _texts(value: object) -> list[str]:
    return [v for v in _listed(value) if isinstance(v, str)]


def _source(volume: object) -> str | None:
    """A volume's host side: ``SRC:DST[:MODE]``, or the long form's ``source`` of a bind."""
    if isinstance(volume, str):
        source, colon, _ = volume.partition(":")
        return source if colon else None
    if isinstance(volume, dict) and volume.get("type") == "bind":
        given = volume.get("source")
        return given if isinstance(given, str) else None
    return None
