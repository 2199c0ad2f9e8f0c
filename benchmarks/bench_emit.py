"""How much does `HookRegistry.emit` cost per call, compared with doing nothing clever?

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_emit

For 0, 1, 10 and 50 handlers that all return one shared ``HookResult()`` (default
timeouts on), it times, in the same process:

* ``emit``  — ``await registry.emit("tool:pre", data)``;
* floor     — a bare loop that awaits the same handlers in order and does nothing with
  the results: the least any async hook runner can cost;
* contract floor — the floor plus only the work the contract makes every emit do: a
  timestamp and a `Resolution` per emit; per handler its own copy of the data, a clock
  reading and a `TraceEntry` (built the cheapest way emit knows). No fault isolation,
  timeouts or nesting guard, so emit cannot get below it; it shows how much of the gap
  to the floor the contract itself costs;
* pluggy    — ``pm.hook.tool_pre(event=..., data=...)`` over the same number of plain
  (sync) functions.

Each number is the minimum over several repeats of the mean over many calls (the
``timeit`` convention: the minimum is the run least disturbed by the rest of the machine).
The garbage collector stays on, because emit allocates more than the floor does and
hiding that would flatter it.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import time
import types
from collections.abc import Awaitable, Callable
from typing import Any

import pluggy

from amplifier_hooks import HookRegistry, HookResult, TraceEntry
from amplifier_hooks.registry import utc_timestamp
from amplifier_hooks.resolver import plain_resolution
from benchmarks._timing import calibrate

EVENT = "tool:pre"
SHARED = HookResult()
SIZES = (0, 1, 10, 50)

AsyncHandler = Callable[[str, dict[str, Any]], Awaitable[HookResult | None]]


def make_async_handlers(count: int) -> list[AsyncHandler]:
    """Distinct handler functions (as real registrations would be), all returning SHARED."""

    def make(index: int) -> AsyncHandler:
        async def handler(event: str, data: dict[str, Any]) -> HookResult:
            return SHARED

        handler.__name__ = f"handler_{index}"
        return handler

    return [make(i) for i in range(count)]


def make_pluggy(count: int) -> pluggy.HookRelay:
    """A pluggy manager with one hookspec and ``count`` plugins of one plain function each."""
    spec = pluggy.HookspecMarker("bench")
    impl = pluggy.HookimplMarker("bench")

    class Spec:
        @spec
        def tool_pre(self, event: str, data: dict[str, Any]) -> Any:
            """The hook every plugin implements."""

    manager = pluggy.PluginManager("bench")
    manager.add_hookspecs(Spec)
    for index in range(count):

        def tool_pre(event: str, data: dict[str, Any]) -> HookResult:
            return SHARED

        manager.register(types.SimpleNamespace(tool_pre=impl(tool_pre)), name=f"p{index}")
    return manager.hook


def best_of(run: Callable[[int], float], repeats: int, budget: float) -> float:
    """Minimum over ``repeats`` of the mean seconds per call."""
    loops = calibrate(run, budget)
    return min(run(loops) / loops for _ in range(repeats))


def measure(count: int, repeats: int, budget: float) -> tuple[float, float, float, float]:
    """Seconds per call for (emit, floor, contract floor, pluggy) with ``count`` handlers."""
    handlers = make_async_handlers(count)
    registry = HookRegistry()  # default timeouts on: 30 s per handler
    for handler in handlers:
        registry.register(EVENT, handler)
    hook = make_pluggy(count).tool_pre
    data: dict[str, Any] = {"tool_name": "bash", "tool_input": {"command": "ls"}}
    loop = asyncio.new_event_loop()

    async def emit_loop(loops: int) -> float:
        emit = registry.emit
        started = time.perf_counter()
        for _ in range(loops):
            await emit(EVENT, data)
        return time.perf_counter() - started

    async def floor_loop(loops: int) -> float:
        started = time.perf_counter()
        for _ in range(loops):
            for handler in handlers:
                await handler(EVENT, data)
        return time.perf_counter() - started

    named = [(handler, handler.__name__) for handler in handlers]
    tuple_new = tuple.__new__
    perf = time.perf_counter

    async def contract_loop(loops: int) -> float:
        started = time.perf_counter()
        for _ in range(loops):
            if not named:  # no handlers: no defaults, no timestamp, the data unchanged
                plain_resolution(dict(data), [])
                continue
            payload = {**data}
            payload["timestamp"] = utc_timestamp()
            trace: list[TraceEntry] = []
            now = perf()
            for handler, name in named:
                await handler(EVENT, payload.copy())
                end = perf()
                trace.append(tuple_new(TraceEntry, (name, 0, "continue", None, end - now, None)))
                now = end
            plain_resolution(payload, trace)
        return time.perf_counter() - started

    def pluggy_loop(loops: int) -> float:
        started = time.perf_counter()
        for _ in range(loops):
            hook(event=EVENT, data=data)
        return time.perf_counter() - started

    try:
        emit = best_of(lambda n: loop.run_until_complete(emit_loop(n)), repeats, budget)
        floor = best_of(lambda n: loop.run_until_complete(floor_loop(n)), repeats, budget)
        contract = best_of(lambda n: loop.run_until_complete(contract_loop(n)), repeats, budget)
        plug = best_of(pluggy_loop, repeats, budget)
    finally:
        loop.close()
    return emit, floor, contract, plug


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7, help="repeats per measurement")
    parser.add_argument(
        "--budget", type=float, default=0.2, help="seconds per repeat (sets the loop count)"
    )
    args = parser.parse_args(argv)

    print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{platform.system()}; min of {args.repeats} repeats, ~{args.budget:g} s each"
    )
    header = (
        "| handlers | amplifier-hooks µs/emit | floor µs | contract floor µs | pluggy µs "
        "| ratio vs floor | ratio vs contract floor | ratio vs pluggy |"
    )
    print(header)
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for count in SIZES:
        emit, floor, contract, plug = measure(count, args.repeats, args.budget)
        # With no handlers the floor is an empty loop: a ratio against ~0 means nothing.
        vs_floor = f"{emit / floor:.2f}x" if count else "n/a"
        print(
            f"| {count} | {emit * 1e6:.2f} | {floor * 1e6:.2f} | {contract * 1e6:.2f} "
            f"| {plug * 1e6:.2f} | {vs_floor} | {emit / contract:.2f}x | {emit / plug:.2f}x |"
        )


if __name__ == "__main__":
    main()
