"""What opening a session of the hook server costs, in process: CPU and kept objects.

Run from the repository root::

    .venv/bin/python -m benchmarks.sessionprobe

`BundleSessions` on ``bundles/strict.yaml``, as ``serve`` holds it, with no HTTP: after a
warm-up, ``--sessions`` new sessions each answer one call (the open and its first call),
in rounds. Printed: CPU milliseconds per open and first call with the collector off
(the work itself; least and median of the rounds) and with it on (the work and the
collections it causes, with that many sessions open), a later call of an open session
in the same run for scale, and how many objects the collector tracks per open session
(``gc.get_objects()`` after a full collection, before and after the opens). Not run by
``python -m benchmarks``: a probe for the session-opening work.

On a busy machine CPU time varies from run to run; instructions do not. Under callgrind,
``--callgrind`` counts only the opens with the collector off (it turns the count on and
off around them with ``callgrind_control``)::

    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/tmp/open.out \
        .venv/bin/python -m benchmarks.sessionprobe --callgrind --sessions 100 --rounds 1

and valgrind's ``Collected`` line, divided by the sessions, is the instructions per open.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from benchmarks.bench_serve_load import BUNDLE, call

WARM = 30


def _count(on: bool) -> None:
    """Turn callgrind's instruction count for this process on or off."""
    switch = ["callgrind_control", "-i", "on" if on else "off", str(os.getpid())]
    subprocess.run(switch, check=True, capture_output=True)


async def probe(sessions: int, rounds: int, callgrind: bool = False) -> dict[str, float]:
    """The figures above, for ``rounds`` rounds of ``sessions`` opens each."""
    from amplifier_hooks.hosts.claude_code import CLAUDE_CODE
    from amplifier_hooks.transports.http.source import BundleSessions

    state = Path(tempfile.mkdtemp(prefix="ah-sessionprobe-"))
    os.environ["AMPLIFIER_HOOKS_LOG"] = str(state / "events.jsonl")
    source = BundleSessions(BUNDLE, max_sessions=WARM + sessions * (rounds + 1) + 1)
    try:
        for number in range(WARM):
            await source.answer(CLAUDE_CODE, call(0, f"warm-{number}", 0))
        gc.collect()
        gc.disable()
        try:
            before = len(gc.get_objects())
            off: list[float] = []
            for round_ in range(rounds):
                if callgrind:
                    _count(True)
                started = time.process_time()
                for number in range(sessions):
                    await source.answer(CLAUDE_CODE, call(0, f"off-{round_}-{number}", 0))
                off.append((time.process_time() - started) / sessions * 1000)
                if callgrind:
                    _count(False)
            gc.collect()
            kept = (len(gc.get_objects()) - before) / (sessions * rounds)
            started = time.process_time()
            for number in range(sessions):
                await source.answer(CLAUDE_CODE, call(1, f"off-0-{number}", 1))
            later = (time.process_time() - started) / sessions * 1000
        finally:
            gc.enable()
        started = time.process_time()
        for number in range(sessions):
            await source.answer(CLAUDE_CODE, call(0, f"on-{number}", 0))
        on = (time.process_time() - started) / sessions * 1000
    finally:
        await source.aclose()
    return {
        "least": min(off),
        "median": statistics.median(off),
        "on": on,
        "later": later,
        "kept": kept,
        "open": float(WARM + sessions * (rounds + 1)),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=200, help="opens per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--callgrind", action="store_true", help="count instructions of the opens (see above)"
    )
    args = parser.parse_args(argv)
    logging.getLogger("amplifier_hooks").setLevel(logging.ERROR)  # cap warnings, if any
    got = asyncio.run(probe(args.sessions, args.rounds, args.callgrind))
    print(f"a session's open and first call, in process (CPU): {got['least']:.2f} ms least, "
          f"{got['median']:.2f} ms median of {args.rounds} rounds of {args.sessions} with "
          f"the collector off; {got['on']:.2f} ms with it on ({got['open']:.0f} sessions "
          f"open); a later call {got['later']:.3f} ms")  # fmt: skip
    print(f"objects the collector tracks per open session: {got['kept']:.0f}")


if __name__ == "__main__":
    main()
