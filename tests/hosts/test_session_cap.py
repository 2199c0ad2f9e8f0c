"""A cap on a server's sessions (issue 26, finding 6): at the cap the session idle longest
is closed for a new one; when every session has a call in progress, the new session is
refused with a reason the agent reads, and the others carry on."""

from __future__ import annotations

import asyncio
from pathlib import Path

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
