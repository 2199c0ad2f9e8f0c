"""What does `HookRegistry.emit` cost, next to pluggy calling the same handlers?

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_emit

For 10 and 100 handlers that all return ``None``, a ``modify`` or an ``inject_context``
result (each handler its own result, built once; default timeouts on), it times in the
same process:

* ``emit``   — ``await registry.emit("tool:pre", data)`` with async handlers (and, in a
  last row, plain functions returning None: what emit costs apart from the coroutines);
* pluggy     — ``pm.hook.tool_pre(event=..., data=...)`` over the same number of plain
  functions returning the same values.

Per kind it prints both costs, their ratio, and the cost of each extra handler: the slope
between 10 and 100 handlers, ``(t(100) - t(10)) / 90``, for both. The two are measured
alternately within each repeat, and each number is the minimum over the repeats of the
mean over many calls (the ``timeit`` convention: the least disturbed run). The garbage
collector stays on, because emit allocates more than pluggy does and hiding that would
flatter it.

Then it checks that memory stays flat over 100,000 emits (10 handlers, inject_context:
the kind that allocates most): Python's own allocations still held after 10,000 emits
and after 100,000 (tracemalloc, after a collection).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import platform
import time
import tracemalloc
import types
from collections.abc import Callable
from typing import Any

import pluggy

from amplifier_hooks import HookRegistry, HookResult
from benchmarks._targets import add_smoke, target
from benchmarks._timing import calibrate

EVENT = "tool:pre"
SIZES = (10, 100)
DATA: dict[str, Any] = {"tool_name": "bash", "tool_input": {"command": "ls"}}


def make_result(kind: str, index: int) -> HookResult | None:
    """What handler ``index`` returns for ``kind`` (built once, as a module would)."""
    if kind in ("None", SYNC_NONE):
        return None
    if kind == "modify":
        return HookResult(action="modify", data={**DATA, "seen_by": index})
    if kind == "inject_context":
        return HookResult(action="inject_context", context_injection=f"note {index}")
    raise ValueError(kind)


SYNC_NONE = "None, plain (sync) handlers"
KINDS = ("None", "modify", "inject_context", SYNC_NONE)

Handler = Callable[[str, dict[str, Any]], Any]


def make_handlers(kind: str, count: int) -> list[Handler]:
    """Distinct handler functions (as real registrations would be)."""

    def make(index: int) -> Handler:
        result = make_result(kind, index)

        async def handler(event: str, data: dict[str, Any]) -> HookResult | None:
            return result

        def plain(event: str, data: dict[str, Any]) -> HookResult | None:
            return result

        chosen: Handler = plain if kind == SYNC_NONE else handler
        chosen.__name__ = f"handler_{index}"  # type: ignore[attr-defined]
        return chosen

    return [make(i) for i in range(count)]


def make_pluggy(kind: str, count: int) -> Any:
    """A pluggy hook with ``count`` plugins of one plain function each."""
    spec = pluggy.HookspecMarker("bench")
    impl = pluggy.HookimplMarker("bench")

    class Spec:
        @spec
        def tool_pre(self, event: str, data: dict[str, Any]) -> Any:
            """The hook every plugin implements."""

    manager = pluggy.PluginManager("bench")
    manager.add_hookspecs(Spec)
    for index in range(count):
        manager.register(
            types.SimpleNamespace(tool_pre=impl(_returning(make_result(kind, index)))),
            name=f"p{index}",
        )
    return manager.hook.tool_pre


def _returning(result: HookResult | None) -> Callable[[str, dict[str, Any]], Any]:
    def tool_pre(event: str, data: dict[str, Any]) -> Any:
        return result

    return tool_pre


def make_registry(kind: str, count: int) -> HookRegistry:
    registry = HookRegistry()  # default timeouts on: 30 s per handler
    for handler in make_handlers(kind, count):
        registry.register(EVENT, handler)
    return registry


def measure(
    kind: str, count: int, repeats: int, budget: float, loop: asyncio.AbstractEventLoop
) -> tuple[float, float]:
    """Seconds per call for (emit, pluggy) with ``count`` handlers of ``kind``."""
    registry = make_registry(kind, count)
    hook = make_pluggy(kind, count)

    async def emit_loop(loops: int) -> float:
        emit = registry.emit
        started = time.perf_counter()
        for _ in range(loops):
            await emit(EVENT, DATA)
        return time.perf_counter() - started

    def pluggy_loop(loops: int) -> float:
        started = time.perf_counter()
        for _ in range(loops):
            hook(event=EVENT, data=DATA)
        return time.perf_counter() - started

    def run_emit(loops: int) -> float:
        return loop.run_until_complete(emit_loop(loops))

    emit_loops = calibrate(run_emit, budget)
    pluggy_loops = calibrate(pluggy_loop, budget)
    emit_best = pluggy_best = float("inf")
    for _ in range(repeats):
        emit_best = min(emit_best, run_emit(emit_loops) / emit_loops)
        pluggy_best = min(pluggy_best, pluggy_loop(pluggy_loops) / pluggy_loops)
    return emit_best, pluggy_best


def memory_growth(emits: int, loop: asyncio.AbstractEventLoop) -> tuple[float, float]:
    """KiB still allocated after 10,000 emits and after ``emits`` (10 inject handlers)."""
    registry = make_registry("inject_context", 10)

    async def run(count: int) -> None:
        for _ in range(count):
            await registry.emit(EVENT, DATA)

    loop.run_until_complete(run(1_000))  # warm caches before measuring
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        loop.run_until_complete(run(10_000))
        gc.collect()
        early = tracemalloc.get_traced_memory()[0] - base
        loop.run_until_complete(run(emits - 10_000))
        gc.collect()
        late = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    return early / 1024, late / 1024


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=15, help="repeats per measurement")
    parser.add_argument(
        "--budget", type=float, default=0.1, help="seconds per repeat (sets the loop count)"
    )
    parser.add_argument("--emits", type=int, default=100_000, help="emits for the memory check")
    add_smoke(parser)
    args = parser.parse_args(argv)
    if args.smoke:
        args.repeats, args.budget, args.emits = 1, 0.001, 10_000

    print(
        f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}, "
        f"pluggy {pluggy.__version__}; min of {args.repeats} repeats, ~{args.budget:g} s each"
    )
    print(
        "| handlers return | handlers | emit µs | pluggy µs | emit / pluggy "
        "| emit µs per extra handler | pluggy µs per extra handler |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    loop = asyncio.new_event_loop()
    ratios: dict[str, float] = {}
    slopes_us: dict[str, float] = {}
    try:
        for kind in KINDS:
            times = {n: measure(kind, n, args.repeats, args.budget, loop) for n in SIZES}
            low, high = SIZES
            slope_emit = (times[high][0] - times[low][0]) / (high - low)
            slope_plug = (times[high][1] - times[low][1]) / (high - low)
            ratios[kind] = times[low][0] / times[low][1]
            slopes_us[kind] = slope_emit * 1e6
            for n in SIZES:
                emit, plug = times[n]
                slopes = f"{slope_emit * 1e6:.2f} | {slope_plug * 1e6:.2f}" if n == high else " | "
                print(
                    f"| {kind} | {n} | {emit * 1e6:.2f} | {plug * 1e6:.2f} "
                    f"| {emit / plug:.2f}x | {slopes} |"
                )
        early, late = memory_growth(args.emits, loop)
    finally:
        loop.close()
    print()
    print(
        f"Memory still held (tracemalloc, 10 inject_context handlers): after 10,000 emits "
        f"{early:.1f} KiB, after {args.emits:,} emits {late:.1f} KiB"
    )
    print()
    target("emit / pluggy, handlers returning None, 10 handlers:", ratios["None"], 1.5)
    for kind, limit in (("None", 0.5), ("modify", 1.0), ("inject_context", 1.0)):
        target(f"emit µs per extra handler returning {kind}:", slopes_us[kind], limit, " µs")


if __name__ == "__main__":
    main()
