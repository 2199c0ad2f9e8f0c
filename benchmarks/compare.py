"""Emit and dispatch of two checkouts, compared on a busy machine.

Run from the repository root, with two trees of the project (``git worktree add`` or
``git archive REV | tar -x -C DIR``)::

    .venv/bin/python -m benchmarks.compare BEFORE_DIR AFTER_DIR --rounds 10

Each round runs one short measurement per tree in a fresh process (its own
``amplifier_hooks`` and ``benchmarks``: the process starts in that tree), the two trees
taking turns, so a busy moment hits both alike. A measurement is `bench_emit.measure`
(10 handlers of each kind) and `bench_dispatch.measure` (10 injections, persisted to a
sink) with a few repeats; the table gives, per row, the median over the rounds of each
tree's µs and their ratio (after / before). Below 1.10 is what issue 23 asks of a change
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
import asyncio, json
from benchmarks import bench_dispatch, bench_emit
rows = {}
loop = asyncio.new_event_loop()
for kind in bench_emit.KINDS:
    rows[f"emit, 10 handlers: {kind}"] = bench_emit.measure(kind, 10, REPEATS, 0.05, loop)[0]
loop.close()
for label, texts in (("hook texts", bench_dispatch.hook_texts(10)),
                     ("short texts", bench_dispatch.short_texts(10))):
    coordinator = bench_dispatch.make_coordinator(texts, ephemeral=False, sink=True)
    rows[f"dispatch, 10 injections: {label}"] = bench_dispatch.measure(
        coordinator, texts, REPEATS, 0.05)[0]
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
    print(f"{args.rounds} rounds, trees taking turns; medians of each tree's µs")
    print("| row | before µs | after µs | after / before |")
    print("|---|---:|---:|---:|")
    for row, before_times in times["before"].items():
        before = statistics.median(before_times)
        after = statistics.median(times["after"][row])
        print(f"| {row} | {before * 1e6:.1f} | {after * 1e6:.1f} | {after / before:.2f} |")


if __name__ == "__main__":
    main()
