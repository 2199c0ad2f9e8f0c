"""The sandbox a real agent CLI runs in for a test: its binary, a project and a HOME of its
own, and an environment that lets nothing of the developer's in.

Each agent's sandbox class (`claude_code`, `codex`, `gemini_cli` …) starts from
`AgentSandbox` (or `make_sandbox`) and adds its own configuration files; `sandbox_env` is
the environment it runs the agent with (`AgentSandbox.launch`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import ClassVar, Final, NamedTuple

from amplifier_hooks.testing.agent_process import AgentOutput, run_agent

__all__ = ["PASSED_ENV", "AgentSandbox", "Sandbox", "make_sandbox", "sandbox_env"]

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


class AgentSandbox:
    """A sandbox for one agent's real binary (`make_sandbox`: ``binary``, ``project``,
    ``home``) and how long a run of it may take; each agent's sandbox names the agent,
    its folders and its usual time."""

    agent: ClassVar[str] = "agent"
    """The agent's name, in an error about its binary."""
    folders: ClassVar[Mapping[str, str]] = {}
    """`make_sandbox`'s ``project`` and ``config`` folder names, where not the default."""
    default_timeout: ClassVar[float] = 60.0

    def __init__(self, binary: Path | str, root: Path, *, timeout: float | None = None) -> None:
        self.binary, self.project, self.home = make_sandbox(
            binary, root, self.agent, **self.folders
        )
        self.timeout = self.default_timeout if timeout is None else timeout

    @property
    def config_dir(self) -> Path:
        """The agent's own folder in ``home`` (`folders`' ``config``)."""
        return self.home / self.folders.get("config", "")

    def limit(self, timeout: float | None) -> float:
        """``timeout`` for one run, or (None) the sandbox's own."""
        return self.timeout if timeout is None else timeout

    async def launch(
        self, command: Sequence[str], env: Mapping[str, str], timeout: float | None = None
    ) -> AgentOutput:
        """Run ``command`` in the project with exactly ``env`` (`run_agent`), stopped
        after `limit` seconds."""
        return await run_agent(command, cwd=self.project, env=env, timeout=self.limit(timeout))
