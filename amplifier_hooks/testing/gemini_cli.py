"""Run the real Gemini CLI in a sandbox, its model replaced by a `ScriptedGemini`.

`GeminiCli` gives a test its own project directory and HOME (so neither the user's
settings nor their hooks leak in; the system settings path points into the sandbox too),
with user settings that select API-key auth and turn telemetry and update checks off.
``run`` is ``gemini -p PROMPT --yolo --skip-trust --output-format stream-json`` against
the stand-in on loopback; `GeminiRun` holds the parsed events and stderr.

User-level hooks (``~/.gemini/settings.json`` of the sandbox) run under ``--skip-trust``;
a project's ``.gemini/settings.json`` is loaded only with ``trust_workspace=True``
(``GEMINI_CLI_TRUST_WORKSPACE=true``).

Nothing here downloads Gemini CLI: pass the path of an installed binary.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Literal

from amplifier_hooks.testing.agent_process import AgentOutput
from amplifier_hooks.testing.gemini_api import ScriptedGemini
from amplifier_hooks.testing.sandbox import AgentSandbox, sandbox_env

__all__ = ["BASE_SETTINGS", "GeminiCli", "GeminiRun"]

BASE_SETTINGS: Final[Mapping[str, Any]] = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
}
"""The sandbox user's settings: the API key from the environment, nothing phoned home."""

Scope = Literal["user", "project"]


class GeminiRun(AgentOutput):
    """What one ``gemini -p`` run produced (its stream-json `events`: ``init``,
    ``message``, ``tool_use``, ``tool_result``, ``result``)."""

    def tool_results(self) -> list[dict[str, Any]]:
        return self.of_type("tool_result")

    @property
    def session_id(self) -> str | None:
        return next((str(e["session_id"]) for e in self.of_type("init") if "session_id" in e), None)

    def describe(self) -> str:
        """A short account for an assertion message."""
        tail = [e for e in self.events if e.get("type") in ("result", "error")][-2:]
        return f"exit {self.returncode}; {json.dumps(tail)[:600]}; stderr: {self.stderr[-800:]!r}"


class GeminiCli(AgentSandbox):
    """A sandbox for the real Gemini CLI binary: a project dir and a HOME of its own."""

    agent = "Gemini CLI"
    folders = {"config": ".gemini"}

    def __init__(self, binary: Path | str, root: Path, *, timeout: float | None = None) -> None:
        super().__init__(binary, root, timeout=timeout)
        self.root = root
        self.write_settings(BASE_SETTINGS)

    def settings_path(self, scope: Scope = "user") -> Path:
        base = self.home if scope == "user" else self.project
        return base / ".gemini" / "settings.json"

    def settings(self, scope: Scope = "user") -> dict[str, Any]:
        path = self.settings_path(scope)
        loaded: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
        return loaded

    def write_settings(self, settings: Mapping[str, Any], scope: Scope = "user") -> Path:
        """Write a settings file (the sandbox user's by default)."""
        path = self.settings_path(scope)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings, indent=2) + "\n")
        return path

    def set_hooks(self, hooks: Mapping[str, Any], scope: Scope = "user") -> Path:
        """Replace the ``hooks`` of a settings file, keeping its other settings."""
        return self.write_settings({**self.settings(scope), "hooks": dict(hooks)}, scope)

    def environment(
        self, model: ScriptedGemini, extra: Mapping[str, str] = {}, *, trust_workspace: bool = False
    ) -> dict[str, str]:
        """The agent's whole environment: the model on loopback, no other traffic."""
        base = {
            "HOME": str(self.home),
            "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(self.root / "system-settings.json"),
            "GOOGLE_GEMINI_BASE_URL": model.base_url,
            "GEMINI_API_KEY": model.api_key,
            # The relaunch (a child node with more memory) only costs ~6 s per run here.
            "GEMINI_CLI_NO_RELAUNCH": "true",
            "NO_PROXY": "127.0.0.1,localhost",
        }
        if trust_workspace:
            base["GEMINI_CLI_TRUST_WORKSPACE"] = "true"
        return sandbox_env(base, extra)

    async def run(
        self,
        prompt: str,
        model: ScriptedGemini,
        *,
        args: Sequence[str] = ("--yolo", "--skip-trust"),
        env: Mapping[str, str] = {},
        trust_workspace: bool = False,
        timeout: float | None = None,
    ) -> GeminiRun:
        """Run ``gemini -p prompt ARGS --output-format stream-json`` in the project dir.

        A run over ``timeout`` seconds is stopped (with its hooks) and returned with
        ``timed_out`` set.
        """
        command = [str(self.binary), "-p", prompt, *args, "--output-format", "stream-json"]
        environment = self.environment(model, env, trust_workspace=trust_workspace)
        return GeminiRun.of(await self.launch(command, environment, timeout))
