"""Contribution channels: pull-based, isolated, ordered, cancellable.

No test here depends on how long anything takes: contributors that must finish late wait
on an event, and the order they finish in is set by events, not by sleeps. (Contributors
that block past their timeout are in test_deadlines.py, on a ManualClock.)
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from amplifier_hooks.engine.channels import ContributionChannels


async def test_sync_async_and_coroutine_returning_callbacks_all_contribute() -> None:
    channels = ContributionChannels()

    async def async_cb() -> str:
        await asyncio.sleep(0)
        return "async"

    def returns_coroutine() -> Any:
        return async_cb()

    channels.register_contributor("caps", "sync", lambda: "sync")
    channels.register_contributor("caps", "async", async_cb)
    channels.register_contributor("caps", "coro", returns_coroutine)
    assert await channels.collect_contributions("caps") == ["sync", "async", "async"]


async def test_none_results_are_dropped_but_falsy_values_kept() -> None:
    channels = ContributionChannels()
    channels.register_contributor("c", "none", lambda: None)
    channels.register_contributor("c", "zero", lambda: 0)
    channels.register_contributor("c", "empty", lambda: [])
    assert await channels.collect_contributions("c") == [0, []]


async def test_results_keep_registration_order_when_finishing_out_of_order() -> None:
    channels = ContributionChannels()
    done = {name: asyncio.Event() for name in ("slow", "fast", "mid")}
    finished: list[str] = []

    def after(name: str, waits_for: str | None, value: str) -> Any:
        async def cb() -> str:
            if waits_for is not None:
                await done[waits_for].wait()
            finished.append(name)
            done[name].set()
            return value

        return cb

    channels.register_contributor("c", "slow", after("slow", "mid", "first"))
    channels.register_contributor("c", "fast", after("fast", None, "second"))
    channels.register_contributor("c", "mid", after("mid", "fast", "third"))
    assert await channels.collect_contributions("c") == ["first", "second", "third"]
    assert finished == ["fast", "mid", "slow"]


async def test_failing_contributor_is_logged_and_skipped(logs: list[dict[str, Any]]) -> None:
    channels = ContributionChannels()

    def broken() -> str:
        raise RuntimeError("no data today")

    async def exits() -> str:
        raise SystemExit(3)

    channels.register_contributor("c", "ok-1", lambda: 1)
    channels.register_contributor("c", "broken", broken)
    channels.register_contributor("c", "exits", exits)
    channels.register_contributor("c", "ok-2", lambda: 2)
    assert await channels.collect_contributions("c") == [1, 2]
    failures = {r["contributor"]: r for r in logs if r["event"] == "contributor failed; skipped"}
    assert set(failures) == {"broken", "exits"}
    assert failures["broken"]["failure"] == "raised"
    assert "no data today" in failures["broken"]["error"]
    assert failures["exits"]["failure"] == "exit"
    assert all(r["channel"] == "c" for r in failures.values())


async def test_slow_contributor_times_out_without_delaying_the_others(
    logs: list[dict[str, Any]],
) -> None:
    # No default bound at all: only its own timeout can end the one that hangs.
    channels = ContributionChannels(default_timeout=None)

    async def hangs() -> str:
        await asyncio.Event().wait()
        return "never"

    async def quick() -> str:
        await asyncio.sleep(0)
        return "quick"

    channels.register_contributor("c", "hangs", hangs, timeout=0.2)
    channels.register_contributor("c", "quick", quick)
    assert await channels.collect_contributions("c") == ["quick"]
    assert [r["contributor"] for r in logs if r.get("failure") == "timeout"] == ["hangs"]


async def test_contributor_that_swallows_cancellation_cannot_hang_collection() -> None:
    channels = ContributionChannels(default_timeout=None)
    release = asyncio.Event()
    ended = asyncio.Event()

    async def stubborn() -> str:
        try:
            while not release.is_set():
                try:
                    await release.wait()
                except asyncio.CancelledError:
                    continue  # ignores the timeout's cancellation
            return "released"
        finally:
            ended.set()

    channels.register_contributor("c", "stubborn", stubborn, timeout=0.1)
    channels.register_contributor("c", "fine", lambda: "fine")
    assert await channels.collect_contributions("c") == ["fine"]
    assert not ended.is_set()  # the collection did not wait for it
    release.set()  # let the abandoned task end so the test's loop can close
    await ended.wait()


async def test_callers_cancellation_propagates_and_stops_contributors() -> None:
    channels = ContributionChannels(default_timeout=None)
    started = asyncio.Event()
    cancelled = asyncio.Event()

    async def long_running() -> str:
        started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return "late"

    channels.register_contributor("c", "long", long_running)
    task = asyncio.ensure_future(channels.collect_contributions("c"))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await cancelled.wait()


async def test_channels_are_independent_and_unregister_is_idempotent() -> None:
    channels = ContributionChannels()
    unregister = channels.register_contributor("a", "one", lambda: "a1")
    channels.register_contributor("b", "two", lambda: "b1")
    assert await channels.collect_contributions("a") == ["a1"]
    assert await channels.collect_contributions("b") == ["b1"]
    unregister()
    unregister()
    assert await channels.collect_contributions("a") == []
    assert await channels.collect_contributions("b") == ["b1"]
    assert await channels.collect_contributions("never-registered") == []
    assert channels.contributors() == {"b": ["two"]}


async def test_concurrency_is_bounded() -> None:
    channels = ContributionChannels(max_concurrency=2)
    running = 0
    peak = 0

    async def cb() -> int:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        for _ in range(3):
            await asyncio.sleep(0)  # lets every other contributor start that may
        running -= 1
        return 1

    for i in range(6):
        channels.register_contributor("c", f"c{i}", cb)
    assert await channels.collect_contributions("c") == [1] * 6
    assert peak == 2


@pytest.mark.parametrize(
    ("channel", "name", "callback", "error"),
    [
        ("", "x", lambda: 1, ValueError),
        (" padded ", "x", lambda: 1, ValueError),
        ("c", "", lambda: 1, ValueError),
        ("c", "x", "not callable", TypeError),
    ],
)
def test_bad_registrations_fail_at_registration(
    channel: str, name: str, callback: Any, error: type[Exception]
) -> None:
    with pytest.raises(error):
        ContributionChannels().register_contributor(channel, name, callback)
