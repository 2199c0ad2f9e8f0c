"""The server's paced garbage collection (`Collector`): open sessions leave the walked
generations, closed ones are reclaimed once enough of them closed, and a reload starts
over. Every test gives the process's objects back to the ordinary collections."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from amplifier_hooks.hosts import HostSessions
from amplifier_hooks.hosts.claude_code import CLAUDE_CODE
from amplifier_hooks.transports.http.collector import Collector
from tests.transports.support import bash

STRICT = Path(__file__).resolve().parents[2] / "bundles" / "strict.yaml"


@pytest.fixture
def collector() -> Iterator[Collector]:
    collector = Collector(min_churn=2)
    try:
        yield collector
    finally:
        collector.release()


def frozen(thing: object) -> bool:
    return not any(thing is other for other in gc.get_objects())


async def test_an_open_session_is_frozen_without_a_full_collection(collector: Collector) -> None:
    async with HostSessions(STRICT) as sessions:
        collector.tick(sessions)  # the first look: one full collection
        await sessions.answer(CLAUDE_CODE, bash("git status", "s1"))
        coordinator = sessions.coordinator("s1")
        assert coordinator is not None and not frozen(coordinator)
        collector.tick(sessions)
        assert frozen(coordinator)
        assert collector.full_collections == 1


async def test_closed_sessions_are_reclaimed_once_enough_closed(collector: Collector) -> None:
    async with HostSessions(STRICT) as sessions:
        for sid in ("s1", "s2", "s3"):
            await sessions.answer(CLAUDE_CODE, bash("git status", sid))
        collector.tick(sessions)
        gone = []
        for sid in ("s1", "s2"):
            coordinator = sessions.coordinator(sid)
            assert coordinator is not None
            gone.append(weakref.ref(coordinator))
            del coordinator
            await sessions.close_session(sid)
        collector.tick(sessions)
        assert collector.full_collections == 2
        assert [ref() for ref in gone] == [None, None]
        kept = sessions.coordinator("s3")
        assert kept is not None and frozen(kept)


async def test_replaced_sessions_get_a_full_collection(collector: Collector) -> None:
    async with HostSessions(STRICT) as first, HostSessions(STRICT) as second:
        collector.tick(first)
        collector.tick(first)
        assert collector.full_collections == 1
        collector.tick(second)
        assert collector.full_collections == 2
        collector.tick(None)  # the bundle no longer loads
        assert collector.full_collections == 3


def test_the_young_generation_threshold_is_raised_and_given_back() -> None:
    before = gc.get_threshold()
    collector = Collector(young=before[0] * 3)
    collector.start()
    try:
        assert gc.get_threshold() == (before[0] * 3, before[1], before[2])
    finally:
        collector.release()
    assert gc.get_threshold() == before


def test_two_servers_in_one_process_give_the_threshold_back_after_the_last() -> None:
    before = gc.get_threshold()
    first, second = Collector(young=before[0] * 3), Collector(young=before[0] * 3)
    first.start()
    second.start()
    try:
        first.release()
        assert gc.get_threshold()[0] == before[0] * 3  # the second server still runs
    finally:
        first.release()
        second.release()
    assert gc.get_threshold() == before
