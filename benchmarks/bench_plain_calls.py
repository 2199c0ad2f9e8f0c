"""What would the plain way of calling handlers cost, next to `engine.calling`'s?

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_plain_calls

`engine.calling` calls handlers with no timer and steps the coroutine that awaits them by
hand; only a handler that suspends gets a timer (`engine.deadline.Drive`). The plain way
anyone would write first is one loop that awaits each handler inside ``async with
asyncio.timeout(its timeout)``: on Python 3.11 (no eager task factory) the cheapest
correct spelling, since ``asyncio.wait_for`` makes a task per call. This times, in the same
process and taking turns, for 10 handlers (async, default 30 s timeouts, each returning
None or an inject_context result):

* ``emit``  — ``await registry.emit(event, data)``, the real path;
* plain     — the same handlers, the same fold (`engine.fold.Fold`) and the same
  deadline check after each call, awaited one by one under ``asyncio.timeout``.

Times are the process's CPU time (``time.process_time``: a shared machine's other work
disturbs it far less than wall time). Each number is the minimum over the repeats of the
mean over many calls; the ratio is the
median over the repeats of plain / emit (both runs of a repeat see the same load). If the
plain loop cost no more than 10% of an emit, `engine.calling` should be the plain loop.

Then the same for the `Resolution` every emit builds: `engine.resolution.construct` (sets
the model's field dict directly) against pydantic's own ``Resolution.model_construct``
with the same values, as a share of an emit of 10 handlers returning None.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from amplifier_hooks import HookRegistry
from amplifier_hooks.engine.fold import Fold
from amplifier_hooks.engine.registry import utc_timestamp
from amplifier_hooks.engine.resolution import Resolution, continue_resolution
from amplifier_hooks.engine.trace import Trace
from benchmarks._targets import add_smoke, no_target
from benchmarks._timing import calibrate
from benchmarks.bench_emit import DATA, EVENT, make_registry

KINDS = ("None", "inject_context")
COUNT = 10
YIELD_EVERY = 50
"""Emits between two turns of the event loop. Without any, the loop never runs while the
plain loop's cancelled timers pile up in its heap (it drops them only between turns)."""


async def plain_emit(registry: HookRegistry, event: str, data: dict[str, Any]) -> Resolution:
    """An emit written the plain way: each handler awaited under its own timeout."""
    entries = registry._handlers[event]
    payload = {**data, "timestamp": utc_timestamp()}
    fold = Fold(payload, entries)
    clock = time.perf_counter
    for entry in entries:
        started = clock()
        try:
            async with asyncio.timeout(entry.timeout):
                value = await entry.call(event, fold.data.copy())
        except TimeoutError as exc:
            fold.add(entry.failed(event, exc, started))
        except Exception as exc:
            fold.add(entry.failed(event, exc, started))
        else:
            fold.add(entry.outcome(event, value, started, clock()))
        if fold.done:
            break
    return fold.resolution()


async def real_emit(registry: HookRegistry, event: str, data: dict[str, Any]) -> Resolution:
    """The real path, called as `plain_emit` is (one more frame: it flatters the plain one)."""
    return await registry.emit(event, data)


def timer(
    emit: Callable[[HookRegistry, str, dict[str, Any]], Awaitable[Resolution]],
    registry: HookRegistry,
    loop: asyncio.AbstractEventLoop,
) -> Callable[[int], float]:
    """``run(loops)``: the seconds ``loops`` emits through ``emit`` take."""

    async def emits(loops: int) -> float:
        started = time.process_time()
        for index in range(loops):
            await emit(registry, EVENT, DATA)
            if not index % YIELD_EVERY:
                await asyncio.sleep(0)  # a turn of the loop, as an agent's I/O gives it
        return time.process_time() - started

    return lambda loops: loop.run_until_complete(emits(loops))


def measure(
    kind: str, repeats: int, budget: float, loop: asyncio.AbstractEventLoop
) -> tuple[float, float, float]:
    """Seconds per emit (real, plain) and the median plain / real ratio."""
    registry = make_registry(kind, COUNT)

    run_real = timer(real_emit, registry, loop)
    run_plain = timer(plain_emit, registry, loop)
    real_loops = calibrate(run_real, budget)
    plain_loops = calibrate(run_plain, budget)
    real_best = plain_best = float("inf")
    ratios = []
    for _ in range(repeats):
        real = run_real(real_loops) / real_loops
        plain = run_plain(plain_loops) / plain_loops
        real_best, plain_best = min(real_best, real), min(plain_best, plain)
        ratios.append(plain / real)
    return real_best, plain_best, statistics.median(ratios)


def measure_construct(
    repeats: int, budget: float, loop: asyncio.AbstractEventLoop
) -> tuple[float, float, float]:
    """Seconds per `Resolution` built by `construct` and by ``model_construct``, and
    seconds per emit of 10 handlers returning None."""
    registry = make_registry("None", COUNT)
    values = dict(continue_resolution({"k": 1}, Trace()))

    def fast(loops: int) -> float:
        started = time.process_time()
        for _ in range(loops):
            continue_resolution({"k": 1}, Trace())
        return time.process_time() - started

    def pydantic_way(loops: int) -> float:
        started = time.process_time()
        for _ in range(loops):
            Resolution.model_construct(**{**values, "data": {"k": 1}, "trace": Trace()})
        return time.process_time() - started

    emits = timer(real_emit, registry, loop)
    counts = [calibrate(run, budget) for run in (fast, pydantic_way, emits)]
    best = [float("inf")] * 3
    for _ in range(repeats):
        for index, (run, loops) in enumerate(zip((fast, pydantic_way, emits), counts, strict=True)):
            best[index] = min(best[index], run(loops) / loops)
    return best[0], best[1], best[2]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=15, help="repeats per measurement")
    parser.add_argument(
        "--budget", type=float, default=0.1, help="seconds per repeat (sets the loop count)"
    )
    add_smoke(parser)
    args = parser.parse_args(argv)
    if args.smoke:
        args.repeats, args.budget = 1, 0.005
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}; "
        f"{COUNT} async handlers; min of {args.repeats} repeats, ~{args.budget:g} s each"
    )
    print("| handlers return | emit µs | plain (asyncio.timeout) µs | plain / emit (median) |")
    print("|---|---:|---:|---:|")
    loop = asyncio.new_event_loop()
    try:
        for kind in KINDS:
            real, plain, ratio = measure(kind, args.repeats, args.budget, loop)
            print(f"| {kind} | {real * 1e6:.2f} | {plain * 1e6:.2f} | {ratio:.2f}x |")
        fast, slow, emit = measure_construct(args.repeats, args.budget, loop)
    finally:
        loop.close()
    print()
    print("| Resolution built by | µs | share of an emit (10 handlers returning None) |")
    print("|---|---:|---:|")
    print(f"| engine.resolution.construct | {fast * 1e6:.2f} | {fast / emit:.0%} |")
    print(f"| Resolution.model_construct | {slow * 1e6:.2f} | {slow / emit:.0%} |")
    print()
    no_target(
        "it measures what plain code would cost next to the tricks engine/calling.py and "
        "engine/resolution.py keep (a trick stays while the plain code costs over 10% more)"
    )


if __name__ == "__main__":
    main()
