"""`run_once`: what is left of a call happens once, however many roads await it."""

from __future__ import annotations

import asyncio

import pytest

from amplifier_hooks.engine.tasks import run_once


async def test_only_the_first_await_does_the_work() -> None:
    done: list[str] = []

    async def work() -> None:
        done.append("told")

    once = run_once(work)
    await once()
    await once()
    assert done == ["told"]


async def test_a_second_await_while_the_first_runs_does_not_run_it_again() -> None:
    release = asyncio.Event()
    runs = 0

    async def work() -> None:
        nonlocal runs
        runs += 1
        await release.wait()

    once = run_once(work)
    first = asyncio.ensure_future(once())
    await asyncio.sleep(0)  # the first is inside the work, waiting
    await once()  # returns at once: the work is taken
    release.set()
    await first
    assert runs == 1


async def test_work_that_raises_is_not_tried_again() -> None:
    runs = 0

    async def work() -> None:
        nonlocal runs
        runs += 1
        raise RuntimeError("observer broke")

    once = run_once(work)
    with pytest.raises(RuntimeError, match="observer broke"):
        await once()
    await once()
    assert runs == 1
