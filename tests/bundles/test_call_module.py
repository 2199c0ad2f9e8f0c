"""`call_module`, the deadline around a module's mount, session-ready and cleanup: a
coroutine is run to its first suspension before any timer is set, so these check that
it still ends, fails and is cancelled as an ``await`` under ``asyncio.timeout`` would."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from amplifier_hooks.bundles.lifecycle import call_module


async def test_a_mount_that_never_waits_returns_its_value_without_a_timer() -> None:
    loop = asyncio.get_running_loop()

    async def mount(host: str, config: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return host, config

    timers = len(loop._scheduled)  # type: ignore[attr-defined]
    assert await call_module(mount, "host", {"a": 1}, timeout=30) == ("host", {"a": 1})
    assert len(loop._scheduled) == timers  # type: ignore[attr-defined]
    assert await call_module(lambda: "sync", timeout=30) == "sync"


async def test_a_mount_that_waits_gets_what_it_waits_for() -> None:
    got: list[Any] = []
    answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def mount() -> str:
        await asyncio.sleep(0)
        got.append(await answer)
        return "mounted"

    task = asyncio.ensure_future(call_module(mount, timeout=30))
    for _ in range(3):
        await asyncio.sleep(0)
    answer.set_result("the value")
    assert await task == "mounted"
    assert got == ["the value"]


async def test_a_mount_past_its_deadline_is_cancelled_inside_and_named() -> None:
    cleaned = asyncio.Event()
    never: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def mount() -> None:
        try:
            await never
        finally:
            cleaned.set()

    with pytest.raises(TimeoutError, match=r"did not finish within 0.01s"):
        await call_module(mount, timeout=0.01)
    assert cleaned.is_set()


async def test_the_deadline_counts_from_the_call_not_from_the_first_wait() -> None:
    async def mount() -> None:
        time.sleep(0.05)  # noqa: ASYNC251 -- longer than the deadline, before any wait
        await asyncio.sleep(0)

    with pytest.raises(TimeoutError, match="did not finish within"):
        await call_module(mount, timeout=0.01)


@pytest.mark.parametrize("waits_first", [False, True])
async def test_the_modules_own_errors_pass_through(waits_first: bool) -> None:
    async def mount() -> None:
        if waits_first:
            await asyncio.sleep(0)
        raise TimeoutError("the module's own")

    with pytest.raises(TimeoutError, match="the module's own"):
        await call_module(mount, timeout=30)


async def test_cancelling_the_caller_reaches_the_waiting_module() -> None:
    seen: list[str] = []
    started = asyncio.Event()

    async def mount() -> None:
        started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            seen.append("cancelled")
            raise

    task = asyncio.ensure_future(call_module(mount, timeout=30))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert seen == ["cancelled"]
