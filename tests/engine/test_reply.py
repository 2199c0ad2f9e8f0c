"""`Reply`: an answer with its background work, which happens once however many roads
finish it."""

from __future__ import annotations

import asyncio

import pytest

from amplifier_hooks.engine.reply import Reply


async def test_only_the_first_finish_does_the_work() -> None:
    done: list[str] = []

    async def work() -> None:
        done.append("told")

    reply = Reply("answer", work)
    assert reply.pending
    assert await reply.finish() == "answer"
    assert await reply.finish() == "answer"
    assert done == ["told"] and not reply.pending


async def test_a_reply_without_background_work_finishes_at_once() -> None:
    reply = Reply(42)
    assert not reply.pending
    assert await reply.finish() == 42


async def test_a_second_finish_while_the_first_runs_does_not_run_it_again() -> None:
    release = asyncio.Event()
    runs = 0

    async def work() -> None:
        nonlocal runs
        runs += 1
        await release.wait()

    reply = Reply(None, work)
    first = asyncio.ensure_future(reply.finish())
    await asyncio.sleep(0)  # the first is inside the work, waiting
    await reply.finish()  # returns at once: the work is taken
    release.set()
    await first
    assert runs == 1


async def test_work_that_raises_is_not_tried_again() -> None:
    runs = 0

    async def work() -> None:
        nonlocal runs
        runs += 1
        raise RuntimeError("observer broke")

    reply = Reply(None, work)
    with pytest.raises(RuntimeError, match="observer broke"):
        await reply.finish()
    await reply.finish()
    assert runs == 1


async def test_then_runs_the_layers_work_after_the_lower_ones_even_when_it_raises() -> None:
    order: list[str] = []

    async def observe() -> None:
        order.append("observe")
        raise RuntimeError("observer broke")

    async def release() -> None:
        order.append("release")

    lower = Reply("outcome", observe)
    upper = lower.then(release)
    assert not lower.pending  # the upper reply owns the work now
    with pytest.raises(RuntimeError, match="observer broke"):
        await upper.finish()
    await upper.finish()
    await lower.finish()
    assert order == ["observe", "release"]


async def test_with_answer_keeps_the_work_for_the_translated_answer() -> None:
    done: list[str] = []

    async def work() -> None:
        done.append("told")

    outcome = Reply({"allowed": True}, work)
    answer = outcome.with_answer("host json")
    assert await outcome.finish() == {"allowed": True}
    assert done == []  # the work went with the answer
    assert await answer.finish() == "host json"
    assert done == ["told"]
