"""``bench_guard``'s HTTP rows: warm hook calls to ``amplifier-hooks serve``, one server
per bundle of `BUNDLES`, the rows taking turns; see ``benchmarks/bench_guard.py``."""

from __future__ import annotations

import contextlib
import json
import shutil
import statistics
import tempfile
from pathlib import Path

from amplifier_hooks.testing.servers import stop_hook_servers
from benchmarks.bench_hook_calls import (
    COMMAND,
    ROOT,
    TOKEN,
    _cpu_seconds,
    _environment,
    _http,
    _port,
    _server_process,
)

__all__ = ["BARE", "BUNDLES", "EMPTY", "GUARD", "NOOP", "http_costs"]

EMPTY = "bundle with no hooks"
NOOP = "bundle with one `tool:pre` handler that does nothing"
BARE = "bundle with ah-guard, no rules (pack: none)"
GUARD = "bundle with ah-guard (default pack)"
_GUARD = ROOT / "modules" / "ah-guard"
BUNDLES = {
    EMPTY: "bundle: {name: empty}\nhooks: []\n",
    # Context, not the target: what any handler on the call costs (the registry's emit,
    # the call, its result), and what ah-guard costs apart from its rules (every command
    # still parsed and judged).
    NOOP: (
        "bundle: {name: noop}\nhooks:\n"
        f"  - module: bench-noop\n    source: {ROOT / 'benchmarks' / 'noop_hook.py'}\n"
    ),
    BARE: (
        f"bundle: {{name: guard-none}}\nhooks:\n  - module: ah-guard\n    source: {_GUARD}\n"
        "    config: {pack: none}\n"
    ),
    GUARD: f"bundle: {{name: guard}}\nhooks:\n  - module: ah-guard\n    source: {_GUARD}\n",
}
"""Each row's bundle file, by the row's name."""


def http_costs(
    rounds: int, command: str, rows: tuple[str, ...]
) -> dict[str, tuple[float, float | None]]:
    """(median seconds of a warm HTTP hook call, the server's CPU seconds per call), per
    row of ``rows`` (names in `BUNDLES`), their servers running together and taking turns;
    the call is a ``PreToolUse`` of the shell ``command``. The CPU time is the server
    process's over the timed calls (it does nothing else meanwhile; None where ``/proc``
    does not say), so the calls' wall time can be set against the work the server did for
    them. Each server running takes its share of the caches: the rows of one target are
    measured in one run, and context rows in another."""
    runtime = Path(tempfile.mkdtemp(prefix="ah-bench-", dir="/tmp"))
    workspace = Path(tempfile.mkdtemp(prefix="ah-bench-ws-"))
    env = _environment(runtime, workspace)
    body = json.dumps(
        {
            "session_id": "bench",
            "transcript_path": "/tmp/bench.jsonl",
            "cwd": str(workspace),
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "tool_use_id": "toolu_bench",
        }
    ).encode()
    names = {}
    for index, name in enumerate(rows):
        names[name] = workspace / f"bundle-{index}.yaml"
        names[name].write_text(BUNDLES[name])
    serve = [COMMAND, "serve", "--port", "0", "--bundle"]
    times: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, float | None] = {}
    try:
        with contextlib.ExitStack() as servers:
            started = [
                servers.enter_context(
                    _server_process([*serve, str(b)], env, workspace, "listening on")
                )
                for b in names.values()
            ]
            ports = [_port(line) for line, _ in started]
            pids = {name: process.pid for name, (_, process) in zip(names, started, strict=True)}
            auth = {"Authorization": f"Bearer {TOKEN}"}
            calls = {
                name: _http(port, "/claude-code", auth, body)
                for name, port in zip(names, ports, strict=True)
            }
            for call, _ in calls.values():
                for _ in range(20):
                    call()  # warm: the session's coordinator is built on its first call
            before = {name: _cpu_seconds(pid) for name, pid in pids.items()}
            for _ in range(rounds):
                for name, (call, _) in calls.items():
                    times[name].append(call())
            for name, pid in pids.items():
                first, last = before[name], _cpu_seconds(pid)
                cpu[name] = None if first is None or last is None else (last - first) / rounds
            for _, close in calls.values():
                close()
    finally:
        stop_hook_servers(runtime)
        shutil.rmtree(runtime, ignore_errors=True)
        shutil.rmtree(workspace, ignore_errors=True)
    return {name: (statistics.median(runs), cpu[name]) for name, runs in times.items()}
