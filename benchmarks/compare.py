"""Emit and dispatch of two checkouts, compared on a busy machine.

Run from the repository root, with two trees of the project (``git worktree add`` or
``git archive REV | tar -x -C DIR``)::

    .venv/bin/python -m benchmarks.compare BEFORE_DIR AFTER_DIR --rounds 10

Each round runs one short measurement per tree in a fresh process (its own
``amplifier_hooks`` and ``benchmarks``: the process starts in that tree), the two trees
taking turns, so a busy moment hits both alike. A measurement times the setups of
`bench_emit` (10 handlers of each kind) and `bench_dispatch` (10 injections, persisted to
a sink): the minimum over a few repeats of the mean over 1,000 calls, in the CPU time of
the process (``time.process_time``), which the other work on a shared machine disturbs
far less than wall time does. The table gives, per row, the median over the rounds of
each tree's µs and their ratio (after / before). Below 1.10 is what issue 23 asks of a change
made for readability.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

PROBE = """
import asyncio, json, time
from benchmarks import bench_dispatch, bench_emit
CALLS = 1000
def best(run):
    return min(run() for _ in range(REPEATS)) / CALLS
async def timed(call, *args):
    started = time.process_time()
    for _ in range(CALLS):
        await call(*args)
    return time.process_time() - started
loop = asyncio.new_event_loop()
rows = {}
for kind in bench_emit.KINDS:
    registry = bench_emit.make_registry(kind, 10)
    rows[f"emit, 10 handlers: {kind}"] = best(lambda: loop.run_until_complete(
        timed(registry.emit, bench_emit.EVENT, bench_emit.DATA)))
data = {"tool_name": "bash", "tool_result": {"output": "ok"}}
for label, texts in (("hook texts", bench_dispatch.hook_texts(10)),
                     ("short texts", bench_dispatch.short_texts(10))):
    coordinator = bench_dispatch.make_coordinator(texts, ephemeral=False, sink=True)
    rows[f"dispatch, 10 injections: {label}"] = best(lambda: loop.run_until_complete(
        timed(coordinator.dispatch, "tool:post", data)))
print(json.dumps(rows))
"""


def probe(tree: Path, repeats: int) -> dict[str, float]:
    """One measurement in a fresh interpreter started in ``tree``."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE.replace("REPEATS", str(repeats))],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    rows: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path, help="the tree measured as the baseline")
    parser.add_argument("after", type=Path, help="the tree compared with it")
    parser.add_argument("--rounds", type=int, default=10, help="measurements per tree")
    parser.add_argument("--repeats", type=int, default=3, help="repeats per measurement")
    args = parser.parse_args(argv)
    times: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    for _ in range(args.rounds):
        for side in ("before", "after"):
            for row, seconds in probe(getattr(args, side), args.repeats).items():
                times[side].setdefault(row, []).append(seconds)
    print(f"{args.rounds} rounds, trees taking turns; medians of each tree's CPU µs per call")
    print("| row | before µs | after µs | after / before |")
    print("|---|---:|---:|---:|")
    for row, before_times in times["before"].items():
        before = statistics.median(before_times)
        after = statistics.median(times["after"][row])
        print(f"| {row} | {before * 1e6:.1f} | {after * 1e6:.1f} | {after / before:.2f} |")


if __name__ == "__main__":
    main()
