"""How the proxy fails: closed, and saying why. A bundle that cannot load, a server that
cannot start or dies, a client that goes away, messages too large or too deep, the SDK
missing."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest
from mcp.shared.exceptions import MCPError

from amplifier_hooks.transports.mcp.client_stdio import OVERSIZED
from amplifier_hooks.transports.mcp.sdk import EXTRA_MISSING
from tests.mcp_proxy.conftest import (
    Sandbox,
    proxied,
    proxy_command,
    sample_server,
    text_of,
    write_bundle,
)

REDACT = """\
- module: ah-redaction
  source: {modules}/ah-redaction
"""

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw-test-client", "version": "1"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def start(sandbox: Sandbox, bundle: Path, server: list[str], *extra: str) -> subprocess.Popen[str]:
    """The proxy as a child process, its pipes ours (for what the SDK's client hides:
    the exit code)."""
    return subprocess.Popen(
        proxy_command(bundle, server, *extra),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=sandbox.env,
        cwd=sandbox.workspace,
    )


def send(pipe: IO[str] | None, message: dict[str, Any]) -> None:
    assert pipe is not None
    pipe.write(json.dumps(message) + "\n")
    pipe.flush()


def receive(pipe: IO[str] | None) -> dict[str, Any]:
    assert pipe is not None
    line = pipe.readline()
    assert line, "the proxy closed its output"
    answer: dict[str, Any] = json.loads(line)
    return answer


def stop(proxy: subprocess.Popen[str]) -> str:
    """End ``proxy`` if it still runs; what it wrote on stderr."""
    if proxy.poll() is None:
        proxy.kill()
        proxy.wait()
    assert proxy.stderr is not None
    said = proxy.stderr.read()
    for pipe in (proxy.stdin, proxy.stdout, proxy.stderr):
        if pipe is not None and not pipe.closed:
            pipe.close()
    return said


def gone(pid: int, within: float = 60.0) -> bool:
    """Whether process ``pid`` has ended, polled for up to ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().split(") ", 1)[1].startswith("Z"):
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


async def test_a_bundle_that_cannot_load_refuses_every_call(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    bundle = tmp_path / "broken.yaml"
    bundle.write_text("hooks:\n  - module: no-such-module\n    source: ./nowhere\n")
    notes = sandbox.workspace / "notes.txt"
    notes.write_text("hello\n")
    async with proxied(sandbox, bundle) as session:
        listed = await session.list_tools()
        result = await session.call_tool("read_text_file", {"path": str(notes)})

    assert "read_text_file" in {t.name for t in listed.tools}  # the client learns the tools
    assert result.is_error
    assert text_of(result).startswith("the bundle cannot load, so every call is refused: ")
    assert "no-such-module" in text_of(result)


def test_a_server_that_cannot_start_is_reported_and_the_proxy_exits_non_zero(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path / "b.yaml", REDACT)
    missing = str(tmp_path / "no-such-server")
    done = subprocess.run(
        proxy_command(bundle, [missing]),
        input="",
        capture_output=True,
        text=True,
        env=sandbox.env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert f"amplifier-hooks mcp: cannot start the MCP server fs ({missing})" in done.stderr


def test_a_server_that_dies_is_reported_and_the_proxy_exits_non_zero(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path / "b.yaml", REDACT)
    proxy = start(sandbox, bundle, sample_server(sandbox))
    try:
        send(proxy.stdin, INITIALIZE)
        assert receive(proxy.stdout)["result"]["serverInfo"]["name"] == "sample"
        send(proxy.stdin, INITIALIZED)
        send(proxy.stdin, {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                           "params": {"name": "crash", "arguments": {}}})  # fmt: skip
        code = proxy.wait(timeout=120)  # stdin stays open: the client is still there
    finally:
        said = stop(proxy)
    assert code == 1
    assert "amplifier-hooks mcp: the MCP server fs closed its connection (it exited)" in said


def test_a_client_that_goes_away_ends_the_proxy_and_its_server(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path / "b.yaml", REDACT)
    proxy = start(sandbox, bundle, sample_server(sandbox))
    try:
        send(proxy.stdin, INITIALIZE)
        assert "result" in receive(proxy.stdout)
        server_pid = int((sandbox.workspace.parent / "server.pid").read_text())
        assert proxy.stdin is not None
        proxy.stdin.close()
        code = proxy.wait(timeout=120)
    finally:
        said = stop(proxy)
    assert code == 0, said
    assert gone(server_pid)


async def test_messages_too_large_or_too_deep_are_refused_and_the_session_goes_on(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path / "b.yaml", REDACT)
    notes = sandbox.workspace / "notes.txt"
    notes.write_text("hello\n")
    deep: Any = "bottom"
    for _ in range(100):
        deep = {"x": deep}
    limit = ("--max-message", "65536")
    async with proxied(sandbox, bundle, *limit, server=sample_server(sandbox)) as session:
        with pytest.raises(MCPError) as refused:
            await session.call_tool("large", {"size": 1, "padding": "p" * 100_000})
        too_deep = await session.call_tool("large", {"size": 1, "nested": deep})
        too_large = await session.call_tool("large", {"size": 100_000})
        fine = await session.call_tool("large", {"size": 5})

    assert refused.value.error.message == OVERSIZED
    assert too_deep.is_error and "nest deeper than 64 levels" in text_of(too_deep)
    assert too_large.is_error
    assert (
        text_of(too_large) == "withheld by amplifier-hooks: the result is larger than 65536 bytes"
    )
    assert text_of(fine) == "xxxxx"


async def test_a_resource_read_is_judged_as_a_read_and_scrubbed(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    notes = sandbox.workspace.parent / "notes.txt"  # the sample server's resource
    notes.write_text("token ghp_abcdefghijklmnopqrstuvwxyz0123456789\n")
    deny = """\
    - module: ah-approval
      source: {modules}/ah-approval
      config:
        defaults: false
        rules:
          - tool: read_file
            path: "*/notes.txt"
            decision: deny
            reason: notes are private
    """
    open_bundle = write_bundle(tmp_path / "open.yaml", REDACT)
    closed_bundle = write_bundle(tmp_path / "closed.yaml", deny)
    uri = f"file://{notes}"
    async with proxied(sandbox, open_bundle, server=sample_server(sandbox)) as session:
        read = await session.read_resource(uri)
    async with proxied(sandbox, closed_bundle, server=sample_server(sandbox)) as session:
        with pytest.raises(MCPError) as refused:
            await session.read_resource(uri)

    assert read.contents[0].model_dump()["text"] == "token [REDACTED:github_token]\n"
    assert "notes are private" in refused.value.error.message


async def test_prompts_pass_through_unjudged(sandbox: Sandbox, tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path / "b.yaml", REDACT)
    async with proxied(sandbox, bundle, server=sample_server(sandbox)) as session:
        listed = await session.list_prompts()
        got = await session.get_prompt("review", {"path": "app.py"})
    assert [p.name for p in listed.prompts] == ["review"]
    assert got.messages[0].content.model_dump()["text"] == "Review app.py for bugs."


def test_without_the_sdk_the_command_says_which_extra_in_one_line(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['mcp'] = None; from amplifier_hooks.cli import main; "
        "sys.exit(main(['mcp', '--bundle', 'b.yaml', '--', 'server']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "HOME": str(tmp_path)},
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == f"error: {EXTRA_MISSING}\n"
    assert "amplifier-hooks[mcp]" in EXTRA_MISSING


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def listening(port: int, within: float = 60.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.05)
    return False


@pytest.fixture
def http_server(sandbox: Sandbox) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """The sample server on Streamable HTTP at a loopback port."""
    port = free_port()
    served = subprocess.Popen(
        [*sample_server(sandbox), "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=sandbox.env,
    )
    try:
        assert listening(port)
        yield port, served
    finally:
        served.kill()
        served.wait()


async def test_a_server_at_a_url_is_proxied_over_streamable_http(
    sandbox: Sandbox, tmp_path: Path, http_server: tuple[int, subprocess.Popen[bytes]]
) -> None:
    deny = """\
    - module: ah-approval
      source: {modules}/ah-approval
      config:
        defaults: false
        rules:
          - tool: mcp__api__crash
            decision: deny
            reason: the server must stay up
    """
    bundle = write_bundle(tmp_path / "b.yaml", deny)
    port, served = http_server
    url = ("--name", "api", "--url", f"http://127.0.0.1:{port}/mcp")
    async with proxied(sandbox, bundle, *url, server=[]) as session:
        denied = await session.call_tool("crash", {})
        answered = await session.call_tool("large", {"size": 3})
    assert served.poll() is None  # the crash was never forwarded
    assert denied.is_error
    assert text_of(denied) == "the server must stay up (ah-approval rule rules[0])"
    assert text_of(answered) == "xxx"


def test_a_server_at_a_url_that_cannot_be_reached_is_reported_and_the_proxy_exits_non_zero(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path / "b.yaml", REDACT)
    url = f"http://127.0.0.1:{free_port()}/mcp"  # nothing listens there
    done = subprocess.run(
        proxy_command(bundle, [], "--name", "api", "--url", url),
        input="",
        capture_output=True,
        text=True,
        env=sandbox.env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert f"amplifier-hooks mcp: cannot start the MCP server api ({url}): " in done.stderr
