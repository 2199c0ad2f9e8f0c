"""emit: run order, the data each handler sees, handler shapes, and nesting."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from registry_support import (
    EVENT,
    recorder,
)

from amplifier_hooks import HookRegistry, HookResult

# -- ordering ------------------------------------------------------------------------------


async def test_lower_priority_runs_first_and_ties_keep_registration_order() -> None:
    registry = HookRegistry()
    calls: list[str] = []
    for name, priority in [("b0", 0), ("c5", 5), ("a-5", -5), ("d0", 0), ("e5", 5)]:
        registry.register(EVENT, recorder(calls, name), priority)
    await registry.emit(EVENT, {})
    assert calls == ["a-5", "b0", "d0", "c5", "e5"]
    assert registry.list_handlers(EVENT)[EVENT] == calls


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=12))
def test_run_order_is_a_stable_sort_by_priority(priorities: list[int]) -> None:
    registry = HookRegistry()
    calls: list[str] = []
    for index, priority in enumerate(priorities):
        registry.register(EVENT, recorder(calls, f"h{index}"), priority)
    asyncio.run(registry.emit(EVENT, {}))
    expected = sorted(range(len(priorities)), key=lambda i: priorities[i])
    assert calls == [f"h{i}" for i in expected]


async def test_registering_during_an_emit_takes_effect_from_the_next_emit(
    registry: HookRegistry,
) -> None:
    calls: list[str] = []

    async def adder(event: str, data: dict[str, Any]) -> None:
        calls.append("adder")
        await asyncio.sleep(0)
        # Would run first (and after, and in between) if the running emit picked it up.
        registry.register(EVENT, recorder(calls, "new-first"), priority=-100)
        registry.register(EVENT, recorder(calls, "new-last"), priority=100)

    registry.register(EVENT, adder)
    registry.register(EVENT, recorder(calls, "b"), priority=1)
    await registry.emit(EVENT, {})
    assert calls == ["adder", "b"]
    calls.clear()
    await registry.emit(EVENT, {})
    assert calls == ["new-first", "adder", "b", "new-last"]


async def test_unregistering_during_an_emit_never_skips_or_repeats(
    registry: HookRegistry,
) -> None:
    calls: list[str] = []
    undo: dict[str, Any] = {}

    async def remover(event: str, data: dict[str, Any]) -> None:
        calls.append("remover")
        undo["remover"]()  # itself
        undo["b"]()  # a later handler: still runs in this emit (the snapshot)
        await asyncio.sleep(0)

    undo["a"] = registry.register(EVENT, recorder(calls, "a"), priority=-1)
    undo["remover"] = registry.register(EVENT, remover)
    undo["b"] = registry.register(EVENT, recorder(calls, "b"), priority=1)
    undo["c"] = registry.register(EVENT, recorder(calls, "c"), priority=2)
    await registry.emit(EVENT, {})
    assert calls == ["a", "remover", "b", "c"]
    calls.clear()
    await registry.emit(EVENT, {})
    assert calls == ["a", "c"]


# -- data flow -----------------------------------------------------------------------------


async def test_emit_with_no_handlers_returns_continue_with_the_data_unchanged() -> None:
    registry = HookRegistry()
    registry.set_default_fields(session_id="s1")
    data = {"tool_name": "bash"}
    resolution = await registry.emit(EVENT, data)
    assert resolution.action == "continue"
    assert resolution.data == {"tool_name": "bash"}  # no defaults, no timestamp
    assert resolution.trace == [] and resolution.injections == []
    assert (await registry.emit(EVENT)).data == {}


async def test_default_fields_are_merged_under_the_data_and_timestamp_is_stamped() -> None:
    registry = HookRegistry()
    registry.set_default_fields(session_id="s1", source="default", timestamp="forged")
    seen: list[dict[str, Any]] = []

    async def look(event: str, data: dict[str, Any]) -> None:
        seen.append(data)

    registry.register(EVENT, look)
    before = datetime.now(UTC)
    data = {"source": "explicit", "timestamp": "also forged"}
    resolution = await registry.emit(EVENT, data)
    assert data == {"source": "explicit", "timestamp": "also forged"}  # caller's dict untouched
    got = seen[0]
    assert got["session_id"] == "s1"
    assert got["source"] == "explicit"
    stamp = datetime.fromisoformat(got["timestamp"])
    assert stamp.utcoffset() == timedelta(0)
    assert before - timedelta(seconds=1) <= stamp <= datetime.now(UTC) + timedelta(seconds=1)
    assert resolution.data == got


async def test_each_emit_gets_its_own_timestamp() -> None:
    registry = HookRegistry()
    registry.register(EVENT, recorder([], "a"))
    first = (await registry.emit(EVENT, {})).data
    await asyncio.sleep(0.002)
    second = (await registry.emit(EVENT, {})).data
    assert first is not None and second is not None
    assert datetime.fromisoformat(second["timestamp"]) > datetime.fromisoformat(first["timestamp"])


async def test_handlers_never_see_each_others_in_place_edits(registry: HookRegistry) -> None:
    seen: list[dict[str, Any]] = []

    async def vandal(event: str, data: dict[str, Any]) -> None:
        data["tool_name"] = "rm"
        data["added"] = True
        del data["n"]
        await asyncio.sleep(0)
        data["late"] = True  # after suspending, too

    def sync_vandal(event: str, data: dict[str, Any]) -> None:
        data.clear()

    async def look(event: str, data: dict[str, Any]) -> None:
        seen.append(dict(data))

    registry.register(EVENT, vandal)
    registry.register(EVENT, sync_vandal)
    registry.register(EVENT, look)
    caller = {"tool_name": "bash", "n": 1}
    resolution = await registry.emit(EVENT, caller)
    assert caller == {"tool_name": "bash", "n": 1}
    assert {k: v for k, v in seen[0].items() if k != "timestamp"} == caller
    assert resolution.data is not None
    assert {k: v for k, v in resolution.data.items() if k != "timestamp"} == caller


async def test_modify_replaces_the_data_for_later_handlers(registry: HookRegistry) -> None:
    seen: list[dict[str, Any]] = []

    async def rewrite(event: str, data: dict[str, Any]) -> HookResult:
        await asyncio.sleep(0)
        return HookResult(action="modify", data={**data, "command": "ls -la"})

    async def narrow(event: str, data: dict[str, Any]) -> HookResult:
        seen.append(data)
        return HookResult(action="modify", data={"command": data["command"]})

    async def look(event: str, data: dict[str, Any]) -> None:
        seen.append(data)

    registry.register(EVENT, rewrite)
    registry.register(EVENT, narrow)
    registry.register(EVENT, look)
    resolution = await registry.emit(EVENT, {"command": "ls"})
    assert seen[0]["command"] == "ls -la"
    assert seen[1] == {"command": "ls -la"}
    assert resolution.action == "modify"
    assert resolution.data == {"command": "ls -la"}


async def test_deny_stops_later_handlers(registry: HookRegistry) -> None:
    calls: list[str] = []
    registry.register(EVENT, recorder(calls, "a"))
    registry.register(EVENT, recorder(calls, "guard", HookResult(action="deny", reason="no")))
    registry.register(EVENT, recorder(calls, "never"))
    resolution = await registry.emit(EVENT, {})
    assert calls == ["a", "guard"]
    assert (resolution.action, resolution.reason, resolution.denied_by) == ("deny", "no", "guard")


# -- handler shapes ------------------------------------------------------------------------


async def test_a_returned_dict_is_validated_into_a_result() -> None:
    registry = HookRegistry()
    registry.register(EVENT, lambda e, d: {"action": "modify", "data": {"x": 1}})
    resolution = await registry.emit(EVENT, {})
    assert resolution.action == "modify"
    assert resolution.data == {"x": 1}


async def test_an_object_with_model_dump_is_validated_into_a_result() -> None:
    class Foreign:
        def model_dump(self) -> dict[str, Any]:
            return {"action": "deny", "reason": "foreign"}

    registry = HookRegistry()
    registry.register(EVENT, lambda e, d: Foreign())
    resolution = await registry.emit(EVENT, {})
    assert (resolution.action, resolution.reason) == ("deny", "foreign")


async def test_sync_handlers_are_called_like_async_ones() -> None:
    registry = HookRegistry()
    calls: list[tuple[str, dict[str, Any]]] = []

    def plain(event: str, data: dict[str, Any]) -> HookResult:
        calls.append((event, data))
        return HookResult(action="inject_context", context_injection="hello")

    registry.register(EVENT, plain)
    resolution = await registry.emit(EVENT, {"k": 1})
    assert calls[0][0] == EVENT and calls[0][1]["k"] == 1
    assert resolution.injections[0].text == "hello"
    assert resolution.injections[0].source == "plain"


async def test_a_sync_function_returning_a_coroutine_is_awaited(registry: HookRegistry) -> None:
    async def real(event: str, data: dict[str, Any]) -> HookResult:
        await asyncio.sleep(0)
        return HookResult(action="deny", reason="via lambda")

    registry.register(EVENT, lambda e, d: real(e, d), name="wrapper")
    resolution = await registry.emit(EVENT, {})
    assert (resolution.action, resolution.denied_by) == ("deny", "wrapper")


class Deferred:
    """An awaitable that is not a coroutine: a generator-based __await__ that suspends."""

    def __init__(self, result: HookResult, suspensions: int) -> None:
        self.result = result
        self.suspensions = suspensions

    def __await__(self) -> Any:
        for _ in range(self.suspensions):
            yield from asyncio.sleep(0).__await__()
        return self.result


@pytest.mark.parametrize("suspensions", [0, 1, 3])
async def test_a_handler_may_return_any_awaitable(registry: HookRegistry, suspensions: int) -> None:
    registry.register(
        EVENT, lambda e, d: Deferred(HookResult(action="deny", reason="deferred"), suspensions)
    )
    resolution = await registry.emit(EVENT, {})
    assert (resolution.action, resolution.reason) == ("deny", "deferred")


async def test_a_handler_may_return_a_future(registry: HookRegistry) -> None:
    loop = asyncio.get_running_loop()

    def later(event: str, data: dict[str, Any]) -> asyncio.Future[HookResult]:
        future: asyncio.Future[HookResult] = loop.create_future()
        loop.call_later(0.01, future.set_result, HookResult(action="deny", reason="future"))
        return future

    def ready(event: str, data: dict[str, Any]) -> asyncio.Future[None]:
        future: asyncio.Future[None] = loop.create_future()
        future.set_result(None)
        return future

    registry.register(EVENT, ready)
    registry.register(EVENT, later)
    resolution = await registry.emit(EVENT, {})
    assert (resolution.action, resolution.reason) == ("deny", "future")
    assert [t.failure for t in resolution.trace] == [None, None]


# -- nesting -------------------------------------------------------------------------------


@pytest.mark.parametrize("suspend", [False, True])
async def test_nested_emits_are_allowed_up_to_max_depth(
    registry: HookRegistry, suspend: bool, logs: list[dict[str, Any]]
) -> None:
    registry.max_depth = 3
    depths: list[int] = []

    async def recurse(event: str, data: dict[str, Any]) -> HookResult:
        depth = data["depth"]
        depths.append(depth)
        if suspend:
            await asyncio.sleep(0)
        inner = await registry.emit(EVENT, {"depth": depth + 1})
        if suspend:
            await asyncio.sleep(0)
        return HookResult(action="modify", data={"depth": depth, "inner": inner.data})

    registry.register(EVENT, recurse)
    resolution = await registry.emit(EVENT, {"depth": 1})
    assert depths == [1, 2, 3]
    assert resolution.trace[0].failure is None, resolution.trace[0].error
    assert resolution.data is not None
    # Level 4 was refused: it returned the caller's data untouched (no timestamp).
    assert resolution.data["inner"]["inner"]["inner"] == {"depth": 4}
    warning = [r for r in logs if "nested too deeply" in r["event"]]
    assert len(warning) == 1
    assert (warning[0]["depth"], warning[0]["max_depth"], warning[0]["log_level"]) == (
        3,
        3,
        "warning",
    )
    # Depth is counted per call chain: a fresh top-level emit starts from zero again.
    depths.clear()
    await registry.emit(EVENT, {"depth": 1})
    assert depths == [1, 2, 3]


async def test_nesting_is_counted_across_events() -> None:
    registry = HookRegistry(max_depth=2)
    calls: list[str] = []

    async def a(event: str, data: dict[str, Any]) -> None:
        calls.append("a")
        await registry.emit("tool:post", {})

    async def b(event: str, data: dict[str, Any]) -> None:
        calls.append("b")
        await registry.emit(EVENT, {})

    registry.register(EVENT, a)
    registry.register("tool:post", b)
    await registry.emit(EVENT, {})
    assert calls == ["a", "b"]


async def test_concurrent_emits_do_not_share_depth() -> None:
    registry = HookRegistry(max_depth=1)
    calls: list[int] = []

    all_in = asyncio.Event()
    waiting = 0

    async def slow(event: str, data: dict[str, Any]) -> None:
        nonlocal waiting
        waiting += 1
        if waiting == 5:
            all_in.set()
        await all_in.wait()  # all five emits are inside a handler at once
        calls.append(data["n"])

    registry.register(EVENT, slow)
    await asyncio.gather(*(registry.emit(EVENT, {"n": n}) for n in range(5)))
    assert sorted(calls) == [0, 1, 2, 3, 4]
