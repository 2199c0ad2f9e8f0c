"""The Node that would run ``openclaw``, and whether it can.

OpenClaw is a Node program started by its ``#!/usr/bin/env node`` line; a Node older
than `MIN_NODE` fails before any plugin loads, so ``install`` and ``doctor`` say so
instead of leaving the guard silently absent.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

__all__ = ["MIN_NODE", "node_problem", "node_program"]

MIN_NODE = (24, 16)
"""The oldest Node OpenClaw 2026.9.6 runs on."""

_VERSION = re.compile(r"v?(\d+)\.(\d+)")


def node_program(environ: Mapping[str, str] | None = None) -> str | None:
    """The Node that would run ``openclaw``: the one its ``#!/usr/bin/env node`` finds on
    PATH (None: no ``openclaw`` on PATH, or no such Node)."""
    env = os.environ if environ is None else environ
    search = env.get("PATH", os.defpath)
    program = shutil.which("openclaw", path=search)
    return None if program is None else _interpreter(Path(program), search)


def node_problem(environ: Mapping[str, str] | None = None) -> str | None:
    """Why the Node that would run ``openclaw`` cannot (None: it can): OpenClaw not on
    PATH, the Node its ``#!/usr/bin/env node`` finds missing or older than `MIN_NODE`."""
    env = dict(os.environ if environ is None else environ)
    program = shutil.which("openclaw", path=env.get("PATH", os.defpath))
    if program is None:
        return "'openclaw' is not on PATH"
    node = node_program(env)
    if node is None:
        return f"no Node to run {program} (its first line names none on PATH)"
    try:
        done = subprocess.run(
            [node, "--version"], capture_output=True, text=True, timeout=30, env=env, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{node} does not run: {exc}"
    found = _VERSION.match(done.stdout.strip())
    if found is None:
        return f"{node} --version says {done.stdout.strip()[:40]!r}"
    version = (int(found.group(1)), int(found.group(2)))
    if version < MIN_NODE:
        need = ".".join(map(str, MIN_NODE))
        said = done.stdout.strip()
        return f"OpenClaw would run on {node} {said}, older than the Node {need} it needs"
    return None


def _interpreter(program: Path, search: str) -> str | None:
    """The Node a script runs on: its ``#!`` line (``env node`` searched on ``search``)."""
    try:
        with program.open("rb") as stream:
            first = stream.readline(256).decode("utf-8", "replace")
    except OSError:
        return None
    if not first.startswith("#!"):
        return None
    words = first[2:].split()
    if not words:
        return None
    if os.path.basename(words[0]) == "env":
        rest = [w for w in words[1:] if not w.startswith("-")]
        return shutil.which(rest[0], path=search) if rest else None
    return words[0]
