"""Helpers for the hook server tests: bundles, hook inputs, and a gate a test can hold a
call at (FIFOs, so the test waits on the call, never on a clock)."""

from __future__ import annotations

import asyncio
import json
import os
import textwrap
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp.test_utils import TestServer

from amplifier_hooks.transports.http import BundleSessions, hook_app
from amplifier_hooks.transports.routes import known_adapters
from amplifier_hooks.web import Credentials, require_token
from amplifier_hooks.web.limits import Limits

ROOT = Path(__file__).resolve().parents[2]
MODULES = ROOT / "modules"
GATE_MODULE = Path(__file__).parent / "fixtures" / "gate_hook.py"
BLOCKING_MODULE = Path(__file__).parent / "fixtures" / "blocking_hook.py"
TOKEN = "s" * 32


def write_bundle(directory: Path, hooks: str, name: str = "bundle.yaml") -> Path:
    path = directory / name
    path.write_text(
        'bundle: {name: test, version: "1"}\n'
        'session:\n  approvals: {store: ":memory:"}\n'
        "hooks:\n" + textwrap.indent(textwrap.dedent(hooks), "  ")
    )
    return path


def monitor_hooks(threshold: int = 2) -> str:
    return f"""\
    - module: ah-progress-monitor
      source: {MODULES / "ah-progress-monitor"}
      config: {{thresholds: [{threshold}]}}
    """


def gate_hooks(gate: Path, record: Path) -> str:
    return f"""\
    - module: gate
      source: {GATE_MODULE}
      config: {{gate: "{gate}", record: "{record}"}}
    """


def base(event: str, session: str) -> dict[str, Any]:
    return {
        "session_id": session,
        "transcript_path": f"/tmp/{session}.jsonl",
        "cwd": "/tmp",
        "hook_event_name": event,
    }


def bash(command: str, session: str = "s1") -> dict[str, Any]:
    return {
        **base("PreToolUse", session),
        "permission_mode": "default",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "test"},
        "tool_use_id": "toolu_1",
    }


def read(session: str = "s1", path: str = "/w/a.py") -> dict[str, Any]:
    return {
        **base("PostToolUse", session),
        "tool_name": "Read",
        "tool_input": {"file_path": path},
        "tool_response": {"type": "text"},
        "tool_use_id": "toolu_2",
    }


def session_end(session: str = "s1") -> dict[str, Any]:
    return {**base("SessionEnd", session), "reason": "other"}


def encode(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload).encode()


def decision(output: dict[str, Any] | None) -> tuple[str, str] | None:
    """(permissionDecision, reason) of a PreToolUse answer."""
    if output is None or "hookSpecificOutput" not in output:
        return None
    specific = output["hookSpecificOutput"]
    return specific.get("permissionDecision"), specific.get("permissionDecisionReason", "")


def context(output: dict[str, Any] | None) -> str | None:
    if output is None:
        return None
    value = output.get("hookSpecificOutput", {}).get("additionalContext")
    return value if isinstance(value, str) else None


class Gate:
    """Two FIFOs: the held handler says it entered, the test releases it."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        os.mkfifo(directory / "entered")
        os.mkfifo(directory / "release")

    def wait_entered(self) -> str:
        """Block until the handler is in (it opens the FIFO for writing)."""
        with open(self.directory / "entered") as entered:
            return entered.readline().strip()

    def release(self) -> None:
        with open(self.directory / "release", "w") as release:
            release.write("go\n")

    def let_go(self) -> None:
        """Release a handler if one is held, without waiting for one to come (a thread
        still held after its call was given up on)."""
        try:
            fd = os.open(self.directory / "release", os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # nobody holds: nothing to release
            return
        with os.fdopen(fd, "w") as release:
            release.write("go\n")


@asynccontextmanager
async def serving(
    bundle: Path, limits: Limits, max_body: int = 1 << 20
) -> AsyncIterator[tuple[aiohttp.ClientSession, str, BundleSessions]]:
    """A hook server of ``bundle`` on loopback, and a client holding its token."""
    source = BundleSessions(bundle)
    app = hook_app(
        source,
        known_adapters(),
        max_body=max_body,
        grace=5.0,
        middlewares=[require_token(Credentials(TOKEN))],
        limits=limits,
    )
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    client = aiohttp.ClientSession(headers={"Authorization": f"Bearer {TOKEN}"})
    try:
        yield client, str(server.make_url("/claude-code")), source
    finally:
        await client.close()
        await server.close()


@asynccontextmanager
async def counting_turns() -> AsyncIterator[Callable[[], int]]:
    """How many turns of the event loop have gone by, counted by a task that does nothing
    else (it runs once in every turn)."""
    count = 0

    async def counting() -> None:
        nonlocal count
        while True:
            count += 1
            await asyncio.sleep(0)

    counter = asyncio.ensure_future(counting())
    try:
        yield lambda: count
    finally:
        counter.cancel()
