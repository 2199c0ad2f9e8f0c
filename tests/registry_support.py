"""Helpers shared by the registry's tests (test_registration, test_emit, test_suspending,
test_timeouts, test_emit_and_collect); the ``registry`` fixture is in conftest.py."""

from __future__ import annotations

import asyncio
from typing import Any

from amplifier_hooks import HookResult
from amplifier_hooks.engine.deadline import _abandoned

EVENT = "tool:pre"


async def hang() -> None:
    """Wait forever: the handler that is only ever cut off by its timeout."""
    await asyncio.Event().wait()


async def abandoned_handlers_done() -> None:
    """Wait until every handler abandoned at its timeout has finished in the background."""
    while _abandoned:
        await asyncio.gather(*_abandoned, return_exceptions=True)


def recorder(calls: list[str], name: str, result: HookResult | None = None) -> Any:
    async def handler(event: str, data: dict[str, Any]) -> HookResult | None:
        calls.append(name)
        return result

    handler.__name__ = name
    return handler


async def sleeper(event: str, data: dict[str, Any]) -> HookResult:
    """Suspends, then "takes" ``data["takes"]`` seconds on the registry's ManualClock
    (``data["clock"]``), or hangs when there is no such clock: a deadline then ends it."""
    await asyncio.sleep(0)
    clock = data.get("clock")
    if clock is None:
        await hang()
    else:
        clock.advance(data["takes"])
    return HookResult(action="deny", reason="slept")
