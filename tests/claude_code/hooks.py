"""Plain hooks for the tests that pin down the real binary's behaviour: a command hook that
logs its input and prints fixed output, and an HTTP endpoint that answers from a function."""

from __future__ import annotations

import json
import shlex
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

from aiohttp import web


class ScriptHook:
    """A command hook: appends its stdin to a log, prints ``output``, exits ``exit_code``."""

    def __init__(
        self,
        directory: Path,
        name: str,
        output: Mapping[str, Any] | str | None = None,
        *,
        exit_code: int = 0,
        stderr: str = "",
    ) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.log = directory / f"{name}.in.jsonl"
        printed = directory / f"{name}.out"
        text = output if isinstance(output, str) else json.dumps(output) if output else ""
        printed.write_text(text)
        script = directory / f"{name}.sh"
        script.write_text(
            "#!/bin/sh\n"
            f"{{ cat; echo; }} >> {shlex.quote(str(self.log))}\n"
            f"cat {shlex.quote(str(printed))}\n"
            f"printf '%s' {shlex.quote(stderr)} >&2\n"
            f"exit {exit_code}\n"
        )
        script.chmod(0o755)
        self.command = str(script)

    def handler(self, **extra: Any) -> dict[str, Any]:
        """The settings entry that runs this hook."""
        return {"type": "command", "command": self.command, **extra}

    def inputs(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.strip()]


Respond = Callable[[dict[str, Any]], Awaitable[web.StreamResponse]]


class HookEndpoint:
    """An HTTP hook target on 127.0.0.1 that records what it got and answers with ``respond``."""

    def __init__(self, respond: Respond) -> None:
        self.respond = respond
        self.received: list[tuple[dict[str, str], dict[str, Any]]] = []
        self._runner: web.AppRunner | None = None
        self.url = ""

    async def __aenter__(self) -> HookEndpoint:
        app = web.Application()
        app.router.add_post("/hook", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}/hook"
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._runner is not None
        await self._runner.cleanup()

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.received.append((dict(request.headers), body))
        return await self.respond(body)


def pre_tool_use(*handlers: Mapping[str, Any], matcher: str = "Bash") -> dict[str, Any]:
    """Settings with ``handlers`` on PreToolUse for ``matcher``."""
    return {"hooks": {"PreToolUse": [{"matcher": matcher, "hooks": list(handlers)}]}}


def decision(kind: str, reason: str = "") -> dict[str, Any]:
    """A PreToolUse hook's JSON answer."""
    output: dict[str, Any] = {"hookEventName": "PreToolUse", "permissionDecision": kind}
    if reason:
        output["permissionDecisionReason"] = reason
    return {"hookSpecificOutput": output}
