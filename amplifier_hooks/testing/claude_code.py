"""Run the real Claude Code CLI in a sandbox, its model replaced by a `ScriptedModel`.

`ClaudeCode` gives each test its own project directory and its own HOME (so neither the
user's settings nor their hooks leak in), writes the settings the test wants, and runs
``claude -p`` against the scripted model on loopback with stream-json output. The result,
`ClaudeCodeRun`, holds the parsed events, stderr and the session's transcript -- enough to
assert what the agent did, what its hooks decided and what reached the model.

Nothing here downloads Claude Code: pass the path of an installed binary.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from amplifier_hooks.testing.messages_api import ScriptedModel

__all__ = ["ClaudeCode", "ClaudeCodeRun", "ClaudeCodeTimeout"]

PASSED_ENV: Final = ("PATH", "LANG", "LC_ALL", "TMPDIR", "TZ")
"""The only variables taken from the caller's environment: a proxy, an API key or a
``CLAUDE_*`` setting of the developer must not reach the sandboxed agent."""

MAX_LINE_BYTES: Final = 64 * 1024 * 1024
"""One stream-json line carries a whole message, tool output included."""

STOP_GRACE: Final = 10.0
"""Seconds Claude Code gets to end its hooks after SIGTERM."""

Scope = Literal["project", "local", "user"]


class ClaudeCodeTimeout(TimeoutError):
    """Claude Code did not finish in time; the run so far is attached."""

    def __init__(self, message: str, run: ClaudeCodeRun) -> None:
        super().__init__(message)
        self.run = run


@dataclass(frozen=True)
class ClaudeCodeRun:
    """What one ``claude -p`` run produced."""

    returncode: int
    events: list[dict[str, Any]]
    """The stream-json events, in order (unparseable lines are kept as ``{"raw": line}``)."""
    stderr: str
    project: Path
    config_dir: Path

    @property
    def result(self) -> dict[str, Any]:
        """The final ``result`` event (``{}`` when the run ended without one)."""
        return next((e for e in reversed(self.events) if e.get("type") == "result"), {})

    @property
    def session_id(self) -> str | None:
        return next((e["session_id"] for e in self.events if "session_id" in e), None)

    @property
    def transcript_path(self) -> Path | None:
        """The session's transcript JSONL under the sandbox's config dir, if written."""
        if self.session_id is None:
            return None
        found = sorted(self.config_dir.glob(f"projects/*/{self.session_id}.jsonl"))
        return found[0] if found else None

    def transcript(self) -> list[dict[str, Any]]:
        path = self.transcript_path
        if path is None:
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]

    def tool_uses(self) -> list[dict[str, Any]]:
        """The ``tool_use`` blocks of the assistant's messages, in order."""
        return list(self._blocks("assistant", "tool_use"))

    def tool_results(self) -> list[dict[str, Any]]:
        """The ``tool_result`` blocks Claude Code sent back, in order."""
        return list(self._blocks("user", "tool_result"))

    def _blocks(self, kind: str, block_type: str) -> Iterable[dict[str, Any]]:
        for event in self.events:
            content = event.get("message", {}).get("content") if event.get("type") == kind else None
            if isinstance(content, list):
                yield from (b for b in content if b.get("type") == block_type)

    def describe(self) -> str:
        """A short account for an assertion message: exit code, result, stderr's tail."""
        return (
            f"exit {self.returncode}; result={self.result.get('subtype')!r} "
            f"{str(self.result.get('result'))[:200]!r}; stderr tail: {self.stderr[-800:]!r}"
        )


class ClaudeCode:
    """A sandbox for the real Claude Code binary: a project dir and a HOME of its own."""

    def __init__(self, binary: Path | str, root: Path, *, timeout: float = 60.0) -> None:
        self.binary = Path(binary)
        if not os.access(self.binary, os.X_OK):
            raise FileNotFoundError(f"no Claude Code binary at {self.binary}")
        self.timeout = timeout
        self.project = root / "project"
        self.home = root / "home"
        self.config_dir = self.home / ".claude"
        self.project.mkdir(parents=True, exist_ok=True)
        self.config_dir.mkdir(parents=True, exist_ok=True)

    def settings_path(self, scope: Scope = "project") -> Path:
        if scope == "user":
            return self.config_dir / "settings.json"
        name = "settings.local.json" if scope == "local" else "settings.json"
        return self.project / ".claude" / name

    def write_settings(self, settings: Mapping[str, Any], scope: Scope = "project") -> Path:
        """Write a settings file (``.claude/settings.json`` of the project by default)."""
        path = self.settings_path(scope)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings, indent=2) + "\n")
        return path

    def environment(self, model: ScriptedModel, extra: Mapping[str, str] = {}) -> dict[str, str]:
        """The agent's whole environment: the model on loopback, no other traffic."""
        env = {name: os.environ[name] for name in PASSED_ENV if name in os.environ}
        env.update(
            HOME=str(self.home),
            CLAUDE_CONFIG_DIR=str(self.config_dir),
            ANTHROPIC_BASE_URL=model.base_url,
            ANTHROPIC_API_KEY=model.api_key,
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            NO_PROXY="127.0.0.1,localhost",
        )
        env.update(extra)
        return env

    async def run(
        self,
        prompt: str,
        model: ScriptedModel,
        *,
        args: Sequence[str] = (),
        env: Mapping[str, str] = {},
        permission_mode: str = "default",
        timeout: float | None = None,
    ) -> ClaudeCodeRun:
        """Run ``claude -p prompt`` in the project dir and wait for it to finish.

        Raises `ClaudeCodeTimeout` (with the events so far) when it takes longer than
        ``timeout`` seconds, after stopping Claude Code and its hooks.
        """
        command = [
            str(self.binary),
            "-p",
            prompt,
            "--output-format",
            "stream-json",
            "--verbose",
            "--permission-mode",
            permission_mode,
            *args,
        ]
        process = await asyncio.create_subprocess_exec(
            *command,
            cwd=self.project,
            env=self.environment(model, env),
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
        limit = self.timeout if timeout is None else timeout
        try:
            await asyncio.wait_for(asyncio.gather(process.wait(), *readers), limit)
        except TimeoutError:
            await _stop(process)
            for reader in readers:
                reader.cancel()
            run = self._run(-1, lines, errors)
            raise ClaudeCodeTimeout(
                f"Claude Code ran over {limit}s: {run.describe()}", run
            ) from None
        return self._run(process.returncode or 0, lines, errors)

    def _run(self, code: int, lines: list[bytes], errors: list[bytes]) -> ClaudeCodeRun:
        events = [_parse(line.decode(errors="replace")) for line in lines if line.strip()]
        stderr = b"".join(errors).decode(errors="replace")
        return ClaudeCodeRun(code, events, stderr, self.project, self.config_dir)


async def _collect(stream: asyncio.StreamReader, into: list[bytes]) -> None:
    # Line by line, so a run that times out still shows the events it got to.
    while line := await stream.readline():
        into.append(line)


def _parse(line: str) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except ValueError:
        return {"raw": line}
    return value if isinstance(value, dict) else {"raw": line}


async def _stop(process: asyncio.subprocess.Process) -> None:
    """End a Claude Code that overran, and its hooks.

    Claude Code starts each hook in a session of its own, so killing its process group
    would leave a hanging hook behind; on SIGTERM it ends its hooks itself. SIGKILL of the
    group follows if it does not exit within `STOP_GRACE` seconds.
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
