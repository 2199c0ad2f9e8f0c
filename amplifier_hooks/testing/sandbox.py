"""The sandbox a real agent CLI runs in for a test: its binary, a project and a HOME of its
own, and an environment that lets nothing of the developer's in.

Each agent's sandbox class (`claude_code`, `codex`, `gemini_cli` …) starts from
`make_sandbox` and adds its own configuration files; `sandbox_env` is the environment it
runs the agent with (`agent_process.run_agent`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final, NamedTuple

__all__ = ["PASSED_ENV", "Sandbox", "make_sandbox", "sandbox_env"]

PASSED_ENV: Final = ("PATH", "LANG", "LC_ALL", "TMPDIR", "TZ")
"""The only variables taken from the caller's environment: a proxy, an API key or an
agent's own setting of the developer must not reach the sandboxed agent."""


class Sandbox(NamedTuple):
    """Where a sandboxed agent runs: its binary, its project directory and its HOME."""

    binary: Path
    project: Path
    home: Path


def make_sandbox(
    binary: Path | str, root: Path, agent: str, *, project: str = "project", config: str = ""
) -> Sandbox:
    """A sandbox under ``root`` for ``agent``'s binary: ``root/project`` and ``root/home``
    made (and ``home/config`` when named). A binary that cannot run is a clear error before
    anything is made."""
    path = Path(binary)
    if not os.access(path, os.X_OK):
        raise FileNotFoundError(f"no {agent} binary at {path}")
    made = Sandbox(path, root / project, root / "home")
    made.project.mkdir(parents=True, exist_ok=True)
    (made.home / config).mkdir(parents=True, exist_ok=True)
    return made


def sandbox_env(base: Mapping[str, str], extra: Mapping[str, str]) -> dict[str, str]:
    """`PASSED_ENV` from the caller's environment, then ``base``, then ``extra``."""
    env = {name: os.environ[name] for name in PASSED_ENV if name in os.environ}
    env.update(base)
    env.update(extra)
    return env
