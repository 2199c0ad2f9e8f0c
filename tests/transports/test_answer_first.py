"""A hook server sends the host its answer before the observers (the event log) do their
work, on a connection kept alive from one call to the next, each answer one response of
known length; a session's last answer still comes after everything is written."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from amplifier_hooks.transports.http import Activity, BundleSessions, hook_app
from amplifier_hooks.transports.routes import known_adapters
from amplifier_hooks.web import Credentials, require_token
from tests.transports.support import (
    MODULES,
    TOKEN,
    Gate,
    bash,
    read,
    session_end,
    write_bundle,
)

OBSERVER_MODULE = Path(__file__).parent / "fixtures" / "observer_hook.py"

ANSWERED = 120.0
"""Seconds a test waits for an answer before it fails (instead of hanging)."""


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Any]:
    started: list[TestServer] = []

    async def start(hooks: str) -> tuple[str, int, Activity]:
        activity = Activity()
        app = hook_app(
            BundleSessions(write_bundle(tmp_path, hooks), check_every=0),
            known_adapters(),
            max_body=1 << 20,
            grace=5.0,
            middlewares=[require_token(Credentials(TOKEN))],
            activity=activity,
        )
        server = TestServer(app, host="127.0.0.1")
        await server.start_server()
        started.append(server)
        assert server.port is not None
        return "127.0.0.1", server.port, activity

    yield start
    for server in started:
        await server.close()


async def test_the_host_has_its_answer_before_the_observers_run(
    server: Any, tmp_path: Path
) -> None:
    gate, record = Gate(tmp_path / "gate"), tmp_path / "record"
    host, port, activity = await server(
        f"""\
        - module: observer
          source: {OBSERVER_MODULE}
          config: {{gate: "{gate.directory}", record: "{record}"}}
        """
    )
    headers = {"Authorization": f"Bearer {TOKEN}"}
    try:
        async with aiohttp.ClientSession(headers=headers) as client:
            url = f"http://{host}:{port}/claude-code"
            posting = asyncio.ensure_future(client.post(url, json=bash("ls")))
            await asyncio.to_thread(gate.wait_entered)  # the observer is held...
            response = await asyncio.wait_for(posting, ANSWERED)  # ...and the host answered
            assert response.status == 200
            assert await response.json() == {}
            assert not record.exists()
            assert activity.in_flight == 1  # the call is not over: shutdown would wait for it
            await asyncio.to_thread(gate.release)
            await activity.quiet()
            assert record.read_text() == "observed tool:pre\n"
    finally:
        gate.let_go()


async def exchange(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, payload: dict[str, Any]
) -> tuple[dict[str, str], Any]:
    """One hook call on an open connection: the response's headers and its JSON."""
    body = json.dumps(payload).encode()
    writer.write(
        b"POST /claude-code HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n"
        + f"Authorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\n".encode()
        + f"Content-Length: {len(body)}\r\n\r\n".encode()
        + body
    )
    head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), ANSWERED)).decode()
    status, *lines = head.strip().split("\r\n")
    assert status == "HTTP/1.1 200 OK"
    headers = {k.lower(): v for k, v in (line.split(": ", 1) for line in lines)}
    return headers, json.loads(await reader.readexactly(int(headers["content-length"])))


async def test_one_connection_serves_a_whole_session_and_its_log_is_complete_at_the_end(
    server: Any, tmp_path: Path
) -> None:
    log = tmp_path / "events.jsonl"
    host, port, _ = await server(
        f"""\
        - module: ah-logging
          source: {MODULES / "ah-logging"}
          config: {{path: "{log}"}}
        """
    )
    reader, writer = await asyncio.open_connection(host, port)
    try:
        for payload in (bash("ls"), read(), bash("pwd"), read(), session_end()):
            headers, answer = await exchange(reader, writer, payload)
            assert "transfer-encoding" not in headers  # its length said up front
            assert headers.get("connection", "keep-alive").lower() == "keep-alive"
            assert answer == {}
        # The host may exit on SessionEnd's answer: by then every record is written.
        events = [json.loads(line)["event"] for line in log.read_text().splitlines()]
        assert events == [
            "session:start",
            "tool:pre",
            "tool:post",
            "tool:pre",
            "tool:post",
            "session:end",
        ]
    finally:
        writer.close()
        await writer.wait_closed()
