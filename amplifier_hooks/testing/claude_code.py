"""Run the real Claude Code CLI in a sandbox, its model replaced by a `ScriptedModel`.

`ClaudeCode` gives each test its own project directory and its own HOME (so neither the
user's settings nor their hooks leak in), writes the settings the test wants, and runs
``claude -p`` against the scripted model on loopback with stream-json output. The result,
`ClaudeCodeRun`, holds the parsed events, stderr and the session's transcript -- enough to
assert what the agent did, what its hooks decided and what reached the model.

Nothing here downloads Claude Code: pass the path of an installed binary.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from amplifier_hooks.testing.agent_process import AgentOutput, AgentTimeout
from amplifier_hooks.testing.messages_api import ScriptedModel
from amplifier_hooks.testing.sandbox import AgentSandbox, sandbox_env

__all__ = ["ClaudeCode", "ClaudeCodeRun", "ClaudeCodeTimeout"]

Scope = Literal["project", "local", "user"]


class ClaudeCodeTimeout(AgentTimeout):
    """Claude Code did not finish in time; the run so far (`ClaudeCodeRun`) is attached."""


@dataclass(frozen=True, kw_only=True)
class ClaudeCodeRun(AgentOutput):
    """What one ``claude -p`` run produced (its stream-json `events`), and where."""

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


class ClaudeCode(AgentSandbox):
    """A sandbox for the real Claude Code binary: a project dir and a HOME of its own."""

    agent = "Claude Code"
    folders = {"config": ".claude"}

    @property
    def _where(self) -> dict[str, Path]:
        return {"project": self.project, "config_dir": self.config_dir}

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
        base = {
            "HOME": str(self.home),
            "CLAUDE_CONFIG_DIR": str(self.config_dir),
            "ANTHROPIC_BASE_URL": model.base_url,
            "ANTHROPIC_API_KEY": model.api_key,
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "NO_PROXY": "127.0.0.1,localhost",
        }
        return sandbox_env(base, extra)

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
        limit = self.limit(timeout)
        done = await self.launch(command, self.environment(model, env), limit)
        lines, stderr = done.lines, done.stderr
        run = ClaudeCodeRun(done.returncode, lines, stderr, done.timed_out, **self._where)
        if done.timed_out:
            raise ClaudeCodeTimeout(f"Claude Code ran over {limit}s: {run.describe()}", run)
        return run
