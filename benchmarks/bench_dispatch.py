"""What does `Coordinator.dispatch` add on top of emit and tiktoken, with 10 injections?

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_dispatch

Ten handlers on ``tool:post`` each return an inject_context result (one shared result per
handler), with texts of a few hundred bytes (as linters and reminders write them) and,
to show the injector's own cost at its largest share, one-line notes of about 40 bytes.
In the same process it times:

* ``dispatch`` — ``await coordinator.dispatch("tool:post", data)``: emit, then the
  injector (bytes, tokens, limits, messages, audit records), then the `Outcome`;
* baseline     — ``await coordinator.hooks.emit("tool:post", data)`` plus
  ``len(encoding.encode_ordinary(text))`` for each of the ten texts: the work no dispatch
  can skip (``encode_ordinary`` is tiktoken's cheapest encode, the one the injector uses).

Three cases: persisted injections delivered to a context sink, ephemeral ones, and
persisted ones with no sink set (the default `Coordinator()`). Logging is configured as an
application would (JSON, level info, here to /dev/null). The injector has no budget
(every dispatch accepts all ten, as in a fresh turn). Each number is the minimum over
several repeats of the mean over many calls; dispatch and baseline alternate within each
repeat, and the ratio is the median over the repeats of dispatch / baseline (the two runs
of a repeat see the same machine load). A last check runs 100,000 dispatches and compares
Python's traced memory after 10,000 and after 100,000 (flat: the audit trail is bounded,
nothing else accumulates).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import platform
import statistics
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from typing import Any

from amplifier_hooks import ContextInjector, Coordinator, HookResult, configure_logging
from benchmarks._targets import add_smoke, target
from benchmarks._timing import calibrate

EVENT = "tool:post"
HANDLERS = 10


def hook_texts(count: int) -> list[str]:
    """``count`` distinct texts of 250-400 bytes: linter findings, todo reminders."""
    texts = []
    for index in range(count):
        if index % 2:
            texts.append(
                f"Todo reminder: {index} of {count + 3} items are still open. Next: write the "
                f"migration for table users_{index}, then update the API docs and the changelog. "
                f"Remember to run the integration suite before asking for review; "
                f"the last run failed on test_payments_{index} (timeout after 30 s)."
            )
        else:
            texts.append(
                "".join(
                    f"src/app/module_{index}.py:{line * 13 + index}:{line + 5}: "
                    f"E{501 + line} line too long ({101 + line} > 100 characters)\n"
                    for line in range(4)
                )
            )
    return texts


def short_texts(count: int) -> list[str]:
    """``count`` distinct one-line notes of about 40 bytes: the least tiktoken work, so
    the injector's own cost shows most."""
    return [f"todo: {index} of {count} done; next: step {index + 1}" for index in range(count)]


class CountingSink:
    """A context sink that keeps nothing (so a long run measures dispatch, not a list)."""

    def __init__(self) -> None:
        self.count = 0

    def add_message(self, message: dict[str, Any]) -> None:
        self.count += 1


def make_coordinator(texts: list[str], *, ephemeral: bool, sink: bool) -> Coordinator:
    injector = ContextInjector(size_limit=None, budget_per_turn=None)
    coordinator = Coordinator(injector=injector, context_sink=CountingSink() if sink else None)

    def make(index: int, text: str) -> Callable[[str, dict[str, Any]], Awaitable[HookResult]]:
        result = HookResult(action="inject_context", context_injection=text, ephemeral=ephemeral)

        async def handler(event: str, data: dict[str, Any]) -> HookResult:
            return result

        handler.__name__ = f"injector_{index}"
        return handler

    for index, text in enumerate(texts):
        coordinator.hooks.register(EVENT, make(index, text))
    return coordinator


def measure(
    coordinator: Coordinator, texts: list[str], repeats: int, budget: float
) -> tuple[float, float, float]:
    """Seconds per call for dispatch and for emit + encode of the same texts (minimum over
    the repeats), and the median over the repeats of their ratio."""
    data: dict[str, Any] = {"tool_name": "bash", "tool_result": {"output": "ok"}}
    # encode_ordinary: tiktoken's cheapest call, the one the injector makes (``encode``
    # also scans for special tokens, which would flatter dispatch).
    encode = coordinator.injector.encoding.encode_ordinary
    emit = coordinator.hooks.emit
    dispatch = coordinator.dispatch
    loop = asyncio.new_event_loop()

    async def dispatch_loop(loops: int) -> float:
        started = time.perf_counter()
        for _ in range(loops):
            await dispatch(EVENT, data)
        return time.perf_counter() - started

    async def baseline_loop(loops: int) -> float:
        started = time.perf_counter()
        for _ in range(loops):
            await emit(EVENT, data)
            for text in texts:
                len(encode(text))
        return time.perf_counter() - started

    def run_dispatch(loops: int) -> float:
        return loop.run_until_complete(dispatch_loop(loops))

    def run_baseline(loops: int) -> float:
        return loop.run_until_complete(baseline_loop(loops))

    try:
        outcome = loop.run_until_complete(dispatch(EVENT, data))
        accepted = len(outcome.injected) + len(outcome.ephemeral)
        assert accepted == len(texts), f"only {accepted} of {len(texts)} injections accepted"
        loops = calibrate(run_baseline, budget)
        dispatches: list[float] = []
        baselines: list[float] = []
        for _ in range(repeats):
            dispatches.append(run_dispatch(loops) / loops)
            baselines.append(run_baseline(loops) / loops)
    finally:
        loop.close()
    # Each repeat's pair ran back to back, under the same machine load: the median of the
    # pairs' ratios holds up on a busy machine better than a ratio of two minimums.
    ratio = statistics.median(d / b for d, b in zip(dispatches, baselines, strict=True))
    return min(dispatches), min(baselines), ratio


def memory_growth(dispatches: int, checkpoint: int) -> tuple[float, float]:
    """Traced KiB after ``checkpoint`` and after ``dispatches`` dispatches (10 injections)."""
    coordinator = make_coordinator(hook_texts(HANDLERS), ephemeral=False, sink=True)
    data: dict[str, Any] = {"tool_name": "bash"}
    loop = asyncio.new_event_loop()

    async def run(count: int) -> None:
        for _ in range(count):
            await coordinator.dispatch(EVENT, data)

    try:
        loop.run_until_complete(run(checkpoint))  # fills the bounded audit trail
        gc.collect()
        tracemalloc.start()
        loop.run_until_complete(run(checkpoint))
        gc.collect()
        early = tracemalloc.get_traced_memory()[0]
        loop.run_until_complete(run(dispatches - 2 * checkpoint))
        gc.collect()
        late = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
    finally:
        loop.close()
    return early / 1024, late / 1024


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=21, help="repeats per measurement")
    parser.add_argument(
        "--budget", type=float, default=0.05, help="seconds per repeat (sets the loop count)"
    )
    parser.add_argument(
        "--memory-dispatches", type=int, default=100_000, help="dispatches for the memory check"
    )
    add_smoke(parser)
    args = parser.parse_args(argv)
    if args.smoke:
        args.repeats, args.budget, args.memory_dispatches = 1, 0.001, 400

    # As an application runs: info and above, here to a sink that keeps nothing.
    configure_logging("json", "info", stream=open(os.devnull, "w"))  # noqa: SIM115
    print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{platform.system()}; {args.repeats} repeats of ~{args.budget:g} s each: µs are "
        f"minimums, the ratio is the median of the repeats' ratios"
    )
    print("| texts | injections | dispatch µs | emit + encode µs | dispatch / (emit + encode) |")
    print("|---|---|---:|---:|---:|")
    cases = [
        ("persisted, to a sink", False, True),
        ("ephemeral", True, True),
        ("persisted, no sink set", False, False),
    ]
    worst = 0.0  # of the hook texts: the short notes show the injector's cost at its largest
    for group, texts in (("hook", hook_texts(HANDLERS)), ("short", short_texts(HANDLERS))):
        sizes = [len(text.encode()) for text in texts]
        size = f"{HANDLERS} of {min(sizes)}-{max(sizes)} bytes"
        for label, ephemeral, sink in cases:
            coordinator = make_coordinator(texts, ephemeral=ephemeral, sink=sink)
            dispatch, baseline, ratio = measure(coordinator, texts, args.repeats, args.budget)
            if group == "hook":
                worst = max(worst, ratio)
            print(
                f"| {size} | {label} | {dispatch * 1e6:.1f} | {baseline * 1e6:.1f} | {ratio:.3f}x |"
            )

    checkpoint = min(10_000, args.memory_dispatches // 2)
    early, late = memory_growth(args.memory_dispatches, checkpoint)
    print()
    print("| traced memory | KiB |")
    print("|---|---:|")
    print(f"| after {checkpoint:,} dispatches | {early:.1f} |")
    print(f"| after {args.memory_dispatches:,} dispatches | {late:.1f} |")
    print()
    target("dispatch / (emit + encode), hook texts, the worst case:", worst, 1.2)


if __name__ == "__main__":
    main()
