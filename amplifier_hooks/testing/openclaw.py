"""Run the real OpenClaw in a sandbox, its model replaced by `ScriptedChat`.

`OpenClaw` gives a test its own HOME (so ``~/.openclaw``) and workspace, writes the model
in as a provider (``models.providers.standin``, ``api: "openai-completions"``) and runs
``openclaw agent --local -m PROMPT --json`` on npm's Node 24 (OpenClaw needs 24.16 or
newer). `OpenClawRun` holds the exit code, the JSON it printed and stderr.

OpenClaw may leave processes behind (a gateway and its children); `OpenClaw.stop_leftovers`
finds every process whose environment has this sandbox's HOME and stops it by its pid.

Nothing here downloads OpenClaw or Node: pass the paths of installed ones.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from amplifier_hooks.testing.agent_process import AgentOutput, run_agent
from amplifier_hooks.testing.chat_completions import ScriptedChat
from amplifier_hooks.testing.sandbox import sandbox_env
from amplifier_hooks.testing.servers import wait_exited

__all__ = ["PROVIDER", "OpenClaw", "OpenClawRun"]

PROVIDER: Final = "standin"
"""The provider id the stand-in is configured as."""


class OpenClawRun(AgentOutput):
    """What one ``openclaw agent --local --json`` run produced."""

    @property
    def result(self) -> dict[str, Any]:
        """The JSON it printed ({} when there is none)."""
        start = self.stdout.find("{")
        try:
            value = json.loads(self.stdout[start:]) if start >= 0 else {}
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}


class OpenClaw:
    """A sandbox for the real OpenClaw: a HOME (``~/.openclaw``) and a workspace."""

    def __init__(
        self, binary: Path | str, node_bin: Path | str, root: Path, *, timeout: float = 300.0
    ) -> None:
        self.binary = Path(binary)
        self.node_bin = Path(node_bin)
        for program in (self.binary, self.node_bin / "node"):
            if not os.access(program, os.X_OK):
                raise FileNotFoundError(f"no program at {program}")
        self.timeout = timeout
        self.home = root / "home"
        self.workspace = self.home / "workspace"
        self.workspace.mkdir(parents=True, exist_ok=True)

    @property
    def config_path(self) -> Path:
        return self.home / ".openclaw" / "openclaw.json"

    @property
    def log(self) -> Path:
        """OpenClaw's own log file (``logging.file``; JSON lines)."""
        return self.home / "openclaw.log"

    def model_config(self, model: ScriptedChat) -> dict[str, Any]:
        """The settings that point OpenClaw at ``model`` and this workspace, its log at
        `log`; its memory plugin, skills and workspace bootstrap off (no test is about
        them)."""
        provider = {
            "baseUrl": model.v1_url,
            "apiKey": model.api_key,
            "api": "openai-completions",
            "models": [{"id": model.model, "name": "scripted"}],
        }
        return {
            "models": {"providers": {PROVIDER: provider}},
            # Its log in the sandbox, not the machine-wide /tmp/openclaw/openclaw-DATE.log
            # that every run (and every other test) would append to.
            "logging": {"file": str(self.log)},
            # No memory plugin: indexing the workspace for recall costs each run seconds,
            # and no test is about OpenClaw's memory.
            "plugins": {"slots": {"memory": "none"}},
            "agents": {
                "defaults": {
                    "model": {"primary": f"{PROVIDER}/{model.model}"},
                    "workspace": str(self.workspace),
                    # Nor skills or the persona files it writes into a new workspace
                    # (AGENTS.md, SOUL.md, ...): each run would scan and inject them.
                    "skills": [],
                    "skipBootstrap": True,
                }
            },
        }

    def configure(self, model: ScriptedChat) -> Path:
        """Write ``~/.openclaw/openclaw.json`` pointing at ``model`` (JSON, indented)."""
        self.config_path.parent.mkdir(parents=True, exist_ok=True)
        self.config_path.write_text(json.dumps(self.model_config(model), indent=2) + "\n")
        return self.config_path

    @property
    def path(self) -> str:
        """``PATH`` with Node 24 and OpenClaw first (its ``#!/usr/bin/env node``)."""
        return os.pathsep.join([str(self.node_bin), str(self.binary.parent), os.defpath])

    def environment(self, extra: Mapping[str, str] = {}) -> dict[str, str]:
        """The agent's whole environment: this HOME, Node 24 first on PATH."""
        base = {"HOME": str(self.home), "NO_PROXY": "127.0.0.1,localhost"}
        env = sandbox_env(base, extra)
        env["PATH"] = self.path + os.pathsep + extra.get("PATH", os.environ.get("PATH", ""))
        return env

    async def run(
        self, prompt: str, *, env: Mapping[str, str] = {}, timeout: float | None = None
    ) -> OpenClawRun:
        """Run ``openclaw agent --local -m PROMPT --json`` in the workspace; then stop
        whatever it left running (`stop_leftovers`)."""
        command = [str(self.binary), "agent", "--local", "-m", prompt, "--json"]
        try:
            done = await run_agent(
                command,
                cwd=self.workspace,
                env=self.environment(env),
                timeout=self.timeout if timeout is None else timeout,
            )
        finally:
            self.stop_leftovers()
        return OpenClawRun.of(done)

    def leftovers(self, keep: frozenset[int] = frozenset()) -> list[int]:
        """Pids of running processes whose environment has this sandbox's HOME and whose
        command is OpenClaw's (Node), not in ``keep``."""
        marker = f"HOME={self.home}".encode()
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) in keep:
                continue
            try:
                environ = (entry / "environ").read_bytes().split(b"\0")
                argv = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:  # it ended while we looked, or is not ours to read
                continue
            if marker in environ and argv and b"node" in os.path.basename(argv[0]):
                found.append(int(entry.name))
        return found

    def stop_leftovers(self, within: float = 30.0) -> list[int]:
        """SIGTERM each of `leftovers` by its pid, then SIGKILL what is still there
        after ``within`` seconds; their pids."""
        pids = self.leftovers()
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        for pid in pids:
            if not wait_exited(pid, within):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        return pids
