"""The host paths a container run reaches: the sources of its volumes and bind mounts.

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

from amplifier_hooks.guard.table.commanders import CONTAINER_RUN, global_read
from amplifier_hooks.guard.table.options import read_options

__all__ = ["CONTAINER_PROGRAMS", "Mounts", "copied_into", "mounts"]

CONTAINER_PROGRAMS = frozenset({"docker", "podman", "nerdctl"})
_RUNS = (("run",), ("create",), ("container", "run"), ("container", "create"))
_COPIES = (("cp",), ("container", "cp"))
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
    rest = _run_words(program, args)
    if rest is None:
        return None
    read = read_options(CONTAINER_RUN, rest)
    paths = [v.removeprefix("=") for v in read.values("read")]  # pflag's `-x=V` too
    written: list[str] = []
    for given in read.given:
        if given.value is None or given.opt.does not in ("volume", "mount"):
            continue
        value = given.value.removeprefix("=")
        source, read_only = _volume(value) if given.opt.does == "volume" else _mount(value)
        if source is not None:
            paths.append(source)
            if not read_only:
                written.append(source)
    return Mounts(tuple(paths), tuple(written))


def copied_into(program: str | None, args: tuple[str, ...]) -> tuple[str, ...]:
    """The host folder ``docker cp CONTAINER:SRC DEST`` copies into, as a whole (what the
    container holds is not known; () for a copy into a container or another command)."""
    if program not in CONTAINER_PROGRAMS:
        return ()
    rest = _run_words(program, args, _COPIES)
    operands = [w for w in rest or () if w[:1] != "-"]  # -a, -L, -q take no value
    if len(operands) != 2 or ":" not in operands[0] or ":" in operands[1]:
        return ()
    return (operands[1],)


def _run_words(
    program: str, args: tuple[str, ...], subcommands: tuple[tuple[str, ...], ...] = _RUNS
) -> tuple[str, ...] | None:
    """The words after ``run``/``create`` (or ``container run``; or another of
    ``subcommands``), the subcommand found after docker's own options as docker reads them
    (`table.commanders`); podman's and nerdctl's, which the table does not list, are read
    past as words that start with a dash. None: another subcommand."""
    top = global_read(program, args)
    if top is not None:
        words = top.operands
    else:
        start = next((i for i, a in enumerate(args) if a[:1] != "-"), len(args))
        words = args[start:]
    for subcommand in subcommands:
        if words[: len(subcommand)] == subcommand:
            return words[len(subcommand) :]
    return None


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
