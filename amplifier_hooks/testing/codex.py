"""Run the real Codex CLI in a sandbox, its model replaced by a `ScriptedResponses`.

`Codex` gives each test its own project directory, HOME and ``CODEX_HOME`` (so neither
the user's config nor their hooks leak in), points Codex's model provider at the
scripted Responses API on loopback, and runs ``codex exec --skip-git-repo-check PROMPT
< /dev/null`` (without the redirect it waits on stdin). `CodexRun` holds its exit code,
output and stderr; the scripted model's recorded requests show what reached the model
(a hook's deny reason, a tool's output, context a hook added).

Hooks go in ``$CODEX_HOME/hooks.json`` (`Codex.write_hooks`, or ``amplifier-hooks codex
install`` with ``CODEX_HOME`` set, `Codex.install_env`); Codex runs only hooks whose hash
``config.toml`` trusts. `Codex.list_hooks` asks the binary itself (``codex app-server``,
JSON-RPC ``hooks/list``) for each hook's key, current hash and trust status, and
`Codex.trust_all` records those hashes, for hand-written test hooks.

Nothing here downloads Codex: pass the path of an installed binary.
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
from typing import Any, Final

from amplifier_hooks.testing.agent_process import AgentOutput, AgentTimeout
from amplifier_hooks.testing.responses_api import ScriptedResponses
from amplifier_hooks.testing.sandbox import AgentSandbox, private_places

__all__ = ["Codex", "CodexRun", "CodexTimeout"]

PASSED_ENV: Final = ("PATH", "LANG", "LC_ALL", "TZ", "XDG_RUNTIME_DIR")
"""The only variables taken from the caller's environment: an API key, a proxy or a
``CODEX_*`` setting of the developer must not reach the sandboxed agent."""

KEY_VARIABLE: Final = "STANDIN_API_KEY"
_HEAD_BEGIN: Final = "# >>> the model of amplifier_hooks.testing.codex"
_HEAD_END: Final = "# <<< the model of amplifier_hooks.testing.codex"
_CLIENT: Final = {"name": "amplifier-hooks-tests", "version": "1"}
PROVIDER: Final = "standin"


class CodexTimeout(AgentTimeout):
    """Codex did not finish in time; the run so far (`CodexRun`) is attached."""


@dataclass(frozen=True, kw_only=True)
class CodexRun(AgentOutput):
    """What one ``codex exec`` run produced, and in which project."""

    project: Path


class Codex(AgentSandbox):
    """A sandbox for the real Codex binary: a project, HOME and CODEX_HOME of its own."""

    agent = "Codex"
    folders = {"config": ".codex"}
    codex_home = AgentSandbox.config_dir
    """``CODEX_HOME``: the sandbox's ``~/.codex``."""

    @property
    def hooks_path(self) -> Path:
        return self.codex_home / "hooks.json"

    @property
    def config_path(self) -> Path:
        return self.codex_home / "config.toml"

    def configure(self, model: ScriptedResponses, *, trust_project: bool = False) -> None:
        """Write config.toml's model provider (the scripted model) and unattended
        settings, between two marker lines at its top; the rest of the file (hook
        trust) stays."""
        lines = [
            _HEAD_BEGIN,
            f'model = "{model.model}"',
            f'model_provider = "{PROVIDER}"',
            'approval_policy = "never"',
            'sandbox_mode = "danger-full-access"',
        ]
        if trust_project:
            lines += [f'projects.{json.dumps(str(self.project))}.trust_level = "trusted"']
        lines += [
            f'model_providers.{PROVIDER}.name = "scripted stand-in"',
            f"model_providers.{PROVIDER}.base_url = {json.dumps(model.v1_url)}",
            f'model_providers.{PROVIDER}.wire_api = "responses"',
            f'model_providers.{PROVIDER}.env_key = "{KEY_VARIABLE}"',
            _HEAD_END,
        ]
        self.config_path.write_text("\n".join(lines) + "\n" + self._config_rest())

    def _config_rest(self) -> str:
        """The config after our own head (written by `configure`), if any."""
        try:
            text = self.config_path.read_text()
        except FileNotFoundError:
            return ""
        end = text.find(_HEAD_END + "\n")
        return text if end < 0 else text[end + len(_HEAD_END) + 1 :]

    async def write_hooks(self, hooks: Mapping[str, Any], *, trust: bool = True) -> Path:
        """Write ``$CODEX_HOME/hooks.json`` (``{"hooks": hooks}``); with ``trust``,
        record every hook in it as trusted."""
        self.hooks_path.write_text(json.dumps({"hooks": hooks}, indent=2) + "\n")
        if trust:
            await self.trust_all()
        return self.hooks_path

    async def list_hooks(self) -> list[dict[str, Any]]:
        """Codex's own list of the hooks it finds for the project: ``key``,
        ``eventName``, ``command``, ``currentHash``, ``trustStatus``... (``hooks/list``
        of ``codex app-server``)."""
        process = await asyncio.create_subprocess_exec(
            str(self.binary),
            "app-server",
            cwd=self.project,
            env={**self.environment(None), "RUST_LOG": "error"},
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            start_new_session=True,
            limit=16 * 1024 * 1024,  # one reply lists every hook, commands included
        )
        assert process.stdin is not None and process.stdout is not None
        try:
            return await asyncio.wait_for(self._hooks_list(process), self.timeout)
        finally:
            # bin/codex is node starting the native binary: end the whole group.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            await process.wait()

    async def _hooks_list(self, process: asyncio.subprocess.Process) -> list[dict[str, Any]]:
        # One request at a time: the server answers nothing sent before `initialize`.
        await _request(process, 1, "initialize", {"clientInfo": _CLIENT})
        _send(process, {"method": "initialized"})
        reply = await _request(process, 2, "hooks/list", {"cwds": [str(self.project)]})
        return [hook for entry in reply["data"] for hook in entry["hooks"]]

    async def trust_all(self) -> None:
        """Record every hook Codex finds as trusted, with the hash Codex reports."""
        tables = [
            f"[hooks.state.{json.dumps(hook['key'])}]\n"
            f"trusted_hash = {json.dumps(hook['currentHash'])}\n"
            for hook in await self.list_hooks()
            if hook.get("trustStatus") != "trusted"
        ]
        with self.config_path.open("a") as config:
            config.write("".join("\n" + table for table in tables))

    def install_env(self) -> dict[str, str]:
        """The environment for ``amplifier-hooks codex install`` into this sandbox, with
        this Codex on PATH as a person's would be (install says when it is not)."""
        path = os.pathsep.join((str(self.binary.parent), os.environ.get("PATH", os.defpath)))
        return {
            **os.environ,
            "CODEX_HOME": str(self.codex_home),
            "HOME": str(self.home),
            "PATH": path,
        }

    def environment(
        self, model: ScriptedResponses | None, extra: Mapping[str, str] = {}
    ) -> dict[str, str]:
        """The agent's whole environment: the model on loopback, no other traffic."""
        env = {name: os.environ[name] for name in PASSED_ENV if name in os.environ}
        env.update(private_places(self.home))
        env.update(
            HOME=str(self.home),
            CODEX_HOME=str(self.codex_home),
            NO_PROXY="127.0.0.1,localhost",
            RUST_LOG="error",
        )
        if model is not None:
            env[KEY_VARIABLE] = model.api_key
        env.update(extra)
        return env

    async def run(
        self,
        prompt: str,
        model: ScriptedResponses,
        *,
        args: Sequence[str] = (),
        env: Mapping[str, str] = {},
        timeout: float | None = None,
    ) -> CodexRun:
        """Run ``codex exec`` in the project dir and wait for it to finish; `CodexTimeout`
        (with the output so far) after stopping it when it takes over ``timeout`` s."""
        command = [str(self.binary), "exec", "--skip-git-repo-check", *args, prompt]
        limit = self.limit(timeout)
        done = await self.launch(command, self.environment(model, env), limit)
        lines, stderr = done.lines, done.stderr
        run = CodexRun(done.returncode, lines, stderr, done.timed_out, project=self.project)
        if done.timed_out:
            raise CodexTimeout(f"Codex ran over {limit}s", run)
        return run


def _send(process: asyncio.subprocess.Process, message: Mapping[str, Any]) -> None:
    assert process.stdin is not None
    process.stdin.write((json.dumps({"jsonrpc": "2.0", **message}) + "\n").encode())


async def _request(
    process: asyncio.subprocess.Process, id: int, method: str, params: Mapping[str, Any]
) -> dict[str, Any]:
    """Send one JSON-RPC request; its result (notifications in between are skipped)."""
    assert process.stdin is not None and process.stdout is not None
    _send(process, {"id": id, "method": method, "params": params})
    await process.stdin.drain()
    while line := await process.stdout.readline():
        reply = json.loads(line)
        if reply.get("id") != id:
            continue
        if "error" in reply:
            raise RuntimeError(f"codex app-server {method} failed: {reply['error']}")
        result: dict[str, Any] = reply["result"]
        return result
    raise RuntimeError(f"codex app-server closed before answering {method}")
