"""What ``amplifier-hooks mcp`` adds to one ``tools/call``: proxied against direct.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_mcp_proxy

One MCP client (the SDK's `ClientSession`) talks to an MCP server over stdio twice over:
directly, and through the proxy (``amplifier-hooks mcp --bundle B -- SERVER``). The
server is a small one on the SDK (`benchmarks.mcp_echo_server`) whose tool answers with a
text of the size asked, so the time is the transports' and ours, not a filesystem's. The
calls take turns (direct, proxied, direct...), so a busy moment hits both alike; the table
shows the median (p50) and p90 round trip of each, per result size, and the p50 the proxy
adds. The rows: a relay of lines that parses nothing (`benchmarks.mcp_line_relay`: the
floor, what one more process and two more stdio hops cost), the proxy with a bundle of no
hooks (its own cost) and with bundles/default.md (event log, redaction with the result
scrubbed, the guard, the progress monitor). Beside the times, the CPU the relaying process
spent per call (``/proc``): on a busy machine the round trips mostly measure waiting for a
core, the CPU what the proxy costs. Target: the default bundle adds at most 1 ms (p50) to a
call with a 10 kB result.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from benchmarks._targets import add_smoke, target
from benchmarks.bench_hook_calls import _cpu_seconds

ROOT = Path(__file__).resolve().parents[1]
SERVER = [sys.executable, "-m", "benchmarks.mcp_echo_server"]
SIZES = (100, 1_000, 10_000)
TARGET_MS = 1.0


@contextlib.asynccontextmanager
async def session(command: Sequence[str], env: dict[str, str]) -> AsyncIterator[ClientSession]:
    program, *args = command
    params = StdioServerParameters(command=program, args=args, env=env, cwd=str(ROOT))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        yield client


async def call(client: ClientSession, size: int) -> float:
    started = time.perf_counter()
    await client.call_tool("echo", {"size": size})
    return time.perf_counter() - started


PROXY = "amplifier_hooks.cli"
FLOOR = "benchmarks.mcp_line_relay"


def proxied(bundle: Path) -> list[str]:
    return [sys.executable, "-m", PROXY, "mcp", "--bundle", str(bundle),
            "--name", "bench", "--", *SERVER]  # fmt: skip


def relayed() -> list[str]:
    """The floor: a relay of lines that parses nothing (`benchmarks.mcp_line_relay`)."""
    return [sys.executable, "-m", FLOOR, *SERVER]


Rows = dict[int, tuple[list[float], list[float], float | None]]
"""Per result size: the direct and the proxied round trips (seconds), and the proxy
process's CPU seconds per call (None where ``/proc`` does not say)."""


def _children(marker: str) -> list[int]:
    """This process's children whose command line holds ``marker``."""
    found = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                parent = int(stat.read().rsplit(") ", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as line:
                command = line.read().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, ValueError, IndexError):
            continue
        if parent == os.getpid() and marker in command:
            found.append(int(entry))
    return found


async def measure(
    command: list[str], marker: str, calls: int, warm: int, env: dict[str, str]
) -> Rows:
    rows: Rows = {}
    async with session(SERVER, env) as direct, session(command, env) as through:
        proxies = _children(marker)
        proxy = proxies[0] if len(proxies) == 1 else None
        for size in SIZES:
            for _ in range(warm):
                await call(direct, size)
                await call(through, size)
            plain: list[float] = []
            ours: list[float] = []
            before = _cpu_seconds(proxy) if proxy else None
            for _ in range(calls):
                plain.append(await call(direct, size))
                ours.append(await call(through, size))
            after = _cpu_seconds(proxy) if proxy else None
            cpu = (after - before) / calls if before is not None and after is not None else None
            rows[size] = (plain, ours, cpu)
    return rows


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def report(name: str, rows: Rows) -> float:
    """Print the table of one bundle; the p50 added at 10 kB, in ms."""
    print(f"\n{name}")
    print(
        "| result | direct p50 | proxied p50 | direct p90 | proxied p90 | added p50 | ratio "
        "| proxy CPU a call |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    added = 0.0
    for size, (plain, ours, cpu) in rows.items():
        d50, o50 = statistics.median(plain) * 1000, statistics.median(ours) * 1000
        added = o50 - d50
        spent = "?" if cpu is None else f"{cpu * 1000:.3f} ms"
        print(
            f"| {size} B | {d50:.3f} ms | {o50:.3f} ms | {p(plain, 0.9):.3f} ms | "
            f"{p(ours, 0.9):.3f} ms | {added:.3f} ms | {o50 / d50:.2f}x | {spent} |"
        )
    return added


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=400, help="timed calls per size and row")
    add_smoke(parser)
    args = parser.parse_args(argv)
    calls, warm = (5, 2) if args.smoke else (args.calls, 50)
    with tempfile.TemporaryDirectory(prefix="ah-bench-mcp-") as scratch:
        empty = Path(scratch) / "empty.yaml"
        empty.write_text('bundle: {name: empty, version: "1"}\n')
        env = {
            **os.environ,
            "XDG_STATE_HOME": str(Path(scratch) / "state"),
            "PYTHONPATH": str(ROOT),
        }
        env.pop("AMPLIFIER_HOOKS_LOG", None)
        print(f"{calls} calls per row and size, taking turns; python {sys.version.split()[0]}")
        bundles = (("no hooks", empty), ("bundles/default.md", ROOT / "bundles" / "default.md"))
        runs = [("line relay that parses nothing (the floor)", relayed(), FLOOR)]
        runs += [(name, proxied(bundle), PROXY) for name, bundle in bundles]
        for name, command, marker in runs:
            added = report(name, anyio.run(measure, command, marker, calls, warm, env))
        what = "default bundle: p50 the proxy adds to a call with a 10 kB result"
        target(what, added * 1000, TARGET_MS * 1000, " µs")


if __name__ == "__main__":
    main(sys.argv[1:])
