"""A cap on a server's sessions (issue 26, finding 6): at the cap the session idle longest
is closed for a new one; when every session has a call in progress, the new session is
refused with a reason the agent reads, and the others carry on."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from amplifier_hooks.hosts import CLAUDE_CODE, HostSessions
from conftest import ManualClock
from tests.hosts.test_sessions import read
from tests.transports.support import Gate, bash, decision, gate_hooks, write_bundle


async def test_at_the_cap_the_session_idle_longest_is_closed(tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path, gate_hooks(tmp_path, tmp_path / "record"))
    clock = ManualClock()
    async with HostSessions(bundle, max_sessions=2, clock=clock) as sessions:
        for name in ("s1", "s2"):
            await sessions.answer(CLAUDE_CODE, read(name))
            clock.advance(1)
        await sessions.answer(CLAUDE_CODE, read("s1"))  # s2 is now the one idle longest
        clock.advance(1)
        await sessions.answer(CLAUDE_CODE, read("s3"))
        assert sorted(sessions.session_ids()) == ["s1", "s3"]
    assert (tmp_path / "record").read_text() == "cleanup\n" * 3


async def test_when_every_session_is_busy_a_new_one_is_refused(tmp_path: Path) -> None:
    gate = Gate(tmp_path / "gate")
    bundle = write_bundle(tmp_path, gate_hooks(gate.directory, tmp_path / "record"))
    async with HostSessions(bundle, max_sessions=1) as sessions:
        held = asyncio.ensure_future(sessions.answer(CLAUDE_CODE, bash("hold", session="s1")))
        await asyncio.to_thread(gate.wait_entered)
        refused = await sessions.answer(CLAUDE_CODE, bash("ls", session="s2"))
        verdict, reason = decision(refused.output) or ("", "")
        assert verdict == "deny"
        assert "has its 1 sessions open, each with a call in progress" in reason
        await asyncio.to_thread(gate.release)
        assert decision((await held).output) == ("deny", "held, then denied")
        assert sessions.session_ids() == ["s1"]


async def test_of_two_used_at_the_same_time_the_smaller_id_is_closed(tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path, gate_hooks(tmp_path, tmp_path / "record"))
    clock = ManualClock()  # never advanced: every session was used at the same time
    async with HostSessions(bundle, max_sessions=2, clock=clock) as sessions:
        for name in ("s2", "s1"):
            await sessions.answer(CLAUDE_CODE, read(name))
        await sessions.answer(CLAUDE_CODE, read("s3"))
        assert sorted(sessions.session_ids()) == ["s2", "s3"]


async def test_a_busy_session_used_long_ago_is_passed_over(tmp_path: Path) -> None:
    gate = Gate(tmp_path / "gate")
    bundle = write_bundle(tmp_path, gate_hooks(gate.directory, tmp_path / "record"))
    clock = ManualClock()
    async with HostSessions(bundle, max_sessions=3, clock=clock) as sessions:
        held = asyncio.ensure_future(sessions.answer(CLAUDE_CODE, bash("hold", session="s1")))
        await asyncio.to_thread(gate.wait_entered)
        for name in ("s2", "s3"):
            clock.advance(1)
            await sessions.answer(CLAUDE_CODE, read(name))
        clock.advance(1)
        await sessions.answer(CLAUDE_CODE, read("s4"))  # s1 used first, but still busy
        assert sorted(sessions.session_ids()) == ["s1", "s3", "s4"]
        await asyncio.to_thread(gate.release)
        await held
        clock.advance(1)
        await sessions.answer(CLAUDE_CODE, read("s5"))  # s1 was used when its call ended
        assert sorted(sessions.session_ids()) == ["s1", "s4", "s5"]


@settings(max_examples=25, deadline=None)
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(["a", "b", "c", "d", "e"]), st.sampled_from([0.0, 0.5, 1.0])),
        max_size=14,
    )
)
def test_the_session_closed_at_the_cap_is_the_one_idle_longest(
    steps: list[tuple[str, float]],
) -> None:
    """Against a model that looks at every session (``min`` of last use and id): the
    order of use the sessions keep closes the same one, and idle expiry the same ones."""
    with tempfile.TemporaryDirectory() as directory:
        bundle = write_bundle(Path(directory), "[]")

        async def run() -> None:
            clock = ManualClock()
            model: dict[str, float] = {}
            # No sweep for idle sessions comes between the steps (at most 14 s of 30).
            hosts = HostSessions(bundle, max_sessions=3, idle_timeout=99, clock=clock)
            async with hosts as sessions:
                for name, advance in steps:
                    clock.advance(advance)
                    if name not in model and len(model) == 3:
                        del model[min((used, sid) for sid, used in model.items())[1]]
                    model[name] = clock()
                    await sessions.answer(CLAUDE_CODE, read(name))
                    assert sorted(sessions.session_ids()) == sorted(model)
                clock.advance(97)
                expired = await sessions.expire_idle()
                assert sorted(expired) == sorted(
                    sid for sid, used in model.items() if clock() - used >= 99
                )

        asyncio.run(run())
