"""A session's later calls, in process: the instructions (or CPU time) one costs.

The load benchmark's three hook inputs, through `BundleSessions` on bundles/strict.yaml
with the event log on, with no HTTP: ``--sessions`` sessions are opened and warmed, then
``--rounds`` rounds of one call to each are measured, the collector off. Counting
instructions, which do not move with the machine's load, needs valgrind::

    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/tmp/calls.out \\
        .venv/bin/python -m benchmarks.callprobe --callgrind

    grep -h totals: /tmp/calls.out*

and divide the total by the calls counted (it prints them). Without ``--callgrind`` it
prints the least CPU time a call took over five measured loops. A measuring tool, not a
benchmark with a target.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import tempfile
import time
from pathlib import Path

from benchmarks.bench_serve_load import BUNDLE, call
from benchmarks.sessionprobe import _count


async def probe(sessions: int, rounds: int, callgrind: bool) -> float:
    """CPU ms of a later call (the least of five loops), or 0.0 when counting."""
    from amplifier_hooks.hosts.claude_code import CLAUDE_CODE
    from amplifier_hooks.transports.http.source import BundleSessions

    state = Path(tempfile.mkdtemp(prefix="ah-callprobe-"))
    os.environ["AMPLIFIER_HOOKS_LOG"] = str(state / "events.jsonl")
    source = BundleSessions(BUNDLE, max_sessions=sessions + 1)

    async def calls(first: int) -> None:
        for index in range(first, first + rounds):
            for number in range(sessions):
                await source.answer(CLAUDE_CODE, call(index % 3, f"s-{number}", index))

    try:
        for number in range(sessions):
            await source.answer(CLAUDE_CODE, call(0, f"s-{number}", 0))
        await calls(1)  # warm: every session past its first call
        gc.collect()
        gc.disable()
        if callgrind:
            _count(True)
            await calls(1 + rounds)
            _count(False)
            return 0.0
        best = float("inf")
        for loop in range(5):
            started = time.process_time()
            await calls(1 + rounds * (loop + 1))
            best = min(best, (time.process_time() - started) / (sessions * rounds) * 1000)
        return best
    finally:
        gc.enable()
        await source.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--callgrind", action="store_true", help="count under callgrind")
    args = parser.parse_args()
    best = asyncio.run(probe(args.sessions, args.rounds, args.callgrind))
    if args.callgrind:
        print(f"{args.sessions * args.rounds} later calls counted")
    else:
        print(f"a later call in process: {best:.3f} ms CPU (least of five loops)")


if __name__ == "__main__":
    main()
