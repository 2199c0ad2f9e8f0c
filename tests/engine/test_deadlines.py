"""A handler that finishes after its timeout has timed out (CONTRACT §1), however it got late.

A handler that awaits is cut off by a timer. One that blocks the event loop cannot be: the
timer cannot fire while it runs. It used to keep its result (a ``modify`` went through, and a
``fail_closed`` guard that overran allowed the action); now its result is discarded and the
call is a timeout like any other — fail open → continue, fail_closed → deny. The same holds
for ``emit_and_collect`` and for contributors on a channel.

These tests drive time with a `ManualClock`: a handler "blocks the loop for 0.375 s" by
advancing the clock the registry reads, so no outcome depends on how busy the machine is.
(Durations are binary fractions, so the clock's float arithmetic is exact and "exactly at
the deadline" means exactly.) One test blocks for real, to show the default clock sees it.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from amplifier_hooks import HookRegistry, HookResult
from amplifier_hooks.engine.channels import ContributionChannels
from conftest import ManualClock

EVENT = "tool:pre"
MODIFIED = {"rewritten": True}


def blocking(clock: ManualClock, seconds: float, result: HookResult | None, *, sync: bool) -> Any:
    """A handler that holds the loop for ``seconds`` (on ``clock``) and then returns."""
    if sync:

        def handler(event: str, data: dict[str, Any]) -> HookResult | None:
            clock.advance(seconds)
            return result

        return handler

    async def never_awaits(event: str, data: dict[str, Any]) -> HookResult | None:
        clock.advance(seconds)
        return result

    return never_awaits


def late_after_await(clock: ManualClock, seconds: float, result: HookResult | None) -> Any:
    """A handler that suspends once, then blocks the loop in its next step."""

    async def handler(event: str, data: dict[str, Any]) -> HookResult | None:
        await asyncio.sleep(0)
        clock.advance(seconds)
        return result

    return handler


SHAPES = ["sync", "async-never-awaits", "async-blocks-after-await"]


def make(shape: str, clock: ManualClock, seconds: float, result: HookResult | None) -> Any:
    if shape == "async-blocks-after-await":
        return late_after_await(clock, seconds, result)
    return blocking(clock, seconds, result, sync=shape == "sync")


@pytest.mark.parametrize("shape", SHAPES)
async def test_a_late_modify_is_discarded_and_the_emit_continues(
    shape: str, clock: ManualClock, logs: list[dict[str, Any]]
) -> None:
    registry = HookRegistry(clock=clock)
    seen: list[dict[str, Any]] = []
    late = make(shape, clock, 0.375, HookResult(action="modify", data=MODIFIED))
    registry.register(EVENT, late, name="late", timeout=0.125)
    registry.register(EVENT, lambda e, d: seen.append(d), name="after", priority=1)
    resolution = await registry.emit(EVENT, {"k": 1})
    assert resolution.action == "continue"
    assert resolution.data is not None and "rewritten" not in resolution.data
    assert seen[0]["k"] == 1 and "rewritten" not in seen[0]  # the next handler saw the original
    first = resolution.trace[0]
    assert (first.handler, first.failure) == ("late", "timeout")
    assert first.duration == pytest.approx(0.375)
    assert "event loop was blocked" in (first.error or "")
    [record] = [r for r in logs if r.get("handler") == "late"]
    assert record["failure"] == "timeout" and record["hook_event"] == EVENT


@pytest.mark.parametrize("returns", [None, HookResult(), HookResult(action="modify", data={})])
@pytest.mark.parametrize("shape", SHAPES)
async def test_a_fail_closed_guard_that_overran_denies(
    shape: str, returns: HookResult | None, clock: ManualClock
) -> None:
    registry = HookRegistry(clock=clock, default_timeout=0.125)
    after: list[str] = []
    registry.register(EVENT, make(shape, clock, 0.375, returns), name="guard", fail_closed=True)
    registry.register(EVENT, lambda e, d: after.append("ran"), priority=1)
    resolution = await registry.emit(EVENT, {})
    assert resolution.action == "deny"
    assert resolution.denied_by == "guard"
    assert "guard" in (resolution.reason or "") and "timeout" in (resolution.reason or "")
    assert after == []


@pytest.mark.parametrize("shape", SHAPES)
async def test_a_handler_within_its_timeout_keeps_its_result(
    shape: str, clock: ManualClock
) -> None:
    registry = HookRegistry(clock=clock)
    # Exactly at the deadline still counts: late means after it.
    registry.register(
        EVENT, make(shape, clock, 0.125, HookResult(action="modify", data=MODIFIED)), timeout=0.125
    )
    registry.register(EVENT, make(shape, clock, 0.0625, None), name="quick", timeout=0.125)
    resolution = await registry.emit(EVENT, {})
    assert resolution.action == "modify" and resolution.data == MODIFIED
    assert [t.failure for t in resolution.trace] == [None, None]


async def test_no_timeout_means_no_deadline_however_long(clock: ManualClock) -> None:
    registry = HookRegistry(clock=clock, default_timeout=None)
    registry.register(EVENT, blocking(clock, 3600, HookResult(action="deny"), sync=True))
    assert (await registry.emit(EVENT, {})).action == "deny"


async def test_a_handler_that_really_blocks_the_loop_times_out(
    logs: list[dict[str, Any]],
) -> None:
    # The default clock, and a real blocking call: it takes at least its 0.05 s however busy
    # the machine is, so it is always past its 0.01 s timeout.
    def blocks(event: str, data: dict[str, Any]) -> HookResult:
        time.sleep(0.05)
        return HookResult(action="modify", data=MODIFIED)

    registry = HookRegistry()
    registry.register(EVENT, blocks, timeout=0.01, fail_closed=True)
    resolution = await registry.emit(EVENT, {})
    assert resolution.action == "deny" and resolution.denied_by == "blocks"
    [record] = [r for r in logs if r.get("handler") == "blocks"]
    assert record["failure"] == "timeout" and record["duration_ms"] >= 50


# -- emit_and_collect ----------------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES)
async def test_collect_drops_a_result_that_came_after_the_collect_timeout(
    shape: str, clock: ManualClock, logs: list[dict[str, Any]]
) -> None:
    registry = HookRegistry(clock=clock, default_timeout=None)
    # Concurrent handlers share the clock: "fine" is registered first, so that in every
    # shape it has finished before "late" holds the loop.
    registry.register(EVENT, make(shape, clock, 0.0, HookResult(data={"ok": 1})), name="fine")
    registry.register(EVENT, make(shape, clock, 0.375, HookResult(data={"late": 1})), name="late")
    assert await registry.emit_and_collect(EVENT, {}, timeout=0.125) == [{"ok": 1}]
    [record] = [r for r in logs if r.get("handler") == "late"]
    assert record["failure"] == "timeout"


@pytest.mark.parametrize("shape", SHAPES)
async def test_collect_also_holds_a_handler_to_its_own_shorter_timeout(
    shape: str, clock: ManualClock
) -> None:
    # The handlers run concurrently on one clock, so only one of them takes time here.
    registry = HookRegistry(clock=clock)
    registry.register(EVENT, make(shape, clock, 0.375, HookResult(data={"late": 1})), timeout=0.125)
    registry.register(EVENT, make(shape, clock, 0.0, HookResult(data={"ok": 1})), timeout=1.0)
    assert await registry.emit_and_collect(EVENT, {}, timeout=0.5) == [{"ok": 1}]


@pytest.mark.parametrize("shape", SHAPES)
async def test_collect_keeps_a_result_at_its_deadline(shape: str, clock: ManualClock) -> None:
    registry = HookRegistry(clock=clock, default_timeout=0.25)
    registry.register(EVENT, make(shape, clock, 0.125, HookResult(data={"ok": 1})))
    assert await registry.emit_and_collect(EVENT, {}, timeout=0.125) == [{"ok": 1}]


# -- contribution channels -----------------------------------------------------------------


def contributor(clock: ManualClock, seconds: float, value: Any, shape: str) -> Any:
    if shape == "sync":

        def sync() -> Any:
            clock.advance(seconds)
            return value

        return sync

    async def later() -> Any:
        if shape == "async-blocks-after-await":
            await asyncio.sleep(0)
        clock.advance(seconds)
        return value

    return later


@pytest.mark.parametrize("shape", SHAPES)
async def test_a_contributor_past_its_timeout_is_skipped(
    shape: str, clock: ManualClock, logs: list[dict[str, Any]]
) -> None:
    channels = ContributionChannels(default_timeout=0.125, clock=clock)
    channels.register_contributor("c", "first", contributor(clock, 0.0, "first", shape))
    channels.register_contributor("c", "edge", contributor(clock, 0.125, "edge", shape))
    channels.register_contributor("c", "late", contributor(clock, 0.375, "late", shape))
    # "edge" took exactly its timeout. Both finished before "late" held the loop (sharing
    # one clock, a contributor still waiting meanwhile would be late too).
    assert await channels.collect_contributions("c") == ["first", "edge"]
    [record] = logs
    assert record["contributor"] == "late" and record["failure"] == "timeout"
    assert "event loop was blocked" in record["error"]


@pytest.mark.parametrize("shape", SHAPES)
async def test_a_contributor_is_held_to_its_own_timeout(shape: str, clock: ManualClock) -> None:
    channels = ContributionChannels(default_timeout=0.125, clock=clock)
    channels.register_contributor("c", "own", contributor(clock, 0.375, "own", shape), timeout=1.0)
    assert await channels.collect_contributions("c") == ["own"]
    channels.register_contributor("c", "tight", contributor(clock, 0.375, "x", shape), timeout=0.25)
    assert await channels.collect_contributions("c") == ["own"]
