"""Queued requests that are long over are pruned, on SQLite and PostgreSQL alike; a request
still waiting is never deleted, whatever its age.

Every backend here reads a `ManualClock`, so rows are made "a week old" by moving the
clock, not by waiting.
"""

from __future__ import annotations

import asyncio
import io
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amplifier_hooks import BundleError, Coordinator, load_bundle
from amplifier_hooks.approvals import ApprovalBackend, ApprovalRequest, ApprovalStore
from amplifier_hooks.approvals.store import PRUNE_INTERVAL, QUEUE_RETENTION
from amplifier_hooks.approvals.store.postgres import PostgresBackend
from amplifier_hooks.cli import main as cli_main
from conftest import ManualClock

from .pgserver import PgServer

T0 = 1_700_000_000.0
DAY = 24 * 3600.0


@pytest.fixture(params=["sqlite", "postgres"])
async def timed(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[ApprovalBackend, ManualClock]]:
    """A backend on a fresh store, reading a clock the test moves."""
    clock = ManualClock(T0)
    backend: ApprovalBackend
    if request.param == "sqlite":
        backend = ApprovalStore(tmp_path / "approvals.db", clock=clock)
    else:
        server: PgServer = request.getfixturevalue("pg_server")
        backend = PostgresBackend(server.create_database(), clock=clock)
    yield backend, clock
    await backend.aclose()


def _request(prompt: str) -> ApprovalRequest:
    return ApprovalRequest(prompt=prompt, event="tool:pre", source="guard", workspace="/w")


async def _queue(backend: ApprovalBackend, prompt: str, deadline: float | None) -> int:
    return await backend.enqueue(_request(prompt), session_id="s", host="h", deadline=deadline)


async def _left(backend: ApprovalBackend) -> set[str]:
    return {row.prompt for row in await backend.list_pending(include_done=True)}


async def test_only_requests_long_over_are_pruned(
    timed: tuple[ApprovalBackend, ManualClock],
) -> None:
    backend, clock = timed
    backend.queue_retention = None  # only the explicit prunes below
    answered = await _queue(backend, "answered", T0 + 10)
    expired = await _queue(backend, "expired", T0 + 10)
    await _queue(backend, "abandoned", T0 + 10)  # its agent vanished: still 'pending'
    await _queue(backend, "waits for ever", None)
    await _queue(backend, "waits long", T0 + 1000)
    answered_no_deadline = await _queue(backend, "answered, no deadline", None)
    answered_still_awaited = await _queue(backend, "answered, deadline ahead", T0 + 500)
    clock.advance(1)
    for ident in (answered, answered_no_deadline, answered_still_awaited):
        assert (await backend.answer(ident, "Allow", "alice")).won
    await backend.expire(expired)
    clock.now = T0 + 150
    recent = await _queue(backend, "recent", T0 + 160)
    await backend.answer(recent, "Deny", "bob")

    clock.now = T0 + 200
    assert await backend.prune_queue(100) == 4
    assert await _left(backend) == {
        "waits for ever",
        "waits long",
        "answered, deadline ahead",  # its agent may still be about to read the answer
        "recent",
    }
    clock.now = T0 + 700
    assert await backend.prune_queue(100) == 2
    assert await _left(backend) == {"waits for ever", "waits long"}
    clock.now = T0 + 1050  # "waits long" is past its deadline, but not by 100 s yet
    assert await backend.prune_queue(100) == 0
    clock.now = T0 + 1200
    assert await backend.prune_queue(100) == 1
    clock.now = T0 + 1e9
    assert await backend.prune_queue(1) == 0
    assert await _left(backend) == {"waits for ever"}  # a question still waiting stays
    assert len(await backend.audit_log()) == 0  # the audit trail is not the queue's


async def test_queueing_prunes_in_the_background_once_per_interval(
    timed: tuple[ApprovalBackend, ManualClock],
) -> None:
    backend, clock = timed
    assert (backend.queue_retention, backend.prune_interval) == (QUEUE_RETENTION, PRUNE_INTERVAL)
    week = 7 * DAY
    a = await _queue(backend, "a", T0 + 60)  # the first queueing prunes (nothing yet)
    await backend.answer(a, "Allow", "alice")
    await backend.pruned()

    clock.now = T0 + week + 100  # "a" has been over for a week
    await _queue(backend, "b", None)
    await backend.pruned()
    assert await _left(backend) == {"b"}

    c = await _queue(backend, "c", clock.now + 60)  # no prune: one ran just now
    await backend.answer(c, "Allow", "alice")  # "c" is over from T0 + week + 160
    clock.now = T0 + 2 * week + 150
    await _queue(backend, "d", None)  # a prune runs; "c" is not a week over yet
    await backend.pruned()
    clock.advance(PRUNE_INTERVAL - 1)  # now it is, but the last prune was too recent
    await _queue(backend, "e", None)
    await backend.pruned()
    assert "c" in await _left(backend)
    clock.advance(1)
    await _queue(backend, "f", None)
    await backend.pruned()
    assert await _left(backend) == {"b", "d", "e", "f"}


async def test_no_retention_keeps_every_request(
    timed: tuple[ApprovalBackend, ManualClock],
) -> None:
    backend, clock = timed
    backend.queue_retention = None
    done = await _queue(backend, "done", T0 + 1)
    await backend.expire(done)
    clock.advance(365 * DAY)
    await _queue(backend, "later", None)
    await backend.pruned()
    assert await _left(backend) == {"done", "later"}


async def test_a_prune_that_fails_is_logged_and_never_reaches_the_agent(
    tmp_path: Path, logs: list[dict[str, Any]]
) -> None:
    clock = ManualClock(T0)
    backend = ApprovalStore(tmp_path / "approvals.db", clock=clock)
    await _queue(backend, "first", None)
    await backend.pruned()
    backend.close()  # the store goes away under the next prune
    clock.advance(PRUNE_INTERVAL)
    backend.prune_soon()
    await backend.pruned()
    [record] = [r for r in logs if r["event"] == "could not prune the approval queue"]
    assert record["log_level"] == "warning" and "closed" in record["error"]
    await backend.aclose()


async def test_closing_stops_a_prune_that_is_running(tmp_path: Path) -> None:
    clock = ManualClock(T0)
    backend = ApprovalStore(tmp_path / "approvals.db", clock=clock)
    started = asyncio.Event()
    release = asyncio.Event()

    async def slow_prune(older_than: float, *, budget: float | None = None) -> int:
        started.set()
        await release.wait()
        return 0

    backend.prune_queue = slow_prune  # type: ignore[method-assign]
    await _queue(backend, "first", None)
    await started.wait()
    await backend.aclose()  # returns without the prune finishing
    assert backend._pruning is None


async def _one_over_one_waiting(path: Path) -> None:
    store = ApprovalStore(path, clock=ManualClock(T0))
    done = await store.enqueue(_request("done"), session_id="s", host="h", deadline=T0 + 1)
    await store.expire(done)
    await store.enqueue(_request("waiting"), session_id="s", host="h", deadline=None)
    await store.aclose()


def test_approve_prune_deletes_what_is_long_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "approvals.db"
    asyncio.run(_one_over_one_waiting(path))  # the command below runs its own loop

    def cli(*args: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        monkeypatch.setattr(sys, "stdout", out)
        monkeypatch.setattr(sys, "stderr", err)
        return cli_main(["approve", *args]), out.getvalue(), err.getvalue()

    # The CLI reads the real clock: T0 is long ago, so "done" is over for weeks.
    code, out, _ = cli("--prune", "--older-than", "0.5", "--store", str(path))
    assert code == 0 and out.startswith("deleted 1 queued request over for more than 0.5 days")
    code, out, _ = cli("--prune", "--store", str(path))
    assert code == 0 and "deleted 0 queued requests over for more than 7 days" in out
    code, _, err = cli("--older-than", "3", "--store", str(path))
    assert code == 2 and "--older-than goes with --prune" in err
    code, _, err = cli("--prune", "--older-than", "-1", "--store", str(path))
    assert code == 2 and "positive number of days" in err
    left = ApprovalStore(path)
    assert [r.prompt for r in asyncio.run(left.list_pending(include_done=True))] == ["waiting"]
    left.close()


Row = tuple[float, float | None, str, float]
"""created (s after T0), deadline (s after creation, or None), what happened, when (s
after creation): 'waiting', 'answered' or 'expired'."""

_rows = st.lists(
    st.tuples(
        st.integers(0, 1000).map(float),
        st.one_of(st.none(), st.integers(1, 1000).map(float)),
        st.sampled_from(["waiting", "answered", "expired"]),
        st.integers(0, 999).map(float),
    ),
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(rows=_rows, at=st.integers(0, 3000).map(float), keep=st.integers(1, 1500).map(float))
async def test_a_prune_deletes_exactly_the_requests_over_for_long_enough(
    rows: list[Row], at: float, keep: float
) -> None:
    clock = ManualClock(T0)
    store = ApprovalStore(":memory:", clock=clock)
    store.queue_retention = store.audit_retention = None  # only the prune below, in the open
    expected: set[str] = set()
    for index, (created, timeout, fate, after) in enumerate(rows):
        clock.now = T0 + created
        deadline = None if timeout is None else T0 + created + timeout
        name = str(index)
        ident = await store.enqueue(_request(name), session_id="s", host="h", deadline=deadline)
        latest = [T0 + created] + ([deadline] if deadline is not None else [])
        if fate != "waiting" and (timeout is None or after < timeout):
            clock.now = T0 + created + after
            if fate == "answered":
                assert (await store.answer(ident, "Allow", "alice")).won
                latest.append(clock.now)
            else:
                await store.expire(ident)
        over = fate != "waiting" or deadline is not None
        if not (over and max(latest) < T0 + at - keep):
            expected.add(name)
    clock.now = T0 + at
    await store.prune_queue(keep)
    assert {r.prompt for r in await store.list_pending(include_done=True)} == expected
    # Whatever was pruned, no request still waiting at this moment is gone.
    waiting = {
        str(i)
        for i, (created, timeout, fate, after) in enumerate(rows)
        if (fate == "waiting" or (timeout is not None and after >= timeout))
        and (timeout is None or T0 + created + timeout > clock.now)
    }
    assert waiting <= expected
    store.close()


@pytest.mark.parametrize(
    ("written", "retention"),
    [
        ("", QUEUE_RETENTION),
        ("\n    queue_retention_days: 2", 2 * DAY),
        ("\n    queue_retention_days: null", None),
    ],
)
async def test_a_bundle_sets_how_long_queued_requests_are_kept(
    tmp_path: Path, written: str, retention: float | None
) -> None:
    path = tmp_path / "agent.yaml"
    path.write_text(f"session:\n  approvals:\n    store: ':memory:'{written}\n", encoding="utf-8")
    coordinator = await Coordinator.from_bundle(path)
    assert coordinator.approvals.backend.queue_retention == retention
    await coordinator.cleanup()


def test_a_retention_that_is_not_positive_is_a_bundle_error(tmp_path: Path) -> None:
    path = tmp_path / "agent.yaml"
    path.write_text("session:\n  approvals:\n    queue_retention_days: 0\n", encoding="utf-8")
    with pytest.raises(BundleError, match="queue_retention_days") as info:
        load_bundle(path)
    assert "agent.yaml:3" in str(info.value)
