"""Loads take turns on an event loop (`amplifier_hooks.bundles.turns`): those that start
together go a turn's budget at a time (one per turn until loads are known to be quick),
in the order they came; alone, a load goes at once;
one that gave the loop back goes behind the others; one cancelled while waiting holds
nobody up. Turns are counted by a task that only counts them, never by a clock."""

from __future__ import annotations

import asyncio
import gc
import itertools
import weakref
from collections.abc import AsyncIterator, Callable

import pytest

from amplifier_hooks.bundles.turns import BUDGET, Turns, turns
from tests.transports.support import counting_turns


@pytest.fixture
async def turn_count() -> AsyncIterator[Callable[[], int]]:
    async with counting_turns() as count:
        await asyncio.sleep(0)
        yield count


async def test_loads_starting_together_go_one_per_turn_in_order(
    turn_count: Callable[[], int],
) -> None:
    line = Turns()
    went: list[tuple[int, int]] = []

    async def load(number: int) -> None:
        await line.take()
        went.append((number, turn_count()))

    await asyncio.gather(*(load(number) for number in range(5)))
    assert [number for number, _ in went] == [0, 1, 2, 3, 4]
    at = [turn for _, turn in went]
    assert all(later > earlier for earlier, later in itertools.pairwise(at)), at


async def test_quick_loads_go_several_per_turn(turn_count: Callable[[], int]) -> None:
    line = Turns()
    for _ in range(10):
        line.took(BUDGET / 5)  # lately, loads took a fifth of a turn's budget
    went: list[int] = []

    async def load() -> None:
        await line.take()
        went.append(turn_count())

    await asyncio.gather(*(load() for _ in range(8)))
    assert went[:4] == [went[0]] * 4  # four fit in a turn (the fifth would reach it)
    assert went[4:] == [went[4]] * 4
    assert went[4] > went[0]


async def test_a_load_alone_goes_at_once(turn_count: Callable[[], int]) -> None:
    line = turns()
    assert line is turns()  # one line per loop
    before = turn_count()
    await line.take()
    assert turn_count() == before
    await asyncio.sleep(0)
    await asyncio.sleep(0)  # the turn it went in is over
    before = turn_count()
    await line.take()
    assert turn_count() == before


async def test_a_load_taking_its_turn_again_goes_behind_the_waiting_ones() -> None:
    line = Turns()
    went: list[str] = []

    async def load(name: str, again: bool) -> None:
        await line.take(again=again)
        went.append(name)

    await line.take()  # the long load goes first...
    waiting = asyncio.ensure_future(load("waiting", again=False))
    await asyncio.sleep(0)  # ...another comes meanwhile
    await load("long, again", again=True)
    await waiting
    assert went == ["waiting", "long, again"]
    # Alone, taking its turn again still gives the loop away.
    other_ran = False

    async def other() -> None:
        nonlocal other_ran
        other_ran = True

    running = asyncio.ensure_future(other())
    await line.take(again=True)
    assert other_ran
    await running


async def test_a_load_cancelled_while_waiting_holds_up_nobody() -> None:
    line = Turns()
    went: list[int] = []

    async def load(number: int) -> None:
        await line.take()
        went.append(number)

    first = asyncio.ensure_future(load(0))
    gone = asyncio.ensure_future(load(1))
    last = asyncio.ensure_future(load(2))
    await asyncio.sleep(0)  # all three in line, the first through
    assert len(line) == 2
    gone.cancel()
    await asyncio.gather(first, last)
    assert went == [0, 2]
    assert gone.cancelled()
    assert len(line) == 0


def test_a_loop_gone_takes_its_line_with_it() -> None:
    loop = asyncio.new_event_loop()

    async def load() -> Turns:
        line = turns()
        await line.take()
        await line.take(again=True)
        return line

    line = weakref.ref(loop.run_until_complete(load()))
    loop.close()
    gone = weakref.ref(loop)
    del loop
    gc.collect()
    assert gone() is None
    assert line() is None
