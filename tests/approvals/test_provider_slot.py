"""A provider the gate no longer uses is closed, never under a question it is answering,
and never left open: the gate's `aclose` closes whatever is still open."""

from __future__ import annotations

import asyncio
from typing import Any

from amplifier_hooks.approvals import ApprovalGate, ApprovalRequest

from .conftest import TOOL_DATA, ask


class HeldProvider:
    """Answers when told to; records whether (and how often) it was closed."""

    def __init__(self, answer: str = "Allow", *, fail_close: bool = False) -> None:
        self.answer = answer
        self.asked = asyncio.Event()
        self.release = asyncio.Event()
        self.closed = 0
        self.fail_close = fail_close

    async def request_approval(self, request: ApprovalRequest) -> str:
        self.asked.set()
        await self.release.wait()
        return self.answer

    async def aclose(self) -> None:
        self.closed += 1
        if self.fail_close:
            raise OSError("cannot close")


async def test_a_replaced_provider_closes_after_its_question_not_before() -> None:
    old, new = HeldProvider("Allow"), HeldProvider()
    gate = ApprovalGate(old)
    deciding = asyncio.ensure_future(gate.decide(ask(), "tool:pre", TOOL_DATA))
    await old.asked.wait()
    gate.provider = new
    assert gate.provider is new
    waiting = asyncio.ensure_future(gate.wait_retired())
    await asyncio.sleep(0)
    assert old.closed == 0 and not waiting.done()  # still answering: stays open
    old.release.set()
    decision = await deciding
    assert (decision.allowed, decision.choice) == (True, "Allow")  # the old one's answer
    await waiting
    assert (old.closed, new.closed) == (1, 0)
    await gate.aclose()
    assert (old.closed, new.closed) == (1, 1)  # each closed once


async def test_an_idle_replaced_provider_is_closed_at_once() -> None:
    old = HeldProvider()
    gate = ApprovalGate(old)
    gate.provider = None
    await gate.wait_retired()
    assert old.closed == 1
    await gate.aclose()
    assert old.closed == 1


async def test_a_provider_installed_again_before_it_closed_stays_open() -> None:
    first, second = HeldProvider(), HeldProvider()
    gate = ApprovalGate(first)
    deciding = asyncio.ensure_future(gate.decide(ask(), "tool:pre", TOOL_DATA))
    await first.asked.wait()
    gate.provider = second
    gate.provider = first  # back before its question ended
    first.release.set()
    await deciding
    await gate.wait_retired()
    assert (first.closed, second.closed) == (0, 1)
    await gate.aclose()
    assert first.closed == 1


def test_a_provider_replaced_outside_a_loop_is_closed_by_aclose() -> None:
    old, new = HeldProvider(), HeldProvider()
    gate = ApprovalGate(old)
    gate.provider = new  # no running loop: nothing can close it now
    assert old.closed == 0
    asyncio.run(gate.aclose())
    assert (old.closed, new.closed) == (1, 1)


async def test_aclose_closes_a_provider_whose_question_never_ends(
    logs: list[dict[str, Any]],
) -> None:
    stuck = HeldProvider(fail_close=True)
    gate = ApprovalGate(stuck)
    deciding = asyncio.ensure_future(gate.decide(ask(), "tool:pre", TOOL_DATA))
    await stuck.asked.wait()
    gate.provider = None
    await gate.aclose()  # the provider's failure to close is logged, the store closes
    assert stuck.closed == 1
    assert any(r["event"] == "approval provider failed to close" for r in logs)
    deciding.cancel()
    await asyncio.gather(deciding, return_exceptions=True)
