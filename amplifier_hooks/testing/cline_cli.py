"""Run the real Cline CLI in a sandbox, its model replaced by `ScriptedChat`.

`ClineCli` gives a test its own workspace and HOME, points Cline's ``openai-compatible``
provider at the Chat Completions stand-in on loopback (``cline auth``), and runs ``cline
--json PROMPT`` there. Cline runs a task in a hub daemon it starts on first use and
leaves running; the sandbox gives that daemon a port of its own (``CLINE_HUB_PORT``), so
two sandboxes never share one, and `ClineCli.stop_hub` stops it by its pid.
`ClineRun` holds the parsed JSON lines and stderr.

Nothing here downloads Cline: pass the path of an installed binary.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from amplifier_hooks.testing.agent_process import AgentOutput
from amplifier_hooks.testing.chat_completions import ScriptedChat
from amplifier_hooks.testing.sandbox import AgentSandbox, sandbox_env
from amplifier_hooks.testing.servers import live_processes, wait_exited

__all__ = ["MODEL", "ClineCli", "ClineRun"]

MODEL: Final = "scripted"
"""The model name Cline is told to use with the openai-compatible provider."""

HUB_FLAG: Final = b"--cline-hub-daemon"


class ClineRun(AgentOutput):
    """What one ``cline --json`` run produced (its ``--json`` lines: `events`)."""

    @property
    def finish_reason(self) -> str | None:
        """How the task ended (``completed``, ``aborted``…), from its ``run_result``."""
        for event in reversed(self.events):
            if event.get("type") == "run_result":
                return str(event.get("finishReason"))
        return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ClineCli(AgentSandbox):
    """A sandbox for the real Cline binary: a workspace and a HOME of its own."""

    agent = "Cline"
    folders = {"project": "workspace"}
    default_timeout = 120.0

    def __init__(self, binary: Path | str, root: Path, *, timeout: float | None = None) -> None:
        super().__init__(binary, root, timeout=timeout)
        self.hub_port = _free_port()

    @property
    def hooks_dir(self) -> Path:
        return self.project / ".cline" / "hooks"

    def environment(self, extra: Mapping[str, str] = {}) -> dict[str, str]:
        """The CLI's whole environment (the hub daemon it starts keeps it)."""
        base = {
            "HOME": str(self.home),
            "CLINE_HUB_PORT": str(self.hub_port),
            "NO_PROXY": "127.0.0.1,localhost",
        }
        return sandbox_env(base, extra)

    async def authenticate(self, model: ScriptedChat) -> None:
        """``cline auth``: the openai-compatible provider at the stand-in."""
        command = [str(self.binary), "auth", "-p", "openai-compatible", "-k", model.api_key]
        command += ["-m", MODEL, "-b", model.v1_url]
        done = await self.launch(command, self.environment())
        if done.returncode != 0:
            raise RuntimeError(f"cline auth failed ({done.returncode}): {done.stderr[-500:]}")

    async def run(
        self,
        prompt: str,
        model: ScriptedChat,
        *,
        env: Mapping[str, str] = {},
        timeout: float | None = None,
    ) -> ClineRun:
        """Authenticate at ``model``, then run ``cline --json PROMPT`` in the workspace
        (a prompt of two words or more: one word is taken for a subcommand). A run over
        ``timeout`` seconds is stopped and returned with ``timed_out`` set."""
        if len(prompt.split()) < 2:
            raise ValueError("a Cline prompt of one word is taken for a subcommand")
        await self.authenticate(model)
        command = [str(self.binary), "--json", prompt]
        return ClineRun.of(await self.launch(command, self.environment(env), timeout))

    def hub_pids(self) -> list[int]:
        """The hub daemons serving this sandbox (by the port it gave them)."""
        port = str(self.hub_port).encode()

        def ours(argv: list[bytes]) -> bool:
            return HUB_FLAG in argv and port in argv

        return live_processes(ours)

    def stop_hub(self, within: float = 30.0) -> list[int]:
        """SIGTERM this sandbox's hub daemons and wait for them (SIGKILL after
        ``within`` seconds); their pids."""
        pids = self.hub_pids()
        for pid in pids:
            _signal(pid, signal.SIGTERM)
        for pid in pids:
            if not wait_exited(pid, within):
                _signal(pid, signal.SIGKILL)
                wait_exited(pid, within)
        return pids


def _signal(pid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signum)
