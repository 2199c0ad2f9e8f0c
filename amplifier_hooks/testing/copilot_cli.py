"""Run the real GitHub Copilot CLI in a sandbox, its model replaced by `ScriptedResponses`.

`CopilotCli` gives a test its own project directory and HOME, and runs ``copilot -p
PROMPT --allow-all-tools --trust-folder --output-format json`` offline, against the
Responses API stand-in on loopback (``COPILOT_OFFLINE``, ``COPILOT_PROVIDER_*``). Hooks
are the project's ``.github/hooks/*.json``, loaded because of ``--trust-folder``.
`CopilotRun` holds the parsed JSON lines and stderr.

Nothing here downloads Copilot CLI: pass the path of an installed binary.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from amplifier_hooks.testing.agent_process import AgentOutput
from amplifier_hooks.testing.responses_api import ScriptedResponses
from amplifier_hooks.testing.sandbox import AgentSandbox, sandbox_env

__all__ = ["MODEL", "CopilotCli", "CopilotRun"]

MODEL: Final = "gpt-5.5"
"""The model name Copilot is told to use (one it knows, so it offers its usual tools)."""


class CopilotRun(AgentOutput):
    """What one ``copilot -p`` run produced (its ``--output-format json`` lines: `events`)."""


class CopilotCli(AgentSandbox):
    """A sandbox for the real Copilot CLI binary: a project dir and a HOME of its own."""

    agent = "Copilot CLI"

    @property
    def hooks_dir(self) -> Path:
        return self.project / ".github" / "hooks"

    def write_hooks(self, name: str, hooks: Mapping[str, Any]) -> Path:
        """Write ``.github/hooks/NAME.json`` (``{"version": 1, "hooks": hooks}``)."""
        path = self.hooks_dir / f"{name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"version": 1, "hooks": dict(hooks)}, indent=2) + "\n")
        return path

    def environment(
        self, model: ScriptedResponses, extra: Mapping[str, str] = {}
    ) -> dict[str, str]:
        """The agent's whole environment: offline, the model on loopback."""
        base = {
            "HOME": str(self.home),
            "COPILOT_OFFLINE": "true",
            "COPILOT_PROVIDER_BASE_URL": model.v1_url,
            "COPILOT_PROVIDER_WIRE_API": "responses",
            "COPILOT_PROVIDER_API_KEY": model.api_key,
            "COPILOT_MODEL": MODEL,
            "NO_PROXY": "127.0.0.1,localhost",
        }
        return sandbox_env(base, extra)

    async def run(
        self,
        prompt: str,
        model: ScriptedResponses,
        *,
        args: Sequence[str] = ("--allow-all-tools", "--trust-folder"),
        env: Mapping[str, str] = {},
        timeout: float | None = None,
    ) -> CopilotRun:
        """Run ``copilot -p prompt ARGS --output-format json`` in the project dir.

        A run over ``timeout`` seconds is stopped (with its hooks) and returned with
        ``timed_out`` set.
        """
        command = [str(self.binary), "-p", prompt, *args, "--output-format", "json"]
        return CopilotRun.of(await self.launch(command, self.environment(model, env), timeout))
