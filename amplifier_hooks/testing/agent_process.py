"""Running a real agent CLI for a test: its output kept line by line, a deadline, a clean stop.

Each sandbox (`claude_code`, `gemini_cli`, `copilot_cli` …; see `sandbox`) builds the
command line and the environment; `run_agent` runs it in the project directory with stdin
closed and returns what it printed -- also when it overran, after stopping it and its hooks.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Final, Self

__all__ = ["AgentOutput", "AgentTimeout", "parse_json_lines", "run_agent"]

MAX_LINE_BYTES: Final = 64 * 1024 * 1024
"""One JSON output line can carry a whole message, tool output included."""

STOP_GRACE: Final = 10.0
"""Seconds an agent gets to end its hooks after SIGTERM."""


@dataclass(frozen=True)
class AgentOutput:
    """What one run printed: exit code (-1 when it overran and was stopped), stdout
    lines, stderr. Each agent's run record (`CopilotRun` …) is one, under its agent's name
    and with what only its output has."""

    returncode: int
    lines: list[str]
    stderr: str
    timed_out: bool = False

    @classmethod
    def of(cls, done: AgentOutput) -> Self:
        """``done`` as this kind of record."""
        return cls(done.returncode, done.lines, done.stderr, done.timed_out)

    @property
    def stdout(self) -> str:
        return "".join(self.lines)

    @cached_property
    def events(self) -> list[dict[str, Any]]:
        """The JSON lines it printed, in order; other lines as ``{"raw": line}``."""
        return parse_json_lines(self.lines)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        """The `events` of one ``type``, in order."""
        return [e for e in self.events if e.get("type") == kind]

    def describe(self) -> str:
        """A short account for an assertion message: the exit code, the tails of the
        output."""
        out, err = self.stdout[-800:], self.stderr[-1200:]
        return f"exit {self.returncode}; stdout: {out!r}; stderr: {err!r}"


class AgentTimeout(TimeoutError):
    """An agent did not finish in time; the run so far is attached."""

    def __init__(self, message: str, run: AgentOutput) -> None:
        super().__init__(message)
        self.run = run


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
