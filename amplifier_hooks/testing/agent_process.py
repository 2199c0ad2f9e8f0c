"""Running a real agent CLI for a test: its output kept line by line, a deadline, a clean stop.

Each sandbox (`claude_code`, `gemini_cli`, `copilot_cli` …) starts from `make_sandbox` (the
binary checked, a project and a HOME of its own), builds the command line and the
environment; `run_agent` runs it in the project directory with stdin closed and returns
what it printed -- also when it overran, after stopping it and its hooks.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, NamedTuple

__all__ = [
    "PASSED_ENV",
    "AgentOutput",
    "Sandbox",
    "make_sandbox",
    "parse_json_lines",
    "run_agent",
    "sandbox_env",
]

PASSED_ENV: Final = ("PATH", "LANG", "LC_ALL", "TMPDIR", "TZ")
"""The only variables taken from the caller's environment: a proxy, an API key or an
agent's own setting of the developer must not reach the sandboxed agent."""

MAX_LINE_BYTES: Final = 64 * 1024 * 1024
"""One JSON output line can carry a whole message, tool output included."""

STOP_GRACE: Final = 10.0
"""Seconds an agent gets to end its hooks after SIGTERM."""


@dataclass(frozen=True)
class AgentOutput:
    """What one run printed: exit code (-1 when it overran and was stopped), stdout
    lines, stderr."""

    returncode: int
    lines: list[str]
    stderr: str
    timed_out: bool = False


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


def parse_json_lines(lines: Sequence[str]) -> list[dict[str, Any]]:
    """The JSON objects among ``lines``; others are kept as ``{"raw": line}``."""
    parsed: list[dict[str, Any]] = []
    for line in lines:
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError:
            value = None
        parsed.append(value if isinstance(value, dict) else {"raw": line})
    return parsed


def sandbox_env(base: Mapping[str, str], extra: Mapping[str, str]) -> dict[str, str]:
    """`PASSED_ENV` from the caller's environment, then ``base``, then ``extra``."""
    env = {name: os.environ[name] for name in PASSED_ENV if name in os.environ}
    env.update(base)
    env.update(extra)
    return env


async def run_agent(
    command: Sequence[str], *, cwd: Path, env: Mapping[str, str], timeout: float
) -> AgentOutput:
    """Run ``command`` in ``cwd`` with exactly ``env``, stdin closed; wait at most
    ``timeout`` seconds, then stop it (`AgentOutput.timed_out`)."""
    process = await asyncio.create_subprocess_exec(
        *command,
        cwd=cwd,
        env=dict(env),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
        limit=MAX_LINE_BYTES,
    )
    lines: list[bytes] = []
    errors: list[bytes] = []
    assert process.stdout is not None and process.stderr is not None
    readers = [
        asyncio.ensure_future(_collect(process.stdout, lines)),
        asyncio.ensure_future(_collect(process.stderr, errors)),
    ]
    timed_out = False
    try:
        await asyncio.wait_for(asyncio.gather(process.wait(), *readers), timeout)
    except TimeoutError:
        timed_out = True
        await _stop(process)
        for reader in readers:
            reader.cancel()
    code = -1 if timed_out else process.returncode or 0
    text = [line.decode(errors="replace") for line in lines]
    return AgentOutput(code, text, b"".join(errors).decode(errors="replace"), timed_out)


async def _collect(stream: asyncio.StreamReader, into: list[bytes]) -> None:
    # Line by line, so a run that times out still shows what it got to.
    while line := await stream.readline():
        into.append(line)


async def _stop(process: asyncio.subprocess.Process) -> None:
    """End an agent that overran, and its hooks.

    Agents start hooks in sessions of their own, so killing the agent's process group
    would leave a hanging hook behind; on SIGTERM they end their hooks themselves.
    SIGKILL of the group follows if it does not exit within `STOP_GRACE` seconds.
    """
    _signal_group(process.pid, signal.SIGTERM)
    try:
        await asyncio.wait_for(process.wait(), STOP_GRACE)
    except TimeoutError:
        _signal_group(process.pid, signal.SIGKILL)
        await process.wait()


def _signal_group(pid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signum)
