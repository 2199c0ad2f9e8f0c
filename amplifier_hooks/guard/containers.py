"""The host paths a container run reaches: the sources of its volumes and bind mounts;
and the folder a host's own ``mount`` covers.

``docker run -v "$PWD":/src -w /src node:22 npm test`` names three things that look like
paths, and only one is on this machine: the source of ``-v SRC:DST[:OPTS]``. The
destination, ``-w``, the image and the container's command are the container's own. So
for ``run`` and ``create`` (also as ``container run``) of docker, podman and nerdctl, the
paths are the volume and mount sources (written unless mounted read-only) and the files
``--env-file`` reads; a named volume (``-v cache:/root/.cache``) is no path. ``$PWD`` and
``$(pwd)`` at the start of a source are the folder the command runs in, which the guard
knows (`model.Piece.cwd`); a source the guard cannot read stays dynamic (never granted).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

__all__ = ["CONTAINER_PROGRAMS", "Mounts", "mount_target", "mounts"]

CONTAINER_PROGRAMS = frozenset({"docker", "podman", "nerdctl"})
_RUNS = frozenset({"run", "create"})
_VOLUME = ("-v", "--volume")
_MOUNT = "--mount"
_READ = ("--env-file",)
_HERE = ("$PWD", "${PWD}", "$(pwd)", "`pwd`")


class Mounts(NamedTuple):
    """The host paths of a container run: every one, and those the container may write."""

    paths: tuple[str, ...]
    written: tuple[str, ...]


@lru_cache(maxsize=1024)
def mounts(program: str | None, args: tuple[str, ...]) -> Mounts | None:
    """The host paths of ``program args`` when it runs or creates a container (None:
    another command, whose words are read as any program's)."""
    if program not in CONTAINER_PROGRAMS:
        return None
    words = [a for a in args if not a.startswith("-")]
    if not words or not (words[0] in _RUNS or words[:2] in (["container", "run"],
                                                           ["container", "create"])):  # fmt: skip
        return None
    paths: list[str] = []
    written: list[str] = []
    for index, arg in enumerate(args):
        name, value = _option(arg, args[index + 1] if index + 1 < len(args) else None)
        if value is None:
            continue
        if name in _READ:
            paths.append(value)
            continue
        source, read_only = _volume(value) if name in _VOLUME else _mount(value)
        if source is not None:
            paths.append(source)
            if not read_only:
                written.append(source)
    return Mounts(tuple(paths), tuple(written))


def _option(arg: str, following: str | None) -> tuple[str, str | None]:
    """(the option, its value) when ``arg`` is a mount or env-file option (``-v X``,
    ``--volume=X``, ``-vX``); (arg, None) for any other word."""
    if arg in (*_VOLUME, _MOUNT, *_READ):
        return arg, following
    name, equals, value = arg.partition("=")
    if equals and name in (*_VOLUME, _MOUNT, *_READ):
        return name, value
    if arg.startswith("-v") and not arg.startswith("--") and len(arg) > 2:
        return "-v", arg[2:]
    return arg, None


def _volume(value: str) -> tuple[str | None, bool]:
    """The host source of ``SRC:DST[:OPTS]`` (None: an anonymous or named volume)."""
    source, colon, rest = value.partition(":")
    if not colon:
        return None, False
    options = rest.partition(":")[2].split(",")
    return _host(source), "ro" in options or "readonly" in options


def _mount(value: str) -> tuple[str | None, bool]:
    """The host source of ``--mount type=bind,source=SRC,target=DST[,readonly]``."""
    fields = dict(f.partition("=")[::2] for f in value.split(","))
    source = fields.get("source") or fields.get("src")
    if source is None or fields.get("type", "volume") not in ("bind", "volume"):
        return None, False
    read_only = "readonly" in fields or "ro" in fields or fields.get("readonly") == "true"
    return _host(source), read_only


def _host(source: str) -> str | None:
    """``source`` as a host path, or None when it names a volume."""
    for here in _HERE:
        if source == here or source.startswith(here + "/"):
            return "." + source[len(here) :]
    if source.startswith(("/", ".", "~", "$", "`")):
        return source
    return None


_MOUNT_VALUED = frozenset({"-o", "--options", "-t", "--types", "-O", "--test-opts", "-L",
                           "--label", "-U", "--uuid", "-N", "--namespace"})  # fmt: skip


def mount_target(args: tuple[str, ...]) -> tuple[str, ...]:
    """The folder ``mount ARGS`` mounts over (``mount --bind SRC DIR``, ``mount -t tmpfs x
    DIR``, ``--target DIR``): what was in it is hidden, as if replaced as a whole."""
    operands: list[str] = []
    skip = False
    for index, arg in enumerate(args):
        if skip:
            skip = False
        elif arg == "--target" and index + 1 < len(args):
            return (args[index + 1],)
        elif arg.startswith("--target="):
            return (arg[9:],)
        elif arg in _MOUNT_VALUED:
            skip = True
        elif not arg.startswith("-"):
            operands.append(arg)
    return tuple(operands[-1:])
