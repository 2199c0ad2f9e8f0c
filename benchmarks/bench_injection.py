"""What does the injector add on top of tiktoken, and how long does the first load take?

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_injection

On the same 1 KB and 10 KB hook texts (linter-style output, plus a 10 KB mixed
English/CJK/emoji text), it times, in the same process:

* ``encode``        — ``len(encoding.encode(text))``, tiktoken called directly;
* ``count_tokens``  — ``ContextInjector.count_tokens(text)``: the injector's counting;
* ``apply``         — ``await injector.apply([injection], event)``: the whole per-injection
  path (bytes, tokens, limits, message, audit record), for context.

Each number is the minimum over several repeats of the mean over many calls; encode and
count_tokens alternate within each repeat so both see the same machine state. The first-use
load of the default encoding is timed in fresh interpreters (the median of several), since
in-process it is cached after the first call.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from amplifier_hooks.engine.resolution import Injection
from amplifier_hooks.injection import ContextInjector
from amplifier_hooks.injection.tokens import load_encoding
from benchmarks._timing import calibrate

_FIRST_LOAD = """
import time
from amplifier_hooks.injection.tokens import load_encoding
started = time.perf_counter()
load_encoding("cl100k_base")
print(time.perf_counter() - started)
"""


def linter_text(size: int) -> str:
    """Deterministic linter-style output of exactly ``size`` bytes (ASCII)."""
    lines: list[str] = []
    total = 0
    while total < size:
        index = len(lines)
        line = (
            f"src/pkg/module_{index % 17}.py:{index * 7 % 400 + 1}:{index % 80 + 1}: "
            f"E{501 + index % 9} line too long ({100 + index % 60} > 100 characters)\n"
        )
        lines.append(line)
        total += len(line)
    return "".join(lines)[:size]


def mixed_text(size: int) -> str:
    """Deterministic mixed-script text of at most ``size`` UTF-8 bytes."""
    unit = "Build passed ✅ — 构建成功，测试全部通过。ビルド成功 🚀 빌드 성공. "  # noqa: RUF001 (real CJK punctuation)
    text = unit * (size // len(unit.encode()) + 1)
    while len(text.encode()) > size:
        text = text[:-1]
    return text


def _timer(fn: Callable[[str], object], text: str) -> Callable[[int], float]:
    def run(loops: int) -> float:
        started = time.perf_counter()
        for _ in range(loops):
            fn(text)
        return time.perf_counter() - started

    return run


def measure_counting(
    text: str, injector: ContextInjector, repeats: int, budget: float
) -> tuple[float, float, float]:
    """Seconds per call for (encode, count_tokens, apply) on ``text``."""
    encoding = injector.encoding
    encode = _timer(lambda t: len(encoding.encode(t)), text)
    count = _timer(injector.count_tokens, text)
    loops = calibrate(encode, budget)
    best_encode = best_count = float("inf")
    for _ in range(repeats):
        best_encode = min(best_encode, encode(loops) / loops)
        best_count = min(best_count, count(loops) / loops)

    injection = Injection(text=text, source="bench", ephemeral=True)
    loop = asyncio.new_event_loop()

    async def apply_loop(loops: int) -> float:
        started = time.perf_counter()
        for _ in range(loops):
            await injector.apply([injection], "tool:post")
        return time.perf_counter() - started

    try:
        best_apply = min(loop.run_until_complete(apply_loop(loops)) / loops for _ in range(repeats))
    finally:
        loop.close()
    return best_encode, best_count, best_apply


def first_load_seconds(runs: int) -> list[float]:
    """The first load of the default encoding, each in a fresh interpreter."""
    times = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", _FIRST_LOAD], capture_output=True, text=True, check=True
        )
        times.append(float(out.stdout.strip()))
    return times


def cached_load_seconds(loops: int = 100_000) -> float:
    load_encoding("cl100k_base")
    started = time.perf_counter()
    for _ in range(loops):
        load_encoding("cl100k_base")
    return (time.perf_counter() - started) / loops


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=9, help="repeats per measurement")
    parser.add_argument(
        "--budget", type=float, default=0.1, help="seconds per repeat (sets the loop count)"
    )
    parser.add_argument("--load-runs", type=int, default=5, help="fresh interpreters to time")
    args = parser.parse_args(argv)

    print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{platform.system()}; min of {args.repeats} repeats, ~{args.budget:g} s each"
    )
    # Unlimited budget so that every apply in the loop is accepted, as in a fresh turn.
    injector = ContextInjector(size_limit=None, budget_per_turn=None)
    texts = [
        ("1 KB linter output", linter_text(1024)),
        ("10 KB linter output", linter_text(10_240)),
        ("10 KB mixed scripts", mixed_text(10_240)),
    ]
    print(
        "| text | tokens | encode µs | count_tokens µs | count_tokens / encode "
        "| apply µs | apply / encode |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, text in texts:
        encode, count, apply = measure_counting(text, injector, args.repeats, args.budget)
        print(
            f"| {label} | {injector.count_tokens(text)} | {encode * 1e6:.1f} "
            f"| {count * 1e6:.1f} | {count / encode:.3f}x | {apply * 1e6:.1f} "
            f"| {apply / encode:.3f}x |"
        )

    loads = first_load_seconds(args.load_runs)
    print()
    print("| encoding load | time |")
    print("|---|---:|")
    print(
        f"| first use, fresh process (median of {len(loads)}; "
        f"min {min(loads) * 1e3:.1f} ms, max {max(loads) * 1e3:.1f} ms) "
        f"| {statistics.median(loads) * 1e3:.1f} ms |"
    )
    print(f"| later uses (cached) | {cached_load_seconds() * 1e6:.2f} µs |")


if __name__ == "__main__":
    main()
