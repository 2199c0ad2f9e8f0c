"""The hook server's application over real HTTP on loopback: the token, answers in Claude
Code's terms, module state per session, a bundle changed on disk, and every failure a
blocking answer with status 200 (any other status lets Claude Code through)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from amplifier_hooks.transports.http import (
    Activity,
    BundleSessions,
    HookServerConfig,
    hook_app,
    serve_hooks,
)
from amplifier_hooks.transports.relay import wire
from amplifier_hooks.transports.relay.client import RelayAnswer
from amplifier_hooks.transports.routes import known_adapters
from amplifier_hooks.web import Credentials, require_token
from tests.transports.support import (
    TOKEN,
    Gate,
    bash,
    context,
    decision,
    gate_hooks,
    monitor_hooks,
    read,
    session_end,
    write_bundle,
)

AUTH = {"Authorization": f"Bearer {TOKEN}"}

Serve = Callable[..., Any]


@pytest.fixture
async def serve() -> AsyncIterator[Serve]:
    """Start the app for a bundle on loopback; a client session with the token."""
    started: list[tuple[TestServer, aiohttp.ClientSession]] = []

    async def start(
        bundle: Path, *, max_body: int = 1 << 20, grace: float = 5.0, **options: Any
    ) -> tuple[aiohttp.ClientSession, str, web.Application]:
        app = hook_app(
            BundleSessions(bundle, check_every=0, **options),
            known_adapters(),
            max_body=max_body,
            grace=grace,
            middlewares=[require_token(Credentials(TOKEN))],
        )
        server = TestServer(app, host="127.0.0.1")
        await server.start_server()
        client = aiohttp.ClientSession(headers=AUTH)
        started.append((server, client))
        return client, str(server.make_url("")), app

    yield start
    for server, client in started:
        await client.close()
        await server.close()


async def post(client: aiohttp.ClientSession, url: str, payload: Any) -> tuple[int, Any]:
    async with client.post(url, json=payload) as response:
        return response.status, await response.json()


async def test_requests_without_the_token_are_refused(serve: Serve, tmp_path: Path) -> None:
    _, base, _ = await serve(write_bundle(tmp_path, monitor_hooks()))
    async with aiohttp.ClientSession() as anonymous:
        async with anonymous.post(f"{base}/claude-code", json=bash("ls")) as response:
            assert response.status == 401
        headers = {"Authorization": "Bearer " + "x" * 32}
        async with anonymous.post(f"{base}/claude-code", json={}, headers=headers) as response:
            assert response.status == 401
            assert await response.text() == "missing or wrong token\n"


async def test_a_deny_is_claude_codes_permission_deny(serve: Serve, tmp_path: Path) -> None:
    record = tmp_path / "record"
    client, base, _ = await serve(write_bundle(tmp_path, gate_hooks(tmp_path, record)))
    status, body = await post(client, f"{base}/claude-code", bash("rm -rf /"))
    assert status == 200
    assert decision(body) == ("deny", "rm is not allowed here")
    status, body = await post(client, f"{base}/claude-code", bash("ls"))
    assert (status, body) == (200, {})


async def test_module_state_lasts_each_session_and_ends_with_it(
    serve: Serve, tmp_path: Path
) -> None:
    client, base, _ = await serve(write_bundle(tmp_path, monitor_hooks(threshold=2)))
    url = f"{base}/claude-code"
    first = (await post(client, url, read("s1")))[1]
    other = (await post(client, url, read("s2")))[1]
    second = (await post(client, url, read("s1")))[1]
    assert (context(first), context(other)) == (None, None)
    assert (context(second) or "").startswith("Progress check: 2 read-only tool calls")
    async with client.get(f"{base}/status") as response:
        assert (await response.json())["sessions"] == 2
    await post(client, url, session_end("s1"))
    async with client.get(f"{base}/status") as response:
        assert (await response.json())["sessions"] == 1
    # s1 starts over: its streak went with its coordinator.
    assert context((await post(client, url, read("s1")))[1]) is None


async def test_the_relay_route_answers_with_exit_code_and_stderr(
    serve: Serve, tmp_path: Path
) -> None:
    record = tmp_path / "record"
    client, base, _ = await serve(write_bundle(tmp_path, gate_hooks(tmp_path, record)))
    async with client.post(f"{base}/relay/claude-code", json=bash("rm x")) as response:
        assert response.status == 200
        answer = RelayAnswer.from_body(await response.read())
    assert answer.exit_code == 0 and answer.stderr == ""
    assert decision(answer.output) == ("deny", "rm is not allowed here")
    async with client.post(f"{base}/relay/claude-code", data=b"{not json") as response:
        answer = RelayAnswer.from_body(await response.read())
    assert answer.output is None and answer.exit_code == 2
    assert "malformed hook input: hook input is not JSON" in answer.stderr


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"{not json", "malformed hook input: hook input is not JSON (Expecting"),
        (b"\xff\xfe", "malformed hook input: hook input is not UTF-8 (byte 1)"),
        (b"[1, 2]", "malformed hook input:"),
        (b'{"hook_event_name": "PreToolUse"}', "malformed hook input:"),
    ],
)
async def test_a_malformed_body_is_blocked_with_status_200(
    serve: Serve, tmp_path: Path, data: bytes, reason: str
) -> None:
    client, base, _ = await serve(write_bundle(tmp_path, monitor_hooks()))
    async with client.post(f"{base}/claude-code", data=data) as response:
        assert response.status == 200
        body = await response.json()
    blocking = body.get("decision") == "block" or decision(body) is not None
    assert blocking, body
    text = body.get("reason") or decision(body)[1]  # type: ignore[index]
    assert reason in text
    if decision(body) is not None:
        assert decision(body)[0] == "deny"  # type: ignore[index]


async def test_a_body_over_the_limit_is_blocked_unread(serve: Serve, tmp_path: Path) -> None:
    client, base, _ = await serve(write_bundle(tmp_path, monitor_hooks()), max_body=4096)
    big = bash("echo " + "x" * 5000)
    status, body = await post(client, f"{base}/claude-code", big)
    assert status == 200
    assert body["decision"] == "block"
    assert (
        "over the server's limit of 4096 bytes (amplifier-hooks serve --max-body)"
        in (body["reason"])
    )


async def test_a_bundle_changed_on_disk_is_reloaded(serve: Serve, tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path, monitor_hooks(threshold=3))
    client, base, _ = await serve(bundle)
    url = f"{base}/claude-code"
    for _ in range(2):
        assert context((await post(client, url, read("s1")))[1]) is None
    record = tmp_path / "record"
    write_bundle(tmp_path, gate_hooks(tmp_path, record))
    os.utime(bundle, ns=(1, 1))  # a different mtime even on a coarse clock
    status, body = await post(client, url, bash("rm -rf /"))
    assert (status, decision(body)) == (200, ("deny", "rm is not allowed here"))


async def test_a_failed_reload_does_not_tell_the_agent_an_included_token(
    serve: Serve, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path, monitor_hooks())
    client, base, _ = await serve(bundle)
    url = f"{base}/claude-code"
    token = "Xk2" + "q" * 40  # the token file `serve` writes, included by mistake
    (tmp_path / "token").write_text(token + "\n")
    bundle.write_text("includes: [token]\n")
    os.utime(bundle, ns=(1, 1))
    status, body = await post(client, url, bash("ls"))
    verdict, reason = decision(body) or ("", "")
    assert (status, verdict) == (200, "deny")
    assert "no longer loads" in reason
    assert "a text of 43 characters" in reason
    assert token[:8] not in json.dumps(body)


async def test_a_bundle_that_stops_loading_blocks_until_fixed(serve: Serve, tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path, monitor_hooks())
    client, base, _ = await serve(bundle)
    url = f"{base}/claude-code"
    bundle.write_text("hooks: [this is not a bundle")
    os.utime(bundle, ns=(1, 1))
    status, body = await post(client, url, bash("ls"))
    assert status == 200
    verdict, reason = decision(body) or ("", "")
    assert verdict == "deny"
    assert f"the bundle {bundle} changed and no longer loads" in reason
    write_bundle(tmp_path, monitor_hooks())
    os.utime(bundle, ns=(2, 2))
    assert (await post(client, url, bash("ls")))[1] == {}


async def test_shutdown_lets_a_call_finish_within_the_grace(serve: Serve, tmp_path: Path) -> None:
    gate, record = Gate(tmp_path / "gate"), tmp_path / "record"
    client, base, app = await serve(write_bundle(tmp_path, gate_hooks(gate.directory, record)))
    call = asyncio.ensure_future(post(client, f"{base}/claude-code", bash("hold")))
    await asyncio.to_thread(gate.wait_entered)
    shutting = asyncio.ensure_future(app.shutdown())
    await asyncio.to_thread(gate.release)
    await shutting
    status, body = await call
    assert (status, decision(body)) == (200, ("deny", "held, then denied"))
    await app.cleanup()
    assert record.read_text() == "cleanup\n"


async def test_a_call_shutdown_cannot_wait_for_is_refused_not_dropped(
    serve: Serve, tmp_path: Path
) -> None:
    gate, record = Gate(tmp_path / "gate"), tmp_path / "record"
    bundle = write_bundle(tmp_path, gate_hooks(gate.directory, record))
    client, base, app = await serve(bundle, grace=0.01)
    call = asyncio.ensure_future(post(client, f"{base}/claude-code", bash("hold")))
    await asyncio.to_thread(gate.wait_entered)
    try:
        await app.shutdown()  # the grace runs out with the call still held
        status, body = await call
    finally:
        await asyncio.to_thread(gate.release)  # free the handler's thread
    assert status == 200
    verdict, reason = decision(body) or ("", "")
    assert verdict == "deny"
    assert "the hook server shut down before this call was answered" in reason


async def test_codex_and_gemini_have_their_routes(serve: Serve, tmp_path: Path) -> None:
    record = tmp_path / "record"
    client, base, _ = await serve(write_bundle(tmp_path, gate_hooks(tmp_path, record)))
    status, body = await post(client, f"{base}/codex", bash("rm -rf /"))
    assert (status, decision(body)) == (200, ("deny", "rm is not allowed here"))
    gemini = {
        **bash("rm -rf /"),
        "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command",
    }
    status, body = await post(client, f"{base}/gemini", gemini)
    assert (status, body["decision"]) == (200, "deny")


async def test_idle_waits_for_calls_in_flight() -> None:
    activity = Activity(clock=lambda: 0.0)
    with activity.call():
        assert activity.idle_for() == 0.0
        waiting = asyncio.ensure_future(activity.idle(0.0))
        await asyncio.sleep(0)
        assert not waiting.done()
    await waiting


@pytest.mark.skipif(
    os.getuid() != 0 or not os.access("/usr/bin/python3", os.X_OK),
    reason="needs root, to run a client as another user, and a system python3 it may run",
)
async def test_on_a_unix_socket_only_the_owner_is_answered(tmp_path: Path) -> None:
    """The directory is what keeps other users out; this checks the second lock, the
    peer's user id, by making the directory open on purpose."""
    directory = Path(tempfile.mkdtemp(prefix="ah-peer-", dir="/tmp"))
    os.chmod(directory, 0o755)
    path = directory / "hooks.sock"
    record = tmp_path / "record"
    config = HookServerConfig(bundle=str(write_bundle(tmp_path, gate_hooks(tmp_path, record))))
    config = dataclasses.replace(config, unix=str(path))
    stop, ready = asyncio.Event(), asyncio.Event()
    serving = asyncio.ensure_future(serve_hooks(config, on_ready=lambda _: ready.set(), stop=stop))
    await ready.wait()
    probe = (
        "import socket, sys\n"
        "s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])\n"
        "s.sendall(b'POST /relay/claude-code HTTP/1.1\\r\\nHost: x\\r\\n"
        "Content-Length: 2\\r\\nConnection: close\\r\\n\\r\\n{}')\n"
        "print(s.recv(100).split(b'\\r\\n')[0].decode())\n"
    )
    try:
        os.chmod(path, 0o666)  # and the socket too: only the peer check is left
        done = await asyncio.to_thread(
            subprocess.run,
            ["/usr/bin/python3", "-c", probe, str(path)],
            user=65534,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        status, mine = await asyncio.to_thread(post_unix, path, bash("rm x"))
    finally:
        stop.set()
        await serving
        shutil.rmtree(directory, ignore_errors=True)
    assert done.stdout.strip() == "HTTP/1.1 403 Forbidden", done.stderr
    assert status == 200 and decision(mine["output"]) == ("deny", "rm is not allowed here")


def post_unix(path: Path, payload: Any) -> tuple[int, Any]:
    status, body = wire.post(str(path), "/relay/claude-code", json.dumps(payload).encode())
    return status, {"output": RelayAnswer.from_body(body).output}


async def test_a_held_call_does_not_hold_up_other_sessions(serve: Serve, tmp_path: Path) -> None:
    gate, record = Gate(tmp_path / "gate"), tmp_path / "record"
    client, base, _ = await serve(write_bundle(tmp_path, gate_hooks(gate.directory, record)))
    url = f"{base}/claude-code"
    held = asyncio.ensure_future(post(client, url, bash("hold", session="a")))
    try:
        await asyncio.to_thread(gate.wait_entered)
        others = await asyncio.gather(
            *(post(client, url, bash("rm x", session=f"s{n}")) for n in range(5))
        )
        assert not held.done()
    finally:
        await asyncio.to_thread(gate.release)
    assert [decision(body) for _, body in others] == [("deny", "rm is not allowed here")] * 5
    assert decision((await held)[1]) == ("deny", "held, then denied")


async def test_the_event_in_the_query_is_copilots_only(serve: Serve, tmp_path: Path) -> None:
    # Copilot's input names no event: its relayed command passes it as ?event=.
    record = tmp_path / "record"
    client, base, _ = await serve(write_bundle(tmp_path, gate_hooks(tmp_path, record)))
    copilot = {"sessionId": "c1", "timestamp": 0, "cwd": str(tmp_path), "toolName": "bash",
               "toolArgs": {"command": "rm -rf /"}}  # fmt: skip
    url = f"{base}/relay/copilot"
    async with client.post(f"{url}?event=preToolUse", json=copilot) as response:
        named = RelayAnswer.from_body(await response.read())
    assert named.output == {"permissionDecision": "deny",
                            "permissionDecisionReason": "rm is not allowed here"}  # fmt: skip
    async with client.post(url, json=copilot) as response:  # no event: refused, with why
        unnamed = RelayAnswer.from_body(await response.read())
    assert unnamed.output != named.output and "event" in str(unnamed.output)
    # Claude Code's input names its own event: a query naming another is not taken.
    status, body = await post(client, f"{base}/claude-code?event=Stop", bash("rm -rf /"))
    assert (status, decision(body)) == (200, ("deny", "rm is not allowed here"))
