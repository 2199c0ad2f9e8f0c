"""Run the real OpenCode in a sandbox, its model replaced by `ScriptedChat`.

`OpenCodeCli` gives a test its own project directory and HOME (its XDG folders inside),
writes OpenCode's config with one provider -- ``@ai-sdk/openai-compatible`` at the Chat
Completions stand-in on loopback -- and runs ``opencode run PROMPT`` in the project
(``$PWD`` too: OpenCode takes the project from it), with the model list fetch turned off.
`OpenCodeRun` holds what it printed.

Nothing here downloads OpenCode: pass the path of an installed binary.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from amplifier_hooks.testing.agent_process import AgentOutput
from amplifier_hooks.testing.chat_completions import ScriptedChat
from amplifier_hooks.testing.sandbox import AgentSandbox, sandbox_env

__all__ = ["MODEL", "UNREACHABLE_REGISTRY", "OpenCodeCli", "OpenCodeRun"]

MODEL: Final = "standin/scripted"
"""The provider and model OpenCode is told to use."""

UNREACHABLE_REGISTRY: Final = "http://127.0.0.1:9"
"""The npm registry OpenCode is given: the discard port on loopback, where nothing answers."""


class OpenCodeRun(AgentOutput):
    """What one ``opencode run`` produced."""


class OpenCodeCli(AgentSandbox):
    """A sandbox for the real OpenCode binary: a project dir and a HOME of its own."""

    agent = "OpenCode"
    default_timeout = 180.0

    @property
    def config_dir(self) -> Path:
        return self.home / ".config" / "opencode"

    @property
    def plugin_dir(self) -> Path:
        return self.project / ".opencode" / "plugin"

    @property
    def log_dir(self) -> Path:
        """Where OpenCode logs (a plugin that fails to load is one line here)."""
        return self.home / ".local" / "share" / "opencode" / "log"

    def configure(self, model: ScriptedChat) -> Path:
        """Write the user's ``opencode.json``: the stand-in as the only provider."""
        provider = {
            "npm": "@ai-sdk/openai-compatible",
            "name": "Scripted stand-in",
            "options": {"baseURL": model.v1_url, "apiKey": model.api_key},
            "models": {"scripted": {"name": "scripted", "tool_call": True}},
        }
        config = {"provider": {"standin": provider}, "model": MODEL}
        path = self.config_dir / "opencode.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(config, indent=2) + "\n")
        return path

    def environment(self, extra: Mapping[str, str] = {}) -> dict[str, str]:
        """The agent's whole environment: its own HOME and XDG folders, no model list,
        and npm offline with its registry unreachable: OpenCode installs
        ``@opencode-ai/plugin`` into every config folder it reads (our plugin imports
        nothing from it), and online that costs 30-150 s a run; offline it fails at
        once and the plugins load all the same."""
        base = {
            "HOME": str(self.home),
            "PWD": str(self.project),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_DATA_HOME": str(self.home / ".local" / "share"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "XDG_STATE_HOME": str(self.home / ".local" / "state"),
            "OPENCODE_DISABLE_MODELS_FETCH": "1",
            "NO_PROXY": "127.0.0.1,localhost",
            "npm_config_offline": "true",
            "npm_config_registry": UNREACHABLE_REGISTRY,
        }
        return sandbox_env(base, extra)

    async def run(
        self,
        prompt: str,
        model: ScriptedChat,
        *,
        args: Sequence[str] = (),
        env: Mapping[str, str] = {},
        timeout: float | None = None,
    ) -> OpenCodeRun:
        """Configure ``model``, then run ``opencode run ARGS PROMPT`` in the project. A
        run over ``timeout`` seconds is stopped and returned with ``timed_out`` set."""
        self.configure(model)
        command = [str(self.binary), "run", *args, prompt]
        return OpenCodeRun.of(await self.launch(command, self.environment(env), timeout))
