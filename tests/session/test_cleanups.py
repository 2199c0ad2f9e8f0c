"""The coordinator's cleanups: newest first, every one runs, interrupts wait for the rest."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from amplifier_hooks.session.coordinator import Coordinator


async def test_cleanups_run_in_reverse_and_all_run_despite_failures(
    logs: list[dict[str, Any]],
) -> None:
    coordinator = Coordinator()
    ran: list[str] = []

    async def async_cleanup() -> None:
        ran.append("async")

    def failing() -> None:
        ran.append("failing")
        raise RuntimeError("cleanup broke")

    coordinator.register_cleanup(lambda: ran.append("first"))
    coordinator.register_cleanup(failing)
    coordinator.register_cleanup(async_cleanup)
    await coordinator.cleanup()
    assert ran == ["async", "failing", "first"]
    assert any(r["event"] == "cleanup failed" and "cleanup broke" in r["error"] for r in logs)
    await coordinator.cleanup()  # nothing left: runs nothing twice
    assert ran == ["async", "failing", "first"]


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt, SystemExit, asyncio.CancelledError])
async def test_interrupts_in_cleanup_are_reraised_after_all_ran(
    interrupt: type[BaseException],
) -> None:
    coordinator = Coordinator()
    ran: list[str] = []

    def interrupted() -> None:
        ran.append("interrupted")
        raise interrupt()

    coordinator.register_cleanup(lambda: ran.append("first"))
    coordinator.register_cleanup(interrupted)
    coordinator.register_cleanup(lambda: ran.append("last"))
    with pytest.raises(interrupt):
        await coordinator.cleanup()
    assert ran == ["last", "interrupted", "first"]
