"""The real OpenClaw gateway for tests, and a person's client on it (`Operator`).

`Gateway` runs ``openclaw gateway run`` for an `OpenClaw` sandbox: loopback only, on a
free port, with a shared token; `Gateway.stop` ends it and every process it started by
pid (`OpenClaw.stop_leftovers`). `Operator` is a client of its WebSocket protocol
(``openclaw_operator.mjs`` on the sandbox's Node): it sends a chat message as a person
on the Web UI channel does (``chat.send``), sees the events the gateway pushes
(``plugin.approval.requested``) and answers them (``plugin.approval.resolve``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import socket
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from amplifier_hooks.testing.openclaw import OpenClaw

__all__ = [
    "APPROVER_CAPS",
    "APPROVER_SCOPES",
    "OPERATOR_SCRIPT",
    "Gateway",
    "Operator",
    "OperatorError",
]

OPERATOR_SCRIPT: Final = Path(__file__).with_name("openclaw_operator.mjs")
APPROVER_SCOPES: Final = ("operator.read", "operator.write", "operator.approvals")
APPROVER_CAPS: Final = ("plugin-approvals",)


class OperatorError(RuntimeError):
    """The gateway refused the client, or answered a request with an error."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Gateway:
    """``openclaw gateway run`` on 127.0.0.1 for ``openclaw``'s sandbox."""

    def __init__(self, openclaw: OpenClaw, env: Mapping[str, str] = {}) -> None:
        self.openclaw = openclaw
        self.env = openclaw.environment(env)
        self.port = _free_port()
        self.token = secrets.token_hex(20)
        self.log = openclaw.home / "gateway.log"
        self.process: asyncio.subprocess.Process | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def settings(self) -> dict[str, Any]:
        """The config's ``gateway`` section: local, loopback, this port and token."""
        auth = {"mode": "token", "token": self.token}
        return {"mode": "local", "port": self.port, "bind": "loopback", "auth": auth}

    async def start(self, within: float = 300.0) -> None:
        """Start it; return once its port takes connections (`OperatorError` if it
        exits first, or is not listening ``within`` seconds)."""
        command = [str(self.openclaw.binary), "gateway", "run", "--port", str(self.port)]
        command += ["--bind", "loopback", "--auth", "token", "--token", self.token]
        with self.log.open("wb") as log:
            self.process = await asyncio.create_subprocess_exec(
                *command,
                cwd=self.openclaw.workspace,
                env=self.env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            if self.process.returncode is not None:
                raise OperatorError(f"the gateway exited {self.process.returncode}: {self.tail()}")
            with contextlib.suppress(OSError):
                await asyncio.open_connection("127.0.0.1", self.port)
                return
            await asyncio.sleep(0.25)
        raise OperatorError(f"the gateway is not listening after {within:g} s: {self.tail()}")

    def tail(self, size: int = 3000) -> str:
        """The end of the gateway's log."""
        try:
            return self.log.read_text(errors="replace")[-size:]
        except OSError:
            return ""

    async def stop(self, within: float = 30.0) -> list[int]:
        """SIGTERM the gateway by its pid, then every other process of this sandbox
        (`OpenClaw.stop_leftovers`); SIGKILL what is still there after ``within`` s."""
        stopped: list[int] = []
        process = self.process
        if process is not None and process.returncode is None:
            stopped.append(process.pid)
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), within)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(process.pid, signal.SIGKILL)
                await process.wait()
        return stopped + await asyncio.to_thread(self.openclaw.stop_leftovers, within)

    def operator(
        self, *, scopes: tuple[str, ...] = APPROVER_SCOPES, caps: tuple[str, ...] = APPROVER_CAPS
    ) -> Operator:
        """A client with ``scopes`` and ``caps`` (by default one the gateway sends
        plugin approvals to); use as ``async with``."""
        return Operator(self, scopes, caps)


class Operator:
    """A person's client on the gateway (``openclaw_operator.mjs``)."""

    def __init__(self, gateway: Gateway, scopes: tuple[str, ...], caps: tuple[str, ...]) -> None:
        self.gateway = gateway
        self.scopes = scopes
        self.caps = caps
        self.process: asyncio.subprocess.Process | None = None
        self.events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._hello: asyncio.Future[dict[str, Any]] | None = None
        self._reader: asyncio.Task[None] | None = None
        self._count = 0
        # The gateway takes a repeated idempotency key for the same message: a second
        # client on one gateway would be handed the first one's (finished) run.
        self._client = secrets.token_hex(4)

    async def __aenter__(self) -> Operator:
        env = {
            "PATH": self.gateway.env["PATH"],
            "HOME": self.gateway.env["HOME"],
            "TMPDIR": self.gateway.env["TMPDIR"],
            "OPENCLAW_GATEWAY_TOKEN": self.gateway.token,
            "OPERATOR_SCOPES": ",".join(self.scopes),
            "OPERATOR_CAPS": ",".join(self.caps),
        }
        node = self.gateway.openclaw.node_bin / "node"
        self.process = await asyncio.create_subprocess_exec(
            str(node),
            str(OPERATOR_SCRIPT),
            self.gateway.url,
            env=env,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=1 << 24,
        )
        self._hello = asyncio.get_running_loop().create_future()
        self._reader = asyncio.create_task(self._read())
        await asyncio.wait_for(asyncio.shield(self._hello), 300)
        return self

    async def __aexit__(self, *exc: object) -> None:
        process = self.process
        if process is None:
            return
        if process.stdin is not None:
            process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), 30)
        except TimeoutError:
            process.kill()
            await process.wait()
        if self._reader is not None:
            await self._reader

    async def _read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        async for line in self.process.stdout:
            said = json.loads(line)
            if "res" in said:
                waiting = self._waiting.pop(str(said["res"]), None)
                if waiting is not None and not waiting.done():
                    waiting.set_result(said)
            elif "event" in said:
                self.events.put_nowait(said)
            elif self._hello is not None and not self._hello.done():
                if "hello" in said:
                    self._hello.set_result(said["hello"])
                else:  # refused, or the connection failed
                    self._hello.set_exception(OperatorError(f"not connected: {said}"))
        gone = OperatorError("the operator's connection ended")
        if self._hello is not None and not self._hello.done():
            self._hello.set_exception(gone)
        for waiting in self._waiting.values():
            if not waiting.done():
                waiting.set_exception(gone)

    async def request(self, method: str, params: Mapping[str, Any], within: float = 120.0) -> Any:
        """Call ``method``; its payload (`OperatorError` with the gateway's error)."""
        assert self.process is not None and self.process.stdin is not None
        self._count += 1
        ident = f"r{self._count}"
        answer = asyncio.get_running_loop().create_future()
        self._waiting[ident] = answer
        frame = {"id": ident, "method": method, "params": dict(params)}
        self.process.stdin.write(json.dumps(frame).encode() + b"\n")
        await self.process.stdin.drain()
        said = await asyncio.wait_for(answer, within)
        if not said["ok"]:
            raise OperatorError(f"{method}: {said['error']}")
        return said["payload"]

    async def event(self, *names: str, within: float = 300.0) -> dict[str, Any]:
        """The next pushed event named one of ``names`` (others are passed over):
        ``{"event": NAME, "payload": ...}``."""
        async with asyncio.timeout(within):
            while True:
                said = await self.events.get()
                if said["event"] in names:
                    return said

    async def say(self, message: str, session: str = "main") -> str:
        """Send ``message`` to the agent as a chat message; the run's id."""
        self._count += 1
        key = f"{self._client}-m{self._count}"
        params = {"sessionKey": session, "message": message, "idempotencyKey": key}
        started = await self.request("chat.send", params)
        return str(started["runId"])

    async def finished(self, run: str, within: float = 600.0) -> dict[str, Any]:
        """The ``chat`` event that ends run ``run`` (state ``final`` or ``error``)."""
        async with asyncio.timeout(within):
            while True:
                said = await self.event("chat", within=within)
                payload = said["payload"] or {}
                if payload.get("runId") == run and payload.get("state") in ("final", "error"):
                    return dict(payload)
