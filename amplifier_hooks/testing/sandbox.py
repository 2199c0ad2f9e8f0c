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

__all__ = [
    "PASSED_ENV",
    "AgentSandbox",
    "Sandbox",
    "make_sandbox",
    "private_places",
    "sandbox_env",
]

PASSED_ENV: Final = ("PATH", "LANG", "LC_ALL", "TZ", "XDG_RUNTIME_DIR")
"""The only variables taken from the caller's environment: a proxy, an API key or an
agent's own setting of the developer must not reach the sandboxed agent. The caller's
``XDG_RUNTIME_DIR`` (private to the user; a test run's own) holds the agent's sockets:
the sandbox's folders are too deep for a socket's path, and an agent falls back to a
shared ``/tmp/cc-socks-<uid>`` or ``/tmp/amplifier-hooks-<uid>`` without it."""


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


def private_places(home: Path) -> dict[str, str]:
    """Where a sandboxed program keeps scratch files, caches, config, data and state: all
    in its sandbox, so that a run leaves nothing in the machine's ``/tmp`` (Claude Code's
    ``claude-<uid>``, Node's compile cache, a Bun binary's native libraries, tiktoken's
    ``data-gym-cache`` ...) nor in the developer's folders. ``TMPDIR`` is ``tmp`` beside
    ``home`` (made 0700 here); the XDG folders are their defaults under ``home``, named
    so that none of the caller's reaches the program."""
    scratch = home.parent / "tmp"
    scratch.mkdir(mode=0o700, parents=True, exist_ok=True)
    cache = home / ".cache"
    return {
        "TMPDIR": str(scratch),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(cache),
        "TIKTOKEN_CACHE_DIR": str(cache / "tiktoken"),
    }


def sandbox_env(base: Mapping[str, str], extra: Mapping[str, str]) -> dict[str, str]:
    """`PASSED_ENV` from the caller's environment, then the `private_places` of
    ``base``'s ``HOME``, then ``base``, then ``extra``."""
    env = {name: os.environ[name] for name in PASSED_ENV if name in os.environ}
    if "HOME" in base:
        env.update(private_places(Path(base["HOME"])))
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
