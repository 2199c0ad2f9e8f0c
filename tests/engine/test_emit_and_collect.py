"""emit_and_collect: concurrent handlers, each one's data, in priority order."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from registry_support import EVENT, hang, sleeper

from amplifier_hooks import HookRegistry, HookResult
from conftest import ManualClock

# -- emit_and_collect ----------------------------------------------------------------------


async def test_emit_and_collect_runs_handlers_concurrently() -> None:
    # Each handler waits until all ten have started: run one after another, they would
    # wait forever (cut off by the timeout, with no results).
    registry = HookRegistry()
    all_started = asyncio.Event()
    started = 0
    for index in range(10):

        async def slow(event: str, data: dict[str, Any], index: int = index) -> HookResult:
            nonlocal started
            started += 1
            if started == 10:
                all_started.set()
            await all_started.wait()
            return HookResult(data={"index": index})

        registry.register(EVENT, slow, name=f"slow{index}")
    results = await registry.emit_and_collect(EVENT, {}, timeout=0)
    assert results == [{"index": i} for i in range(10)]


async def test_emit_and_collect_keeps_priority_order_and_drops_nothing_results(
    logs: list[dict[str, Any]],
) -> None:
    registry = HookRegistry()
    done: dict[int, asyncio.Event] = {n: asyncio.Event() for n in (1, 2, 3)}

    def make(n: int, after: int | None, data: dict[str, Any] | None) -> Any:
        async def handler(event: str, _: dict[str, Any]) -> HookResult | None:
            if after is not None:
                await done[after].wait()
            done[n].set()
            return HookResult(data=data) if data is not None else None

        return handler

    # They finish in the reverse of their priority order: 3, then 2, then 1.
    registry.register(EVENT, make(3, None, {"n": 3}), priority=3)
    registry.register(EVENT, make(1, 2, {"n": 1}), priority=1)
    registry.register(EVENT, make(2, 3, None), priority=2)  # no result
    registry.register(EVENT, lambda e, d: HookResult(), priority=0)  # result without data
    registry.register(EVENT, lambda e, d: 1 / 0, priority=-1, name="broken")
    registry.register(EVENT, lambda e, d: {"data": {"n": 0}}, priority=-2)
    assert await registry.emit_and_collect(EVENT, {}, timeout=0) == [{"n": 0}, {"n": 1}, {"n": 3}]
    assert any(r.get("handler") == "broken" for r in logs)
    assert await registry.emit_and_collect("tool:post", {}) == []


async def test_emit_and_collect_caps_each_handler_at_its_timeout(
    logs: list[dict[str, Any]], clock: ManualClock
) -> None:
    registry = HookRegistry(clock=clock)  # the clock stands still: only "sleeper" is late
    registry.register(EVENT, sleeper)
    registry.register(EVENT, lambda e, d: HookResult(data={"fast": True}))
    results = await registry.emit_and_collect(EVENT, {}, timeout=0.05)
    assert results == [{"fast": True}]
    assert any(r.get("handler") == "sleeper" and r["failure"] == "timeout" for r in logs)


async def test_emit_and_collect_bounds_concurrency() -> None:
    registry = HookRegistry(max_concurrency=3)
    running = 0
    peak = 0

    async def counted(event: str, data: dict[str, Any]) -> HookResult:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        for _ in range(3):
            await asyncio.sleep(0)  # lets every other handler start that may
        running -= 1
        return HookResult(data={})

    for _ in range(8):
        registry.register(EVENT, counted)
    assert len(await registry.emit_and_collect(EVENT, {}, timeout=0)) == 8
    assert peak == 3


async def test_emit_and_collect_gives_each_handler_its_own_data() -> None:
    registry = HookRegistry()

    async def vandal(event: str, data: dict[str, Any]) -> None:
        data["n"] = 99
        await asyncio.sleep(0)

    async def look(event: str, data: dict[str, Any]) -> HookResult:
        for _ in range(3):
            await asyncio.sleep(0)  # the vandal has run meanwhile
        return HookResult(data={"n": data["n"]})

    registry.register(EVENT, vandal)
    registry.register(EVENT, look)
    data = {"n": 1}
    assert await registry.emit_and_collect(EVENT, data, timeout=0) == [{"n": 1}]
    assert data == {"n": 1}


async def test_emit_and_collect_respects_max_depth(logs: list[dict[str, Any]]) -> None:
    registry = HookRegistry(max_depth=2)
    calls: list[int] = []

    async def recurse(event: str, data: dict[str, Any]) -> HookResult:
        calls.append(1)
        inner = await registry.emit_and_collect(EVENT, {})
        return HookResult(data={"inner": inner})

    registry.register(EVENT, recurse)
    assert await registry.emit_and_collect(EVENT, {}) == [{"inner": [{"inner": []}]}]
    assert len(calls) == 2
    assert any("nested too deeply" in r["event"] for r in logs)


async def test_cancelling_emit_and_collect_cancels_the_handlers() -> None:
    registry = HookRegistry()
    cancelled: list[str] = []
    waiting = 0
    both_waiting = asyncio.Event()
    both_cancelled = asyncio.Event()

    async def slow(event: str, data: dict[str, Any]) -> None:
        nonlocal waiting
        waiting += 1
        if waiting == 2:
            both_waiting.set()
        try:
            await hang()
        except asyncio.CancelledError:
            cancelled.append("slow")
            if len(cancelled) == 2:
                both_cancelled.set()
            raise

    registry.register(EVENT, slow)
    registry.register(EVENT, slow, timeout=0)
    task = asyncio.create_task(registry.emit_and_collect(EVENT, {}, timeout=10))
    await both_waiting.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await both_cancelled.wait()  # (a handler that never saw its cancellation hangs here)
    assert cancelled == ["slow", "slow"]
