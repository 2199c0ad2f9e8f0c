"""What guarding a whole Claude Code session costs: the same scripted session of 50 tool
calls, with our hooks and without.

Run from the repository root (needs ``make claude-code``)::

    .venv/bin/python -m benchmarks.bench_claude_code
    .venv/bin/python -m benchmarks.bench_claude_code --transports http,command

The real Claude Code binary runs ``claude -p`` against the scripted model on loopback
(`amplifier_hooks.testing.messages_api`); the model answers 50 turns of one ``Read`` tool
call each, then ends. The baseline is that session with no hooks. The guarded rows are
the same session with bundles/default.md (event log, redaction, approvals, progress
monitor) installed by ``amplifier-hooks claude-code install``:

- ``http``: HTTP hooks to ``amplifier-hooks serve``, started once before the runs (warm).
  Target: at most 1.2x the baseline's wall time.
- ``bare``: the same HTTP hooks (same events, token header, timeouts) to an endpoint in
  the benchmark process that answers ``{}`` at once: Claude Code's own cost of calling
  HTTP hooks, the floor for the ``http`` row.
- ``command``: command hooks, relayed to the workspace's server (started by the first
  hook of the first run, then warm); context for what a process per hook call costs.

Every run is a fresh Claude Code session (so each builds its coordinator in the server);
the rows take turns, several rounds, and the table shows the median wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

from amplifier_hooks.testing.claude_code import ClaudeCode
from amplifier_hooks.testing.messages_api import ScriptedModel, ToolUse, Turn
from amplifier_hooks.testing.servers import stop_hook_servers
from benchmarks._targets import add_smoke, no_target, target

ROOT = Path(__file__).resolve().parent.parent
BINARY = ROOT / ".cache" / "claude-code" / "node_modules" / ".bin" / "claude"
BUNDLE = ROOT / "bundles" / "default.md"
TARGET = 1.2
FLOOR_TARGET = 1.05
"""The guarded session against the same hooks answered by an endpoint that does nothing
(issue 25): what our server adds beyond Claude Code's own cost of calling hooks."""


def script(project: Path, calls: int) -> list[Turn]:
    notes = project / "notes.txt"
    return [Turn(ToolUse("Read", {"file_path": str(notes)})) for _ in range(calls)] + [
        Turn("Done reading.")
    ]


def cli(*args: str, env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "-m", "amplifier_hooks.cli", *args],
        check=True,
        capture_output=True,
        env=env,
        timeout=300,
    )


@contextlib.asynccontextmanager
async def bare_endpoint() -> AsyncIterator[str]:
    """An HTTP hook target on loopback that answers ``{}`` (no decision) at once."""
    from aiohttp import web

    async def answer(request: web.Request) -> web.Response:
        await request.read()
        return web.json_response({})

    app = web.Application()
    app.router.add_post("/claude-code", answer)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        yield f"http://127.0.0.1:{runner.addresses[0][1]}/claude-code"
    finally:
        await runner.cleanup()


@contextlib.asynccontextmanager
async def serving(env: dict[str, str]) -> AsyncIterator[str]:
    """``amplifier-hooks serve`` for the default bundle on a free port; its hook URL."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "amplifier_hooks.cli",
        "serve",
        "--bundle",
        str(BUNDLE),
        "--port",
        "0",
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    try:
        while True:
            line = (await process.stderr.readline()).decode()
            if not line:
                raise RuntimeError("amplifier-hooks serve exited before listening")
            if "Claude Code HTTP hooks at POST" in line:
                yield line.rsplit("POST ", 1)[1].strip()
                break
    finally:
        if process.returncode is None:
            process.terminate()
        await process.wait()


async def session(sandbox: ClaudeCode, calls: int, env: dict[str, str]) -> float:
    """Seconds one scripted session takes; it must end with every call answered."""
    async with ScriptedModel(*script(sandbox.project, calls)) as model:
        started = time.perf_counter()
        run = await sandbox.run("Read the notes.", model, env=env, timeout=600)
        elapsed = time.perf_counter() - started
    results = run.tool_results()
    if run.returncode != 0 or len(results) != calls or any(r.get("is_error") for r in results):
        raise RuntimeError(f"the session did not run every call: {run.describe()}")
    if model.overran or model.answered != calls + 1:
        raise RuntimeError(f"the model answered {model.answered} turns, expected {calls + 1}")
    return elapsed


async def measure(
    calls: int, rounds: int, transports: list[str], work: Path, *, warm: bool = True
) -> None:
    runtime = Path(tempfile.mkdtemp(prefix="ah-bench-", dir="/tmp"))
    token = secrets.token_urlsafe(24)
    base_env = {
        **os.environ,
        "AMPLIFIER_HOOKS_TOKEN": token,
        "AMPLIFIER_HOOKS_LOG": str(work / "events.jsonl"),
        "XDG_RUNTIME_DIR": str(runtime),
    }
    hook_env = {k: base_env[k] for k in ("AMPLIFIER_HOOKS_TOKEN", "XDG_RUNTIME_DIR")}
    hook_env["AMPLIFIER_HOOKS_LOG"] = base_env["AMPLIFIER_HOOKS_LOG"]
    sandboxes: dict[str, ClaudeCode] = {}
    for row in ["none", *transports]:
        sandbox = ClaudeCode(BINARY, work / row, timeout=600)
        (sandbox.project / "notes.txt").write_text("the notes\n" * 20)
        sandboxes[row] = sandbox
    times: dict[str, list[float]] = {row: [] for row in sandboxes}
    async with contextlib.AsyncExitStack() as stack:
        if "http" in transports:
            url = await stack.enter_async_context(serving(base_env))
            settings = str(sandboxes["http"].settings_path())
            cli("claude-code", "install", "--bundle", str(BUNDLE), "--settings", settings,
                "--url", url, env=base_env)  # fmt: skip
        if "bare" in transports:
            # the settings install writes, pointed at the bare endpoint
            bare = await stack.enter_async_context(bare_endpoint())
            scratch = ClaudeCode(BINARY, work / "scratch")
            cli("claude-code", "install", "--bundle", str(BUNDLE), "--settings",
                str(scratch.settings_path()), "--url", bare, env=base_env)  # fmt: skip
            sandboxes["bare"].write_settings(json.loads(scratch.settings_path().read_text()))
        if "command" in transports:
            settings = str(sandboxes["command"].settings_path())
            cli("claude-code", "install", "--bundle", str(BUNDLE), "--settings", settings,
                env=base_env)  # fmt: skip
        # One warm-up each (servers started, caches), but in a smoke run, whose numbers
        # mean nothing: a warm-up is the same session again.
        for sandbox in sandboxes.values() if warm else ():
            await session(sandbox, 2, hook_env)
        for _ in range(rounds):
            for row, sandbox in sandboxes.items():  # taking turns
                times[row].append(await session(sandbox, calls, hook_env))
    stop_hook_servers(runtime)
    shutil.rmtree(runtime, ignore_errors=True)
    report(times, calls, rounds)


def report(times: dict[str, list[float]], calls: int, rounds: int) -> None:
    baseline = statistics.median(times["none"])
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}; "
        f"Claude Code session of {calls} tool calls, {rounds} rounds, median wall time"
    )
    names = {
        "none": "no hooks (baseline)",
        "http": "HTTP hooks -> amplifier-hooks serve",
        "bare": "HTTP hooks -> endpoint answering {}",
        "command": "command hooks -> workspace server",
    }
    print(f"{'session':<38} {'median s':>9} {'per call ms':>12} {'ratio':>7}")
    for row, measured in times.items():
        median = statistics.median(measured)
        per_call = (median - baseline) / calls * 1000 if row != "none" else 0.0
        print(f"{names[row]:<38} {median:>9.2f} {per_call:>12.1f} {median / baseline:>6.2f}x")
    if "http" in times:
        ratio = statistics.median(times["http"]) / baseline
        target("HTTP-guarded session / unguarded:", ratio, TARGET)
    if "http" in times and "bare" in times:
        floor = statistics.median(times["http"]) / statistics.median(times["bare"])
        target("HTTP-guarded session / bare endpoint:", floor, FLOOR_TARGET)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=50, help="tool calls per session (50)")
    parser.add_argument("--rounds", type=int, default=5, help="sessions per row (5)")
    parser.add_argument(
        "--transports", default="http,bare", help="comma-separated: http, bare, command (http,bare)"
    )
    add_smoke(parser)
    args = parser.parse_args(argv)
    transports = [t.strip() for t in args.transports.split(",") if t.strip()]
    if unknown := set(transports) - {"http", "bare", "command"}:
        parser.error(f"unknown transports: {', '.join(sorted(unknown))}")
    if args.smoke:
        args.calls, args.rounds = 2, 1
    if not os.access(BINARY, os.X_OK):
        print(f"Claude Code is not installed at {BINARY}: run `make claude-code`")
        no_target("not measured: Claude Code is not installed")
        return
    with tempfile.TemporaryDirectory(prefix="bench-claude-code-") as work:
        asyncio.run(measure(args.calls, args.rounds, transports, Path(work), warm=not args.smoke))


if __name__ == "__main__":
    main()
