"""Long work in one session never holds up another session's call (issue 26, finding 6):
a plain handler that blocks runs in a thread, and is denied at the call deadline; the
opening of a session of a large bundle lets other calls through every slice of its
mounts; sessions opening together are answered one after another, in the order they came.

Each test waits on the work itself (FIFOs), never on a clock. A fail-safe releases a
held handler after a long while, so that, were the event loop blocked, the test would
fail (the other call answered only after the release) instead of hanging.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
import pytest

from amplifier_hooks.bundles import loading
from amplifier_hooks.bundles import turns as turns_module
from amplifier_hooks.hosts import HostSessions
from amplifier_hooks.hosts.claude_code import CLAUDE_CODE
from amplifier_hooks.web.limits import Limits
from tests.transports.support import (
    BLOCKING_MODULE,
    Gate,
    bash,
    counting_turns,
    decision,
    read,
    serving,
    session_end,
    write_bundle,
)

T = TypeVar("T")
STRICT = Path(__file__).resolve().parents[2] / "bundles" / "strict.yaml"
FAIL_SAFE = 30.0
"""Seconds after which a held handler is released anyway: only a failing test gets there,
well before pytest-timeout's 60 s would interrupt the handler itself."""


def fail_safe(gate: Gate) -> tuple[threading.Event, Callable[[], None]]:
    """A timer that releases ``gate`` after `FAIL_SAFE` seconds; the event is set if it
    did. The function returned stops the timer and lets go of a handler still held."""
    fired = threading.Event()

    def release() -> None:
        fired.set()
        gate.let_go()

    timer = threading.Timer(FAIL_SAFE, release)
    timer.daemon = True
    timer.start()

    def stop() -> None:
        timer.cancel()
        gate.let_go()

    return fired, stop


def blocking_bundle(directory: Path, gate: Gate) -> Path:
    """A bundle of the one module whose plain handler blocks on ``gate``."""
    return write_bundle(
        directory,
        f"""\
        - module: blocking
          source: {BLOCKING_MODULE}
          config: {{gate: "{gate.directory}"}}
        """,
    )


async def post(client: aiohttp.ClientSession, url: str, payload: object) -> object:
    async with client.post(url, json=payload) as response:
        return await response.json()


async def test_a_blocking_plain_handler_holds_up_no_other_session(tmp_path: Path) -> None:
    gate = Gate(tmp_path / "gate")
    bundle = blocking_bundle(tmp_path, gate)
    async with serving(bundle, Limits(call_deadline=3.0)) as (client, url, _):
        for session in ("slow", "other"):  # both open first
            assert await post(client, url, bash("ls", session=session)) == {}
        fired, stop = fail_safe(gate)
        try:
            held = asyncio.ensure_future(post(client, url, bash("hold", session="slow")))
            await asyncio.to_thread(gate.wait_entered)  # the plain handler blocks its thread
            answer = await post(client, url, bash("rm -rf /", session="other"))
            assert not fired.is_set(), "the other session was answered only once released"
            assert decision(answer) == ("deny", "rm is not allowed here")
            # The held call is denied at its deadline, the handler still blocked.
            verdict, reason = decision(await held) or ("", "")
            assert not fired.is_set()
        finally:
            stop()
    assert verdict == "deny"
    assert reason.endswith("the hook server did not answer within 3 s")


async def test_a_released_plain_handler_decides_its_call(tmp_path: Path) -> None:
    gate = Gate(tmp_path / "gate")
    bundle = blocking_bundle(tmp_path, gate)
    async with serving(bundle, Limits()) as (client, url, _):
        fired, stop = fail_safe(gate)
        try:
            held = asyncio.ensure_future(post(client, url, bash("hold", session="slow")))
            await asyncio.to_thread(gate.wait_entered)
            await asyncio.to_thread(gate.release)
            assert decision(await held) == ("deny", "held, then denied")  # type: ignore[arg-type]
        finally:
            stop()
    assert not fired.is_set()


class SliceClock:
    """The loader's clock: each reading two `loading.MOUNT_SLICE` after the last, so
    every mount uses up its slice, however fast the machine."""

    def __init__(self) -> None:
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        return self.readings * 2 * loading.MOUNT_SLICE


async def test_opening_a_session_of_a_large_bundle_holds_up_no_other_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Whether another call's few trips round the loop fit into a large open is a matter of
    # timing; that the open hands the loop on after every slice of its mounts is not. With
    # each mount taking a whole slice by the loader's clock, a task that only counts its
    # turns gets one between every two of the 1,000 mounts, and no more than a few dozen
    # in the whole exchange if the mounts run in one stretch.
    monkeypatch.setattr(loading, "_clock", SliceClock())
    fillers = "".join(
        f"        - {{module: blocking, id: filler-{i}, source: {BLOCKING_MODULE}}}\n"
        for i in range(1000)
    )
    bundle = write_bundle(
        tmp_path,
        f"""\
        {fillers.strip()}
        """,
    )
    async with serving(bundle, Limits()) as (client, url, source):
        async with counting_turns() as turns_now:
            assert await post(client, url, bash("ls", session="big")) == {}
            turns = turns_now()
        sessions = source.sessions
        assert sessions is not None
        assert sessions.coordinator("big") is not None
    assert turns >= 1000, f"other tasks ran {turns} times while 1,000 modules mounted"


async def test_sessions_opening_together_are_answered_one_after_another(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A fleet starting together: had every opening run in the same turn of the loop, every
    # first call would be answered after all of them, at the same moment (the agents then
    # go on in step). They open a turn's budget at a time, in the order they came: with
    # no budget, one per turn. The loader's clock stands still, so no opening uses up its
    # slice, however slow the machine.
    monkeypatch.setattr(loading, "_clock", lambda: 0.0)
    monkeypatch.setattr(turns_module, "BUDGET", 0.0)
    answered: list[tuple[str, int]] = []

    async def first_call(session: str) -> None:
        answer = await sessions.answer(CLAUDE_CODE, bash("git status", session))
        assert answer.output is not None
        assert answer.output["hookSpecificOutput"]["permissionDecision"] == "allow"
        answered.append((session, turns()))

    async with HostSessions(STRICT) as sessions:
        await sessions.answer(CLAUDE_CODE, bash("git status", "warm"))  # modules imported
        async with counting_turns() as turns:
            names = [f"agent-{number}" for number in range(6)]
            await asyncio.gather(*(first_call(name) for name in names))
    assert [name for name, _ in answered] == names
    at = [turn for _, turn in answered]
    assert all(later > earlier for earlier, later in itertools.pairwise(at)), at


class CountingPool(ThreadPoolExecutor):
    """A pool that counts the calls given to it."""

    def __init__(self) -> None:
        super().__init__(2)
        self.calls = 0

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        self.calls += 1
        return super().submit(fn, *args, **kwargs)


async def test_the_shipped_modules_handlers_take_no_thread_hop() -> None:
    pool = CountingPool()
    try:
        async with HostSessions(STRICT, plain_handlers=pool) as sessions:
            for payload in (bash("git status"), bash("rm -rf /tmp/x"), read(), session_end()):
                await sessions.answer(CLAUDE_CODE, payload)
    finally:
        pool.shutdown()
    assert pool.calls == 0


async def test_a_plain_handler_of_another_module_runs_in_the_pool(tmp_path: Path) -> None:
    pool = CountingPool()
    gate = Gate(tmp_path / "gate")
    try:
        async with HostSessions(blocking_bundle(tmp_path, gate), plain_handlers=pool) as sessions:
            answer = await sessions.answer(CLAUDE_CODE, bash("rm -rf /"))
    finally:
        pool.shutdown()
    assert decision(answer.output) == ("deny", "rm is not allowed here")
    assert pool.calls == 1
