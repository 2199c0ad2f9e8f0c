"""The hook server under a fleet's load and under attack, against a bare endpoint in the
same run.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_serve_load
    .venv/bin/python -m benchmarks.bench_serve_load --sessions 100 --memory-sessions 1000

0. What one session costs, in this process (CPU time, no HTTP): opening it (building its
   coordinator and mounting the bundle, with its first call) and a later call, for the
   first session of a fresh process (cold: the guard's pack read, the modules found and
   imported) and for the next ``--open-sessions`` (what a server pays per new session).
1. Load: ``--sessions`` sessions x ``--calls`` hook calls at ``--concurrency`` on
   loopback against ``amplifier-hooks serve`` (bundles/strict.yaml), then the same load
   against a bare aiohttp endpoint (its own process) answering ``{}``. Every answer is
   checked against the one a fresh session gets for the same input. Targets: no error,
   no wrong answer, p99 <= 5x p50, throughput >= 0.5x the bare endpoint's (on asyncio's
   event loop). The same bare endpoint on uvloop (``serve``'s loop) is a row for reading
   only: what the loop alone buys. Each server's CPU time per call (its sessions' opening
   included) is printed too: unlike calls/s, it hardly moves with the machine's load.
2. Memory: ``--memory-sessions`` sessions opened; the server's resident memory (peak and
   now) must stay within 300 MB (sessions are capped at 1,000; the idle longest close).
3. Attack: 1,100 idle connections and a 16 MB hook input of 10^6 keys thrown at the
   server; a legitimate call meanwhile must be answered within 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

from benchmarks._targets import add_smoke, at_least, target
from benchmarks._timeline import Call, read_probe, summary

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT / "bundles" / "strict.yaml"
BARE = """
import sys
from aiohttp import web
async def answer(request):
    await request.read()
    return web.json_response({})
app = web.Application()
app.router.add_post("/claude-code", answer)
loop = None
if sys.argv[2] == "uvloop":
    import uvloop
    loop = uvloop.new_event_loop()
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), access_log=None, print=None, loop=loop)
"""


def call(kind: int, session: str, index: int) -> dict[str, Any]:
    """The ``kind``-th of three hook inputs: an allowed and a denied shell command before
    they run, and a file read after it ran."""
    base = {
        "session_id": session,
        "transcript_path": f"/tmp/{session}.jsonl",
        "cwd": "/tmp",
        "permission_mode": "default",
        "tool_use_id": f"toolu_{index}",
    }
    if kind == 0:
        return {**base, "hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_input": {"command": "git status"}}  # fmt: skip
    if kind == 1:
        return {**base, "hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_input": {"command": "rm -rf /tmp/x"}}  # fmt: skip
    read = {"file_path": "/tmp/notes.txt"}
    return {**base, "hook_event_name": "PostToolUse", "tool_name": "Read",
            "tool_input": read, "tool_response": {"type": "text"}}  # fmt: skip


def verdict(answer: Any) -> Any:
    """What must not differ between two answers to the same input."""
    if isinstance(answer, dict) and "hookSpecificOutput" in answer:
        return answer["hookSpecificOutput"].get("permissionDecision")
    return answer


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def start_serve(
    token: str, state: Path, gc_probe: Path | None = None
) -> tuple[asyncio.subprocess.Process, str]:
    env = {**os.environ, "AMPLIFIER_HOOKS_TOKEN": token}
    env["AMPLIFIER_HOOKS_LOG"] = str(state / "events.jsonl")
    if gc_probe is not None:  # benchmarks/gcprobe: every collection of the server, timed
        env["AH_GC_PROBE"] = str(gc_probe)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(ROOT / "benchmarks" / "gcprobe"), *filter(None, [env.get("PYTHONPATH")])]
        )
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "amplifier_hooks.cli", "serve", "--bundle", str(BUNDLE),
        "--port", "0", env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stderr is not None
    while True:
        line = (await process.stderr.readline()).decode()
        if not line:
            raise RuntimeError("amplifier-hooks serve exited before listening")
        if "Claude Code HTTP hooks at POST" in line:
            url = line.rsplit("POST ", 1)[1].strip()
            _DRAINS.add(asyncio.ensure_future(_drain(process.stderr)))  # keep its log flowing
            return process, url


_DRAINS: set[asyncio.Future[None]] = set()


async def _drain(stream: asyncio.StreamReader) -> None:
    while await stream.readline():
        pass


async def start_bare(loop: str) -> tuple[asyncio.subprocess.Process, str]:
    """The bare endpoint on ``loop``: "asyncio" (the baseline) or "uvloop"."""
    port = free_port()
    process = await asyncio.create_subprocess_exec(sys.executable, "-c", BARE, str(port), loop)
    url = f"http://127.0.0.1:{port}/claude-code"
    for _ in range(600):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process, url
        except OSError:
            await asyncio.sleep(0.05)
    raise RuntimeError("the bare endpoint did not start")


async def load(
    url: str,
    token: str,
    sessions: int,
    calls: int,
    concurrency: int,
    expect: Callable[..., bool],
    timeline: list[Call] | None = None,
) -> dict[str, float]:
    """Run the load; its numbers. ``timeline`` gets every answered call, and the run's
    start on the monotonic clock is the numbers' ``origin``."""
    latencies: list[float] = []
    record = timeline if timeline is not None else []
    errors = wrong = 0
    queue: asyncio.Queue[int] = asyncio.Queue()
    for number in range(sessions):
        queue.put_nowait(number)
    headers = {"Authorization": f"Bearer {token}"}
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector, headers=headers) as client:

        async def worker() -> None:
            nonlocal errors, wrong
            while not queue.empty():
                number = queue.get_nowait()
                session = f"load-{number}-{secrets.token_hex(3)}"
                for index in range(calls):
                    kind = index % 3
                    sent = time.monotonic()
                    try:
                        async with client.post(url, json=call(kind, session, index)) as reply:
                            body = await reply.json(content_type=None)
                            ok = reply.status == 200
                    except (aiohttp.ClientError, ValueError):
                        errors += 1
                        continue
                    took = time.monotonic() - sent
                    latencies.append(took)
                    record.append(Call(sent - origin, took, index == 0))
                    if not ok:
                        errors += 1
                    elif not expect(kind, body):
                        wrong += 1

        origin = time.monotonic()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.monotonic() - origin
    latencies.sort()
    return {
        "origin": origin,
        "calls": len(latencies),
        "errors": errors,
        "wrong": wrong,
        "throughput": len(latencies) / elapsed,
        "p50": statistics.median(latencies) * 1000,
        "p99": latencies[int(len(latencies) * 0.99) - 1] * 1000,
    }


async def expected(url: str, token: str) -> dict[int, Any]:
    headers = {"Authorization": f"Bearer {token}"}
    async with aiohttp.ClientSession(headers=headers) as client:
        found = {}
        for kind in range(3):
            async with client.post(url, json=call(kind, f"probe-{kind}", 0)) as reply:
                found[kind] = verdict(await reply.json())
    return found


async def attack(url: str, token: str, connections: int = 1100, keys: int = 1_000_000) -> float:
    """Seconds a legitimate call took while idle connections and a 16 MB input came."""
    parts = url.split("/")[2]
    host, port = parts.rsplit(":", 1)
    idle = []
    for _ in range(connections):
        try:
            idle.append(await asyncio.open_connection(host, int(port)))
        except OSError:
            break
    big = call(2, "attack", 0)
    big["tool_response"] = {f"k{i}": i for i in range(keys)}  # 10**6: about 16 MB of JSON
    body = json.dumps(big).encode()
    headers = {"Authorization": f"Bearer {token}"}
    async with aiohttp.ClientSession(headers=headers) as client:
        flood = asyncio.ensure_future(client.post(url, data=body))
        await asyncio.sleep(0.2)  # the big body is being read or parsed
        started = time.perf_counter()
        async with client.post(url, json=call(0, "legit", 0)) as reply:
            await reply.read()
        took = time.perf_counter() - started
        async with await flood as reply:
            await reply.read()
    for _, writer in idle:
        writer.close()
    print(f"  idle connections opened: {len(idle)}; 16 MB input: {len(body) / 1e6:.1f} MB")
    return took


async def status(url: str, token: str, field: str) -> int:
    """One number of the server's ``GET /status``."""
    headers = {"Authorization": f"Bearer {token}"}
    address = url.rsplit("/", 1)[0] + "/status"
    async with aiohttp.ClientSession(headers=headers) as client, client.get(address) as reply:
        return int((await reply.json())[field])


async def session_costs(state: Path, sessions: int, calls: int) -> dict[str, float]:
    """CPU milliseconds, in this process, of the first session (open and first call), of
    each later session's open and first call, and of a later call."""
    from amplifier_hooks.hosts.claude_code import CLAUDE_CODE
    from amplifier_hooks.transports.http.source import BundleSessions

    before = os.environ.get("AMPLIFIER_HOOKS_LOG")
    os.environ["AMPLIFIER_HOOKS_LOG"] = str(state / "in-process.jsonl")
    source = BundleSessions(BUNDLE)
    try:
        started = time.process_time()
        await source.answer(CLAUDE_CODE, call(0, "cold", 0))
        cold = time.process_time() - started
        started = time.process_time()
        for number in range(sessions):
            await source.answer(CLAUDE_CODE, call(0, f"open-{number}", 0))
        opened = time.process_time() - started
        started = time.process_time()
        for index in range(1, calls):
            for number in range(sessions):
                await source.answer(CLAUDE_CODE, call(index % 3, f"open-{number}", index))
        called = time.process_time() - started
    finally:
        await source.aclose()
        if before is None:
            os.environ.pop("AMPLIFIER_HOOKS_LOG", None)
        else:
            os.environ["AMPLIFIER_HOOKS_LOG"] = before
    return {
        "cold": cold * 1000,
        "open": opened / sessions * 1000,
        "call": called / max(1, sessions * (calls - 1)) * 1000,
    }


def cpu_seconds(pid: int) -> float:
    """User and system CPU time ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> tuple[float, float]:
    """(now, peak) resident memory of ``pid`` in MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        fields[name] = value
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


async def bare_load(
    args: argparse.Namespace, token: str, loop: str, calls: list[Call]
) -> dict[str, float]:
    """The load against the bare endpoint on ``loop``, with its CPU ms per call; each
    call's timing goes to ``calls``."""
    bare, bare_url = await start_bare(loop)
    try:
        await expected(bare_url, token)  # warm
        spent = cpu_seconds(bare.pid)
        row = await load(bare_url, token, args.sessions, args.calls, args.concurrency,
                         lambda kind, body: body == {}, calls)  # fmt: skip
        row["cpu"] = (cpu_seconds(bare.pid) - spent) / max(row["calls"], 1) * 1000
    finally:
        bare.terminate()
        await bare.wait()
    return row


async def main(args: argparse.Namespace) -> int:
    # The servers' logs and state (thousands of sessions' records) go with the run.
    with tempfile.TemporaryDirectory(prefix="ah-bench-load-") as folder:
        return await run(args, Path(folder))


async def run(args: argparse.Namespace, state: Path) -> int:
    token = secrets.token_urlsafe(24)
    costs = await session_costs(state, args.open_sessions, args.calls)
    print(f"in this process (CPU): first session {costs['cold']:.1f} ms (cold); each later "
          f"session's open and first call {costs['open']:.2f} ms; a later call "
          f"{costs['call']:.3f} ms ({args.open_sessions} sessions)")  # fmt: skip
    bare_calls: list[Call] = []
    serve_calls: list[Call] = []
    floor = await bare_load(args, token, "asyncio", bare_calls)
    on_uvloop = await bare_load(args, token, "uvloop", [])
    probe = state / "probe.txt" if args.probe else None
    serve, url = await start_serve(token, state, probe)
    failures = []
    try:
        before, _ = rss_mb(serve.pid)  # the process, before any session
        want = await expected(url, token)  # three sessions: every module imported
        warm, _ = rss_mb(serve.pid)
        spent = cpu_seconds(serve.pid)
        ours = await load(url, token, args.sessions, args.calls, args.concurrency,
                          lambda kind, body: verdict(body) == want[kind], serve_calls)  # fmt: skip
        ours["cpu"] = (cpu_seconds(serve.pid) - spent) / max(ours["calls"], 1) * 1000
        await load(url, token, args.memory_sessions, 1, args.concurrency,
                   lambda kind, body: True)  # fmt: skip
        now, peak = rss_mb(serve.pid)  # before the attack's 16 MB input adds its own
        open_sessions = await status(url, token, "sessions")
        legit = await attack(url, token, args.idle, args.keys)
    finally:
        serve.terminate()
        await serve.wait()
    print(f"load: {args.sessions} sessions x {args.calls} calls, concurrency {args.concurrency}")
    print(f"{'server':<34} {'calls/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7} {'wrong':>6} "
          f"{'CPU ms/call':>11}")  # fmt: skip
    rows = (
        ("bare aiohttp endpoint answering {}", floor),
        ("bare aiohttp endpoint on uvloop", on_uvloop),  # what the loop alone buys
        ("amplifier-hooks serve", ours),
    )
    for name, row in rows:
        print(f"{name:<34} {row['throughput']:>8.0f} {row['p50']:>8.1f} {row['p99']:>8.1f} "
              f"{row['errors']:>7.0f} {row['wrong']:>6.0f} {row['cpu']:>11.3f}")  # fmt: skip
    for name, calls, probed in (("bare endpoint", bare_calls, None), ("serve", serve_calls, probe)):
        seen = None if probed is None else read_probe(probed, ours["origin"])
        print(f"{name}: " + "\n".join(summary(calls, seen)))
    ratio = ours["throughput"] / floor["throughput"]
    tail = ours["p99"] / ours["p50"]
    met = [
        target("errors and wrong answers:", ours["errors"] + ours["wrong"], 0, unit=""),
        target("p99 / p50:", tail, 5),
        at_least("throughput / bare endpoint:", ratio, 0.5),
        target("a legitimate call under attack:", legit, 1, unit=" s"),
        target(f"RSS peak after {args.memory_sessions} sessions:", peak, 300, unit=" MB"),
    ]
    each = (now - warm) * 1024 / max(open_sessions - 3, 1)
    print(f"RSS before any session: {before:.0f} MB; with 3 sessions: {warm:.0f} MB; with "
          f"{open_sessions}: {now:.0f} MB ({each:.0f} kB per further session)")  # fmt: skip
    if not all(met):
        failures.append("a target is not met")
    return 1 if failures else 0


def cli(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=500)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--memory-sessions", type=int, default=5000)
    parser.add_argument(
        "--open-sessions", type=int, default=200, help="sessions opened in this process"
    )
    parser.add_argument("--idle", type=int, default=1100, help="idle connections thrown at it")
    parser.add_argument("--keys", type=int, default=1_000_000, help="keys of the big input")
    parser.add_argument(
        "--probe",
        action="store_true",
        help="time the server's garbage collections and long turns of its event loop "
        "(benchmarks/gcprobe), shown beside its slowest calls",
    )
    add_smoke(parser)
    args = parser.parse_args(argv)
    if args.smoke:
        args.sessions, args.calls, args.concurrency = 5, 2, 2
        args.memory_sessions, args.idle, args.keys = 20, 10, 1000
        args.open_sessions = 3
    code = asyncio.run(main(args))
    if code and not args.smoke:  # a smoke run's numbers mean nothing: it only has to run
        raise SystemExit(code)


if __name__ == "__main__":
    cli()
