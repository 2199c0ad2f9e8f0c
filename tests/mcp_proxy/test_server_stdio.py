"""The proxy's own stdio transport to the server: a server that will not stop is ended
with everything it started; an answer over the size bound becomes an error for its id,
and the session goes on; the SDK is used through its public modules only."""

from __future__ import annotations

import ast
import contextlib
import json
import os
import signal
import sys
import time
from pathlib import Path

from amplifier_hooks.transports.mcp.server_stdio import SERVER_OVERSIZED
from tests.mcp_proxy.conftest import ROOT, Sandbox, sample_server, write_bundle
from tests.mcp_proxy.test_failures import (
    INITIALIZE,
    INITIALIZED,
    REDACT,
    gone,
    receive,
    send,
    start,
    stop,
)

STUBBORN = Path(__file__).resolve().with_name("stubborn_server.py")


def _pids(path: Path, within: float = 60.0) -> list[int]:
    """The pids the stubborn server wrote, polled for up to ``within`` seconds."""
    deadline = time.monotonic() + within
    while not path.exists():
        assert time.monotonic() < deadline, "the server never wrote its pids"
        time.sleep(0.05)
    return [int(word) for word in path.read_text().split()]


def test_a_server_that_will_not_stop_is_ended_with_what_it_started(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    bundle = write_bundle(tmp_path / "b.yaml", REDACT)
    pidfile = tmp_path / "stubborn.pids"
    proxy = start(sandbox, bundle, [sys.executable, str(STUBBORN), str(pidfile)])
    pids: list[int] = []
    try:
        pids = _pids(pidfile)
        assert proxy.stdin is not None
        proxy.stdin.close()  # the client goes away
        code = proxy.wait(timeout=120)  # stdin closed, SIGTERM ignored, then SIGKILL
    finally:
        said = stop(proxy)
        for pid in pids:  # never left behind, whatever failed above
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    assert code == 0, said
    assert all(gone(pid) for pid in pids)


def test_an_answer_over_the_bound_is_an_error_for_its_id_and_the_session_goes_on(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    limit = 4096
    bundle = write_bundle(tmp_path / "b.yaml", REDACT)
    proxy = start(sandbox, bundle, sample_server(sandbox), "--max-message", str(limit))

    def review(ident: int, path: str) -> dict[str, object]:
        params = {"name": "review", "arguments": {"path": path}}
        return {"jsonrpc": "2.0", "id": ident, "method": "prompts/get", "params": params}

    # A request just under the bound whose answer (the path, within more JSON) is over it.
    path = "p" * (limit - 16 - len(json.dumps(review(3, ""))))
    assert len(json.dumps(review(3, path))) < limit
    try:
        send(proxy.stdin, INITIALIZE)
        assert receive(proxy.stdout)["result"]["serverInfo"]["name"] == "sample"
        send(proxy.stdin, INITIALIZED)
        send(proxy.stdin, review(2, "app.py"))
        small = receive(proxy.stdout)
        send(proxy.stdin, review(3, path))
        refused = receive(proxy.stdout)
        send(proxy.stdin, review(4, "lib.py"))
        after = receive(proxy.stdout)
    finally:
        said = stop(proxy)

    # Passed on as the server sent it: every field, the client's id.
    assert small == {
        "jsonrpc": "2.0",
        "id": 2,
        "result": {
            "description": "A prompt that asks for a review of ``path``.",
            "messages": [
                {"role": "user", "content": {"type": "text", "text": "Review app.py for bugs."}}
            ],
        },
    }, said
    assert refused["id"] == 3
    assert refused["error"]["message"] == SERVER_OVERSIZED
    assert refused["error"]["data"] == {"max_bytes": limit}
    assert after["id"] == 4
    assert after["result"]["messages"][0]["content"]["text"] == "Review lib.py for bugs."


def test_the_proxy_uses_the_sdk_through_its_public_modules_only() -> None:
    # A private module (a name that starts with "_") may change in any SDK release.
    private = []
    for source in sorted((ROOT / "amplifier_hooks" / "transports" / "mcp").glob("*.py")):
        for node in ast.walk(ast.parse(source.read_text())):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                parts = name.split(".")
                if parts[0] in ("mcp", "mcp_types") and any(p.startswith("_") for p in parts):
                    private.append(f"{source.name}: {name}")
    assert private == []
