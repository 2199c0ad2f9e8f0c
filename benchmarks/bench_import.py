"""How long does ``import amplifier_hooks`` take, next to importing its two core libraries?

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_import

Each statement is timed inside a fresh interpreter (``time.perf_counter`` around the
statement, so interpreter start-up is left out), the statements taking turns, several
rounds; the table shows the median and the ratio to the baseline, ``import pydantic,
structlog``, measured in the same run. Rows after the first two are context: what a hook
module's names cost, and what an application that builds a coordinator, or touches every
public name, pays on top.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import subprocess
import sys

from benchmarks._targets import add_smoke, target

BASELINE = "import pydantic, structlog"
STATEMENTS = [
    BASELINE,
    "import amplifier_hooks",
    "from amplifier_hooks import HookResult, hook",
    "from amplifier_hooks import Coordinator, HookRegistry",
    "import amplifier_hooks; [getattr(amplifier_hooks, n) for n in amplifier_hooks.__all__]",
]

_TIMED = """
import time
started = time.perf_counter()
{statement}
print(time.perf_counter() - started)
"""


def time_once(statement: str) -> float:
    """Seconds ``statement`` takes in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", _TIMED.format(statement=statement)],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="fresh interpreters per row")
    add_smoke(parser)
    args = parser.parse_args(argv)
    if args.smoke:
        args.rounds = 1

    times: dict[str, list[float]] = {statement: [] for statement in STATEMENTS}
    for _ in range(args.rounds):
        for statement in STATEMENTS:  # taking turns: a busy moment hits every row alike
            times[statement].append(time_once(statement))
    baseline = statistics.median(times[BASELINE])
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}; "
        f"median of {args.rounds} fresh interpreters per row"
    )
    print("| statement | median ms | min ms | max ms | / baseline |")
    print("|---|---:|---:|---:|---:|")
    for statement in STATEMENTS:
        runs = times[statement]
        median = statistics.median(runs)
        print(
            f"| `{statement}` | {median * 1e3:.1f} | {min(runs) * 1e3:.1f} "
            f"| {max(runs) * 1e3:.1f} | {median / baseline:.2f}x |"
        )
    print()
    ratio = statistics.median(times["import amplifier_hooks"]) / baseline
    target(f"`import amplifier_hooks` / `{BASELINE}`:", ratio, 1.5)


if __name__ == "__main__":
    main()
