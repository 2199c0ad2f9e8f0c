"""Helpers for the host tests: recorded payloads, and running one call through a real
coordinator with the handlers a test gives."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from amplifier_hooks import Coordinator, HookResult
from amplifier_hooks.hosts import HostAdapter, HostAnswer
from amplifier_hooks.hosts.sessions import HostDelivers

FIXTURES = Path(__file__).parent / "fixtures"
ROOT = Path(__file__).resolve().parents[2]

Handler = Callable[[str, dict[str, Any]], Any]


def fixture(host: str, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / host / f"{name}.json").read_text())
    return data


def fixture_names(host: str) -> list[str]:
    return sorted(p.stem for p in (FIXTURES / host).glob("*.json"))


async def answer_with(
    adapter: HostAdapter, payload: object, *handlers: Handler, **coordinator: Any
) -> HostAnswer:
    """Parse ``payload``, dispatch it to ``handlers`` on a fresh coordinator, answer."""
    call = adapter.parse(payload)
    hub = Coordinator(context_sink=HostDelivers(), **coordinator)
    for index, handler in enumerate(handlers):
        hub.hooks.register(call.event, handler, name=f"h{index}")
    outcome = await hub.dispatch(call.event, call.data)
    return adapter.answer(call, outcome)


def returning(result: HookResult) -> Handler:
    async def handler(event: str, data: dict[str, Any]) -> HookResult:
        return result

    return handler


def modifying(change: Callable[[dict[str, Any]], None]) -> Handler:
    """A handler that returns modify with ``change`` applied to a copy of the data."""

    async def handler(event: str, data: dict[str, Any]) -> HookResult:
        new = json.loads(json.dumps(data, default=str))
        change(new)
        return HookResult(action="modify", data=new)

    return handler
