"""What the proxy passes on as it is, and what it keeps to itself: the client's ids (a
string id too), a ping, a call the client cancels while its question is open (never
forwarded, never answered, the question withdrawn), the calls after it. Spoken as raw
JSON-RPC lines, as a client writes them, so that every id on the wire is seen."""

from __future__ import annotations

from pathlib import Path

from tests.mcp_proxy.conftest import Sandbox, sample_server, write_bundle
from tests.mcp_proxy.test_failures import INITIALIZED, receive, send, start, stop

ASK_CRASH = """\
- module: ah-approval
  source: {modules}/ah-approval
  config:
    defaults: false
    rules:
      - tool: mcp__fs__crash
        decision: ask
        timeout: 120
"""


def test_ids_pass_as_the_client_wrote_them_and_a_cancelled_call_is_never_forwarded(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path / "ask.yaml", ASK_CRASH)
    proxy = start(sandbox, bundle, sample_server(sandbox))
    initialize = {
        "jsonrpc": "2.0",
        "id": "first",
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "raw-test-client", "version": "1"},
        },
    }
    try:
        send(proxy.stdin, initialize)
        initialized = receive(proxy.stdout)
        send(proxy.stdin, INITIALIZED)
        send(proxy.stdin, {"jsonrpc": "2.0", "id": 5, "method": "ping"})
        pong = receive(proxy.stdout)
        send(proxy.stdin, {"jsonrpc": "2.0", "id": 6, "method": "tools/call",
                           "params": {"name": "crash", "arguments": {}}})  # fmt: skip
        question = receive(proxy.stdout)
        send(proxy.stdin, {"jsonrpc": "2.0", "method": "notifications/cancelled",
                           "params": {"requestId": 6}})  # fmt: skip
        withdrawn = receive(proxy.stdout)
        send(proxy.stdin, {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                           "params": {"name": "large", "arguments": {"size": 3}}})  # fmt: skip
        answered = receive(proxy.stdout)
        still_running = proxy.poll() is None
    finally:
        said = stop(proxy)

    assert initialized["id"] == "first", said
    assert initialized["result"]["serverInfo"]["name"] == "sample"
    assert pong == {"jsonrpc": "2.0", "id": 5, "result": {}}
    assert question["method"] == "elicitation/create"
    assert question["id"] not in (5, 6, 7, "first")
    assert question["params"]["message"].startswith("Allow mcp__fs__crash")
    assert withdrawn["method"] == "notifications/cancelled"
    assert withdrawn["params"]["requestId"] == question["id"]
    # The next line is call 7's answer: call 6 got none, and the server never ran it.
    assert answered["id"] == 7
    assert answered["result"]["content"][0]["text"] == "xxx"
    assert still_running, said
