"""Timeouts and rate limits of handlers that suspend (blocking ones: test_deadlines.py)."""

from __future__ import annotations

import asyncio
import math
import time
from typing import Any

import pytest
from registry_support import (
    EVENT,
    abandoned_handlers_done,
    hang,
    recorder,
    sleeper,
)

from amplifier_hooks import HookRegistry, HookResult
from amplifier_hooks.engine.deadline import _abandoned
from conftest import ManualClock

# -- timeouts ------------------------------------------------------------------------------


async def test_a_handler_timeout_fails_that_handler_only(logs: list[dict[str, Any]]) -> None:
    registry = HookRegistry()
    registry.register(EVENT, sleeper, timeout=0.02)
    registry.register(EVENT, recorder([], "next"))
    resolution = await registry.emit(EVENT, {})
    assert resolution.action == "continue"
    assert [(t.handler, t.failure) for t in resolution.trace] == [
        ("sleeper", "timeout"),
        ("next", None),
    ]
    record = next(r for r in logs if r.get("failure") == "timeout")
    assert record["handler"] == "sleeper" and record["hook_event"] == EVENT


async def test_event_default_then_registry_default_then_handler_timeout(
    clock: ManualClock,
) -> None:
    registry = HookRegistry(default_timeout=0.125, event_timeouts={"tool:post": 5.0}, clock=clock)
    registry.register(EVENT, sleeper, name="registry-default")
    registry.register("tool:post", sleeper, name="event-default")
    registry.register("tool:error", sleeper, name="own", timeout=5.0)
    takes = {"clock": clock, "takes": 0.25}
    assert (await registry.emit(EVENT, takes)).trace[0].failure == "timeout"
    assert (await registry.emit("tool:post", takes)).action == "deny"
    assert (await registry.emit("tool:error", takes)).action == "deny"


@pytest.mark.parametrize("none", [0, math.inf])
async def test_zero_or_infinity_means_no_timeout(none: float, clock: ManualClock) -> None:
    takes = {"clock": clock, "takes": 3600.0}
    registry = HookRegistry(default_timeout=0.125, clock=clock)
    registry.register(EVENT, sleeper, timeout=none)
    assert (await registry.emit(EVENT, takes)).action == "deny"
    unlimited = HookRegistry(default_timeout=none, event_timeouts={"tool:post": none}, clock=clock)
    unlimited.register(EVENT, sleeper)
    unlimited.register("tool:post", sleeper)
    assert unlimited.timeout_for(EVENT) is None
    assert (await unlimited.emit(EVENT, takes)).action == "deny"
    assert (await unlimited.emit("tool:post", takes)).action == "deny"


async def test_a_handler_that_swallows_cancellation_is_abandoned_at_its_timeout(
    logs: list[dict[str, Any]],
) -> None:
    registry = HookRegistry()
    release = asyncio.Event()
    finished = asyncio.Event()

    async def stubborn(event: str, data: dict[str, Any]) -> HookResult:
        try:
            await hang()
        except asyncio.CancelledError:
            await release.wait()  # ignores the cancellation and keeps going
        finished.set()
        return HookResult(action="deny", reason="too late")

    registry.register(EVENT, stubborn, timeout=0.05)
    resolution = await registry.emit(EVENT, {})  # returns while the handler still waits
    assert resolution.action == "continue"
    assert resolution.trace[0].failure == "timeout"
    assert not finished.is_set()
    release.set()
    await abandoned_handlers_done()
    assert finished.is_set()
    late = [r for r in logs if "after its timeout" in r["event"]]
    assert late and late[0]["handler"] == "stubborn"


async def test_a_busy_handler_that_never_waits_on_a_future_still_times_out() -> None:
    registry = HookRegistry()

    async def spinner(event: str, data: dict[str, Any]) -> None:
        for _ in range(10**9):
            await asyncio.sleep(0)  # yields to the loop, but never on a future

    registry.register(EVENT, spinner, timeout=0.03)
    resolution = await registry.emit(EVENT, {})
    assert resolution.trace[0].failure == "timeout"


async def test_a_bad_yield_fails_the_handler_not_the_emit(registry: HookRegistry) -> None:
    class Weird:
        def __await__(self) -> Any:
            yield "not a future"  # the task answers with RuntimeError("... bad yield ...")

    async def odd(event: str, data: dict[str, Any]) -> None:
        await asyncio.sleep(0)
        await Weird()

    registry.register(EVENT, odd)
    resolution = await registry.emit(EVENT, {})
    assert resolution.trace[0].failure == "raised"
    assert "bad yield" in (resolution.trace[0].error or "")


async def test_a_future_cancelled_by_someone_else_is_the_handlers_failure(
    registry: HookRegistry,
) -> None:
    loop = asyncio.get_running_loop()

    async def waiting(event: str, data: dict[str, Any]) -> None:
        future: asyncio.Future[None] = loop.create_future()
        loop.call_later(0.01, future.cancel)
        await future

    registry.register(EVENT, waiting)
    registry.register(EVENT, recorder([], "after"))
    resolution = await registry.emit(EVENT, {})  # no CancelledError out of emit
    assert [(t.handler, t.failure) for t in resolution.trace] == [
        ("waiting", "cancelled"),
        ("after", None),
    ]


async def test_a_timed_out_handler_that_cleans_up_finishes_in_the_background(
    logs: list[dict[str, Any]],
) -> None:
    registry = HookRegistry()
    release = asyncio.Event()
    cleaned = asyncio.Event()

    async def tidy(event: str, data: dict[str, Any]) -> None:
        try:
            await hang()
        finally:
            await release.wait()  # async cleanup after the cancellation
            cleaned.set()

    registry.register(EVENT, tidy, timeout=0.02)
    resolution = await registry.emit(EVENT, {})
    assert resolution.trace[0].failure == "timeout"
    assert not cleaned.is_set()  # the emit did not wait for the cleanup
    release.set()
    await abandoned_handlers_done()
    assert cleaned.is_set()
    late = [r for r in logs if "after its timeout" in r["event"]]
    assert (late[0]["handler"], late[0]["ending"]) == ("tidy", "cancelled")


async def test_a_handler_that_obeys_its_timeout_leaves_nothing_behind() -> None:
    registry = HookRegistry()
    registry.register(EVENT, sleeper, timeout=0.01)
    for _ in range(3):
        assert (await registry.emit(EVENT, {})).trace[0].failure == "timeout"
    assert not _abandoned


async def test_the_callers_own_timeout_around_emit_still_works(registry: HookRegistry) -> None:
    registry.register(EVENT, sleeper)
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.02):
            await registry.emit(EVENT, {})
    task = asyncio.current_task()
    assert task is not None and task.cancelling() == 0


async def test_a_nested_resolution_may_be_returned_as_a_result(registry: HookRegistry) -> None:
    registry.register("tool:post", lambda e, d: HookResult(action="deny", reason="inner"))

    async def delegate(event: str, data: dict[str, Any]) -> HookResult:
        return await registry.emit("tool:post", data)

    registry.register(EVENT, delegate)
    resolution = await registry.emit(EVENT, {})
    assert (resolution.action, resolution.reason, resolution.denied_by) == (
        "deny",
        "inner",
        "delegate",
    )


# -- rate limits ---------------------------------------------------------------------------


async def test_rate_limit_delays_calls_beyond_the_limit() -> None:
    registry = HookRegistry()
    calls: list[float] = []

    async def limited(event: str, data: dict[str, Any]) -> None:
        calls.append(time.monotonic())

    registry.register(EVENT, limited, rate_limit=(2, 0.2))
    for _ in range(3):
        resolution = await registry.emit(EVENT, {})
        assert resolution.trace[0].failure is None
    assert len(calls) == 3
    assert calls[2] - calls[0] >= 0.15  # the third call waited for the window to pass


async def test_the_rate_limit_wait_counts_against_the_timeout(clock: ManualClock) -> None:
    registry = HookRegistry(clock=clock)  # only the wait for the window can make it late
    calls: list[int] = []

    def limited(event: str, data: dict[str, Any]) -> None:
        calls.append(1)

    registry.register(EVENT, limited, rate_limit=(1, 3600.0), timeout=0.05)
    assert (await registry.emit(EVENT, {})).trace[0].failure is None
    second = await registry.emit(EVENT, {})  # would wait an hour for the window
    assert second.trace[0].failure == "timeout"
    assert calls == [1]


async def test_a_rate_limited_handler_gets_its_own_copy_of_the_data() -> None:
    registry = HookRegistry()

    def vandal(event: str, data: dict[str, Any]) -> None:
        data["tool_name"] = "rm"

    registry.register(EVENT, vandal, rate_limit=(10, 1.0))
    resolution = await registry.emit(EVENT, {"tool_name": "bash"})
    assert resolution.data is not None and resolution.data["tool_name"] == "bash"
    collected = HookRegistry()
    seen: list[str] = []
    collected.register(EVENT, vandal, rate_limit=(10, 1.0))
    collected.register(EVENT, lambda e, d: seen.append(d["tool_name"]), priority=1)
    await collected.emit_and_collect(EVENT, {"tool_name": "bash"})
    assert seen == ["bash"]
