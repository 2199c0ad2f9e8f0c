"""HookRegistry: registration, ordering, data flow, timeouts, nesting, rate limits and the
hand-driven continuation of handlers that suspend."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import math
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import structlog
from hypothesis import given, settings
from hypothesis import strategies as st

from amplifier_hooks import HookRegistry, HookResult, events
from amplifier_hooks.calling import _abandoned
from amplifier_hooks.registry import DEFAULT_TIMEOUT
from conftest import ManualClock

EVENT = "tool:pre"

# Both ways a suspending handler is continued: in a task of its own under a timeout, and
# in the emitting task when there is no timeout.
TIMEOUT_MODES = [pytest.param(30.0, id="with-timeout"), pytest.param(None, id="no-timeout")]


@pytest.fixture(params=TIMEOUT_MODES)
def registry(request: pytest.FixtureRequest) -> HookRegistry:
    return HookRegistry(default_timeout=request.param)


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


# -- registration --------------------------------------------------------------------------


async def test_register_returns_an_idempotent_unregister() -> None:
    registry = HookRegistry()
    calls: list[str] = []
    handler = recorder(calls, "a")
    first = registry.register(EVENT, handler)
    registry.register(EVENT, handler)  # the same function twice: two registrations
    first()
    first()  # a second call does nothing, and does not remove the other registration
    assert registry.list_handlers(EVENT) == {EVENT: ["a"]}
    await registry.emit(EVENT, {})
    assert calls == ["a"]


def test_unregistering_the_last_handler_forgets_the_event() -> None:
    registry = HookRegistry()
    undo = registry.register(EVENT, recorder([], "a"))
    assert registry.events() == [EVENT]
    undo()
    assert registry.events() == []
    assert registry.list_handlers() == {}


def test_on_is_an_alias_of_register() -> None:
    registry = HookRegistry()
    undo = registry.on(EVENT, recorder([], "a"), 5, "named")
    assert registry.list_handlers() == {EVENT: ["named"]}
    undo()
    assert registry.list_handlers() == {}


@pytest.mark.parametrize("handler", [None, 42, "tool:pre", object()])
def test_a_non_callable_handler_is_rejected_at_registration(handler: Any) -> None:
    with pytest.raises(TypeError, match="callable"):
        HookRegistry().register(EVENT, handler)


@pytest.mark.parametrize(
    "name", ["tool", "tool_pre", "Tool:Pre", "tool:", ":pre", "tool::pre", "tool pre:x", ""]
)
def test_invalid_event_names_are_rejected(name: str) -> None:
    with pytest.raises(ValueError, match="event name"):
        HookRegistry().register(name, recorder([], "a"))


def test_a_non_string_event_name_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="string"):
        HookRegistry().register(123, recorder([], "a"))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "name", ["tool:pre", "todo:item_completed", "a:b:c", "my-app.v2:event.x", "x1:y2"]
)
def test_valid_event_names_are_accepted(name: str) -> None:
    assert events.is_valid_event_name(name)
    HookRegistry().register(name, recorder([], "a"))


def test_standard_event_names_are_valid_and_complete() -> None:
    required = {
        "session:start",
        "session:end",
        "execution:start",
        "execution:complete",
        "tool:pre",
        "tool:post",
        "tool:error",
        "provider:request",
        "provider:response",
        "prompt:submit",
        "approval:required",
        "approval:granted",
        "approval:denied",
    }
    assert required <= set(events.STANDARD_EVENTS)
    assert all(events.is_valid_event_name(name) for name in events.STANDARD_EVENTS)
    assert not events.is_valid_event_name(None)
    assert not events.is_valid_event_name("tool:pre\n")


@pytest.mark.parametrize("priority", [True, 1.5, "1", None])
def test_priority_must_be_an_int(priority: Any) -> None:
    with pytest.raises(TypeError, match="priority"):
        HookRegistry().register(EVENT, recorder([], "a"), priority)


@pytest.mark.parametrize("timeout", [-1, -0.5, math.nan, -math.inf])
def test_bad_timeouts_are_rejected(timeout: float) -> None:
    with pytest.raises(ValueError, match="timeout"):
        HookRegistry().register(EVENT, recorder([], "a"), timeout=timeout)
    with pytest.raises(ValueError, match="timeout"):
        HookRegistry(default_timeout=timeout)
    with pytest.raises(ValueError, match="timeout"):
        HookRegistry(event_timeouts={EVENT: timeout})


@pytest.mark.parametrize("limit", [(0, 1.0), (1, 0), (1, -1.0), (1.5, 1.0), (2, math.nan)])
def test_bad_rate_limits_are_rejected(limit: tuple[Any, Any]) -> None:
    with pytest.raises(ValueError, match="rate_limit"):
        HookRegistry().register(EVENT, recorder([], "a"), rate_limit=limit)


def test_bad_registry_settings_are_rejected() -> None:
    with pytest.raises(ValueError, match="max_depth"):
        HookRegistry(max_depth=0)
    with pytest.raises(ValueError, match="max_concurrency"):
        HookRegistry(max_concurrency=0)
    with pytest.raises(ValueError, match="event name"):
        HookRegistry(event_timeouts={"bad": 1.0})


def test_names_default_to_the_function_name() -> None:
    registry = HookRegistry()

    async def guard(event: str, data: dict[str, Any]) -> None:
        return None

    class Callable_:
        def __call__(self, event: str, data: dict[str, Any]) -> None:
            return None

    registry.register(EVENT, guard)
    registry.register(EVENT, guard, name="explicit")
    registry.register(EVENT, functools.partial(guard))
    registry.register(EVENT, Callable_())
    assert registry.list_handlers(EVENT) == {EVENT: ["guard", "explicit", "partial", "Callable_"]}


def test_list_handlers_by_event_and_all() -> None:
    registry = HookRegistry()
    registry.register("tool:post", recorder([], "p"))
    registry.register(EVENT, recorder([], "late"), priority=10)
    registry.register(EVENT, recorder([], "early"), priority=-10)
    assert registry.list_handlers() == {"tool:post": ["p"], EVENT: ["early", "late"]}
    assert registry.list_handlers(EVENT) == {EVENT: ["early", "late"]}
    assert registry.list_handlers("session:start") == {"session:start": []}


def test_handler_info_shows_resolved_settings() -> None:
    registry = HookRegistry(default_timeout=5, event_timeouts={"tool:post": 2})
    registry.register(EVENT, recorder([], "a"), owner="mod", fail_closed=True)
    registry.register("tool:post", recorder([], "b"), rate_limit=(3, 1))
    registry.register("tool:post", recorder([], "c"), timeout=math.inf)
    info = {i.name: i for i in registry.handler_info()}
    assert (info["a"].timeout, info["a"].fail_closed, info["a"].owner) == (5.0, True, "mod")
    assert (info["b"].timeout, info["b"].rate_limit) == (2.0, (3, 1.0))
    assert info["c"].timeout is None
    assert "name='a'" in repr(info["a"])
    assert registry.timeout_for(EVENT) == 5.0
    assert registry.timeout_for("tool:post") == 2.0
    assert HookRegistry().timeout_for(EVENT) == DEFAULT_TIMEOUT


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


# -- handlers that suspend: the hand-driven continuation -----------------------------------


async def test_a_handler_awaiting_many_things_sees_every_result(registry: HookRegistry) -> None:
    loop = asyncio.get_running_loop()
    lock = asyncio.Lock()
    ready = asyncio.Event()
    loop.call_later(0.01, ready.set)

    async def helper(value: int) -> int:
        await asyncio.sleep(0)
        return value * 2

    async def busy(event: str, data: dict[str, Any]) -> HookResult:
        got: list[Any] = []
        for i in range(3):
            await asyncio.sleep(0)
            got.append(i)
        future: asyncio.Future[str] = loop.create_future()
        loop.call_soon(future.set_result, "from future")
        got.append(await future)
        got.append(await helper(21))
        got.append(await asyncio.create_task(helper(5)))
        async with lock:
            await asyncio.sleep(0.001)
        await ready.wait()
        got.append(await asyncio.gather(helper(1), helper(2)))
        return HookResult(action="modify", data={"got": got})

    registry.register(EVENT, busy)
    resolution = await registry.emit(EVENT, {})
    assert resolution.trace[0].failure is None
    assert resolution.data == {"got": [0, 1, 2, "from future", 42, 10, [2, 4]]}


async def test_an_exception_set_on_an_awaited_future_surfaces_in_the_handler(
    registry: HookRegistry,
) -> None:
    loop = asyncio.get_running_loop()
    caught: list[BaseException] = []

    async def careful(event: str, data: dict[str, Any]) -> HookResult:
        future: asyncio.Future[None] = loop.create_future()
        loop.call_soon(future.set_exception, KeyError("lost"))
        try:
            await future
        except KeyError as exc:
            caught.append(exc)
        await asyncio.sleep(0)  # and it keeps going after catching
        second: asyncio.Future[int] = loop.create_future()
        loop.call_soon(second.set_result, 7)
        return HookResult(action="modify", data={"value": await second})

    registry.register(EVENT, careful)
    resolution = await registry.emit(EVENT, {})
    assert isinstance(caught[0], KeyError)
    assert resolution.data == {"value": 7}
    assert resolution.trace[0].failure is None


async def test_an_uncaught_exception_from_an_await_fails_the_handler(
    registry: HookRegistry, logs: list[dict[str, Any]]
) -> None:
    loop = asyncio.get_running_loop()

    async def careless(event: str, data: dict[str, Any]) -> HookResult:
        await asyncio.sleep(0)
        future: asyncio.Future[None] = loop.create_future()
        loop.call_soon(future.set_exception, ConnectionError("socket closed"))
        await future
        return HookResult(action="deny")

    registry.register(EVENT, careless)
    registry.register(EVENT, recorder([], "after"))
    resolution = await registry.emit(EVENT, {})
    assert resolution.action == "continue"
    assert [(t.handler, t.failure) for t in resolution.trace] == [
        ("careless", "raised"),
        ("after", None),
    ]
    assert resolution.trace[0].error == "ConnectionError: socket closed"
    assert any(r["handler"] == "careless" and r["failure"] == "raised" for r in logs)


async def test_a_handler_may_await_a_cancelled_inner_task_and_recover(
    registry: HookRegistry,
) -> None:
    async def inner() -> None:
        await asyncio.sleep(10)

    async def resilient(event: str, data: dict[str, Any]) -> HookResult:
        task = asyncio.create_task(inner())
        await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):  # the inner task's, not ours
            await task
        return HookResult(action="deny", reason="recovered")

    registry.register(EVENT, resilient)
    resolution = await registry.emit(EVENT, {})
    assert (resolution.action, resolution.reason) == ("deny", "recovered")


VAR: contextvars.ContextVar[str] = contextvars.ContextVar("test_var", default="outer")


async def test_context_variables_survive_a_suspension(registry: HookRegistry) -> None:
    # A handler that sets a variable, suspends, then resets it with its token must run
    # every step in one context (structlog.contextvars.bound_contextvars does exactly this).
    async def scoped(event: str, data: dict[str, Any]) -> HookResult:
        token = VAR.set("inner")
        with structlog.contextvars.bound_contextvars(request="r1"):
            await asyncio.sleep(0.001)
            seen = VAR.get()
        VAR.reset(token)
        return HookResult(action="modify", data={"seen": seen, "after": VAR.get()})

    registry.register(EVENT, scoped)
    resolution = await registry.emit(EVENT, {})
    assert resolution.trace[0].failure is None, resolution.trace[0].error
    assert resolution.data == {"seen": "inner", "after": "outer"}
    assert VAR.get() == "outer"


async def test_a_handler_runs_in_the_emitting_task_throughout(registry: HookRegistry) -> None:
    # As under a plain await: the same task before and after every suspension.
    tasks: list[asyncio.Task[Any] | None] = []

    async def where(event: str, data: dict[str, Any]) -> None:
        tasks.append(asyncio.current_task())
        await asyncio.sleep(0)
        tasks.append(asyncio.current_task())
        await asyncio.sleep(0.001)
        tasks.append(asyncio.current_task())

    registry.register(EVENT, where)
    registry.register(EVENT, lambda e, d: tasks.append(asyncio.current_task()))
    await registry.emit(EVENT, {})
    assert tasks == [asyncio.current_task()] * 4


async def test_a_handler_may_use_its_own_asyncio_timeout(registry: HookRegistry) -> None:
    # asyncio.timeout cancels the task it was entered in; that must be the task the
    # handler runs in, or the emit itself gets cancelled.
    async def bounded(event: str, data: dict[str, Any]) -> HookResult:
        try:
            async with asyncio.timeout(0.01):
                await asyncio.sleep(5)
        except TimeoutError:
            return HookResult(action="deny", reason="own timeout hit")
        return HookResult()

    registry.register(EVENT, bounded)
    resolution = await registry.emit(EVENT, {})
    assert (resolution.action, resolution.reason) == ("deny", "own timeout hit")
    assert resolution.trace[0].failure is None


async def test_a_handler_may_use_a_task_group(registry: HookRegistry) -> None:
    # The task group cancels its parent task -- the emitting task -- when a child fails.
    # (The child fails while the body still awaits: on Python < 3.13 a child failing after
    # the body has finished leaves the parent's cancel count raised, a CPython bug that
    # makes any later check of Task.cancelling() see a cancellation.)
    async def fails() -> None:
        await asyncio.sleep(0)
        raise LookupError("child failed")

    async def grouped(event: str, data: dict[str, Any]) -> HookResult:
        try:
            async with asyncio.TaskGroup() as group:
                group.create_task(fails())
                await asyncio.sleep(5)
        except ExceptionGroup as errors:
            return HookResult(action="deny", reason=str(errors.exceptions[0]))
        return HookResult()

    registry.register(EVENT, grouped)
    resolution = await registry.emit(EVENT, {})
    assert (resolution.action, resolution.reason) == ("deny", "child failed")


async def test_handlers_see_the_callers_context() -> None:
    registry = HookRegistry()
    token = VAR.set("caller")
    try:
        registry.register(EVENT, lambda e, d: HookResult(action="modify", data={"v": VAR.get()}))
        resolution = await registry.emit(EVENT, {})
    finally:
        VAR.reset(token)
    assert resolution.data == {"v": "caller"}


# -- timeouts ------------------------------------------------------------------------------


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


async def test_a_handler_timeout_fails_that_handler_only(logs: list[dict[str, Any]]) -> None:
    registry = HookRegistry()
    registry.register(EVENT, sleeper, timeout=0.02)
    registry.register(EVENT, recorder([], "next"))
    resolution = await registry.emit(EVENT, {})
    assert resolution.action == "continue"
    assert [(t.handler, t.failure) for t in resolution.trace] == [
        ("sleeper", "timeout"),
        ("next", None),
    ]
    record = next(r for r in logs if r.get("failure") == "timeout")
    assert record["handler"] == "sleeper" and record["hook_event"] == EVENT


async def test_event_default_then_registry_default_then_handler_timeout(
    clock: ManualClock,
) -> None:
    registry = HookRegistry(default_timeout=0.125, event_timeouts={"tool:post": 5.0}, clock=clock)
    registry.register(EVENT, sleeper, name="registry-default")
    registry.register("tool:post", sleeper, name="event-default")
    registry.register("tool:error", sleeper, name="own", timeout=5.0)
    takes = {"clock": clock, "takes": 0.25}
    assert (await registry.emit(EVENT, takes)).trace[0].failure == "timeout"
    assert (await registry.emit("tool:post", takes)).action == "deny"
    assert (await registry.emit("tool:error", takes)).action == "deny"


@pytest.mark.parametrize("none", [0, math.inf])
async def test_zero_or_infinity_means_no_timeout(none: float, clock: ManualClock) -> None:
    takes = {"clock": clock, "takes": 3600.0}
    registry = HookRegistry(default_timeout=0.125, clock=clock)
    registry.register(EVENT, sleeper, timeout=none)
    assert (await registry.emit(EVENT, takes)).action == "deny"
    unlimited = HookRegistry(default_timeout=none, event_timeouts={"tool:post": none}, clock=clock)
    unlimited.register(EVENT, sleeper)
    unlimited.register("tool:post", sleeper)
    assert unlimited.timeout_for(EVENT) is None
    assert (await unlimited.emit(EVENT, takes)).action == "deny"
    assert (await unlimited.emit("tool:post", takes)).action == "deny"


async def test_a_handler_that_swallows_cancellation_is_abandoned_at_its_timeout(
    logs: list[dict[str, Any]],
) -> None:
    registry = HookRegistry()
    release = asyncio.Event()
    finished = asyncio.Event()

    async def stubborn(event: str, data: dict[str, Any]) -> HookResult:
        try:
            await hang()
        except asyncio.CancelledError:
            await release.wait()  # ignores the cancellation and keeps going
        finished.set()
        return HookResult(action="deny", reason="too late")

    registry.register(EVENT, stubborn, timeout=0.05)
    resolution = await registry.emit(EVENT, {})  # returns while the handler still waits
    assert resolution.action == "continue"
    assert resolution.trace[0].failure == "timeout"
    assert not finished.is_set()
    release.set()
    await abandoned_handlers_done()
    assert finished.is_set()
    late = [r for r in logs if "after its timeout" in r["event"]]
    assert late and late[0]["handler"] == "stubborn"


async def test_a_busy_handler_that_never_waits_on_a_future_still_times_out() -> None:
    registry = HookRegistry()

    async def spinner(event: str, data: dict[str, Any]) -> None:
        for _ in range(10**9):
            await asyncio.sleep(0)  # yields to the loop, but never on a future

    registry.register(EVENT, spinner, timeout=0.03)
    resolution = await registry.emit(EVENT, {})
    assert resolution.trace[0].failure == "timeout"


async def test_a_bad_yield_fails_the_handler_not_the_emit(registry: HookRegistry) -> None:
    class Weird:
        def __await__(self) -> Any:
            yield "not a future"  # the task answers with RuntimeError("... bad yield ...")

    async def odd(event: str, data: dict[str, Any]) -> None:
        await asyncio.sleep(0)
        await Weird()

    registry.register(EVENT, odd)
    resolution = await registry.emit(EVENT, {})
    assert resolution.trace[0].failure == "raised"
    assert "bad yield" in (resolution.trace[0].error or "")


async def test_a_future_cancelled_by_someone_else_is_the_handlers_failure(
    registry: HookRegistry,
) -> None:
    loop = asyncio.get_running_loop()

    async def waiting(event: str, data: dict[str, Any]) -> None:
        future: asyncio.Future[None] = loop.create_future()
        loop.call_later(0.01, future.cancel)
        await future

    registry.register(EVENT, waiting)
    registry.register(EVENT, recorder([], "after"))
    resolution = await registry.emit(EVENT, {})  # no CancelledError out of emit
    assert [(t.handler, t.failure) for t in resolution.trace] == [
        ("waiting", "cancelled"),
        ("after", None),
    ]


async def test_a_timed_out_handler_that_cleans_up_finishes_in_the_background(
    logs: list[dict[str, Any]],
) -> None:
    registry = HookRegistry()
    release = asyncio.Event()
    cleaned = asyncio.Event()

    async def tidy(event: str, data: dict[str, Any]) -> None:
        try:
            await hang()
        finally:
            await release.wait()  # async cleanup after the cancellation
            cleaned.set()

    registry.register(EVENT, tidy, timeout=0.02)
    resolution = await registry.emit(EVENT, {})
    assert resolution.trace[0].failure == "timeout"
    assert not cleaned.is_set()  # the emit did not wait for the cleanup
    release.set()
    await abandoned_handlers_done()
    assert cleaned.is_set()
    late = [r for r in logs if "after its timeout" in r["event"]]
    assert (late[0]["handler"], late[0]["ending"]) == ("tidy", "cancelled")


async def test_a_handler_that_obeys_its_timeout_leaves_nothing_behind() -> None:
    registry = HookRegistry()
    registry.register(EVENT, sleeper, timeout=0.01)
    for _ in range(3):
        assert (await registry.emit(EVENT, {})).trace[0].failure == "timeout"
    assert not _abandoned


async def test_the_callers_own_timeout_around_emit_still_works(registry: HookRegistry) -> None:
    registry.register(EVENT, sleeper)
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.02):
            await registry.emit(EVENT, {})
    task = asyncio.current_task()
    assert task is not None and task.cancelling() == 0


async def test_a_nested_resolution_may_be_returned_as_a_result(registry: HookRegistry) -> None:
    registry.register("tool:post", lambda e, d: HookResult(action="deny", reason="inner"))

    async def delegate(event: str, data: dict[str, Any]) -> HookResult:
        return await registry.emit("tool:post", data)

    registry.register(EVENT, delegate)
    resolution = await registry.emit(EVENT, {})
    assert (resolution.action, resolution.reason, resolution.denied_by) == (
        "deny",
        "inner",
        "delegate",
    )


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


# -- rate limits ---------------------------------------------------------------------------


async def test_rate_limit_delays_calls_beyond_the_limit() -> None:
    registry = HookRegistry()
    calls: list[float] = []

    async def limited(event: str, data: dict[str, Any]) -> None:
        calls.append(time.monotonic())

    registry.register(EVENT, limited, rate_limit=(2, 0.2))
    for _ in range(3):
        resolution = await registry.emit(EVENT, {})
        assert resolution.trace[0].failure is None
    assert len(calls) == 3
    assert calls[2] - calls[0] >= 0.15  # the third call waited for the window to pass


async def test_the_rate_limit_wait_counts_against_the_timeout(clock: ManualClock) -> None:
    registry = HookRegistry(clock=clock)  # only the wait for the window can make it late
    calls: list[int] = []

    def limited(event: str, data: dict[str, Any]) -> None:
        calls.append(1)

    registry.register(EVENT, limited, rate_limit=(1, 3600.0), timeout=0.05)
    assert (await registry.emit(EVENT, {})).trace[0].failure is None
    second = await registry.emit(EVENT, {})  # would wait an hour for the window
    assert second.trace[0].failure == "timeout"
    assert calls == [1]


async def test_a_rate_limited_handler_gets_its_own_copy_of_the_data() -> None:
    registry = HookRegistry()

    def vandal(event: str, data: dict[str, Any]) -> None:
        data["tool_name"] = "rm"

    registry.register(EVENT, vandal, rate_limit=(10, 1.0))
    resolution = await registry.emit(EVENT, {"tool_name": "bash"})
    assert resolution.data is not None and resolution.data["tool_name"] == "bash"
    collected = HookRegistry()
    seen: list[str] = []
    collected.register(EVENT, vandal, rate_limit=(10, 1.0))
    collected.register(EVENT, lambda e, d: seen.append(d["tool_name"]), priority=1)
    await collected.emit_and_collect(EVENT, {"tool_name": "bash"})
    assert seen == ["bash"]


# -- emit_and_collect ----------------------------------------------------------------------


async def test_emit_and_collect_runs_handlers_concurrently() -> None:
    # Each handler waits until all ten have started: run one after another, they would
    # wait forever (cut off by the timeout, with no results).
    registry = HookRegistry()
    all_started = asyncio.Event()
    started = 0
    for index in range(10):

        async def slow(event: str, data: dict[str, Any], index: int = index) -> HookResult:
            nonlocal started
            started += 1
            if started == 10:
                all_started.set()
            await all_started.wait()
            return HookResult(data={"index": index})

        registry.register(EVENT, slow, name=f"slow{index}")
    results = await registry.emit_and_collect(EVENT, {}, timeout=0)
    assert results == [{"index": i} for i in range(10)]


async def test_emit_and_collect_keeps_priority_order_and_drops_nothing_results(
    logs: list[dict[str, Any]],
) -> None:
    registry = HookRegistry()
    done: dict[int, asyncio.Event] = {n: asyncio.Event() for n in (1, 2, 3)}

    def make(n: int, after: int | None, data: dict[str, Any] | None) -> Any:
        async def handler(event: str, _: dict[str, Any]) -> HookResult | None:
            if after is not None:
                await done[after].wait()
            done[n].set()
            return HookResult(data=data) if data is not None else None

        return handler

    # They finish in the reverse of their priority order: 3, then 2, then 1.
    registry.register(EVENT, make(3, None, {"n": 3}), priority=3)
    registry.register(EVENT, make(1, 2, {"n": 1}), priority=1)
    registry.register(EVENT, make(2, 3, None), priority=2)  # no result
    registry.register(EVENT, lambda e, d: HookResult(), priority=0)  # result without data
    registry.register(EVENT, lambda e, d: 1 / 0, priority=-1, name="broken")
    registry.register(EVENT, lambda e, d: {"data": {"n": 0}}, priority=-2)
    assert await registry.emit_and_collect(EVENT, {}, timeout=0) == [{"n": 0}, {"n": 1}, {"n": 3}]
    assert any(r.get("handler") == "broken" for r in logs)
    assert await registry.emit_and_collect("tool:post", {}) == []


async def test_emit_and_collect_caps_each_handler_at_its_timeout(
    logs: list[dict[str, Any]], clock: ManualClock
) -> None:
    registry = HookRegistry(clock=clock)  # the clock stands still: only "sleeper" is late
    registry.register(EVENT, sleeper)
    registry.register(EVENT, lambda e, d: HookResult(data={"fast": True}))
    results = await registry.emit_and_collect(EVENT, {}, timeout=0.05)
    assert results == [{"fast": True}]
    assert any(r.get("handler") == "sleeper" and r["failure"] == "timeout" for r in logs)


async def test_emit_and_collect_bounds_concurrency() -> None:
    registry = HookRegistry(max_concurrency=3)
    running = 0
    peak = 0

    async def counted(event: str, data: dict[str, Any]) -> HookResult:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        for _ in range(3):
            await asyncio.sleep(0)  # lets every other handler start that may
        running -= 1
        return HookResult(data={})

    for _ in range(8):
        registry.register(EVENT, counted)
    assert len(await registry.emit_and_collect(EVENT, {}, timeout=0)) == 8
    assert peak == 3


async def test_emit_and_collect_gives_each_handler_its_own_data() -> None:
    registry = HookRegistry()

    async def vandal(event: str, data: dict[str, Any]) -> None:
        data["n"] = 99
        await asyncio.sleep(0)

    async def look(event: str, data: dict[str, Any]) -> HookResult:
        for _ in range(3):
            await asyncio.sleep(0)  # the vandal has run meanwhile
        return HookResult(data={"n": data["n"]})

    registry.register(EVENT, vandal)
    registry.register(EVENT, look)
    data = {"n": 1}
    assert await registry.emit_and_collect(EVENT, data, timeout=0) == [{"n": 1}]
    assert data == {"n": 1}


async def test_emit_and_collect_respects_max_depth(logs: list[dict[str, Any]]) -> None:
    registry = HookRegistry(max_depth=2)
    calls: list[int] = []

    async def recurse(event: str, data: dict[str, Any]) -> HookResult:
        calls.append(1)
        inner = await registry.emit_and_collect(EVENT, {})
        return HookResult(data={"inner": inner})

    registry.register(EVENT, recurse)
    assert await registry.emit_and_collect(EVENT, {}) == [{"inner": [{"inner": []}]}]
    assert len(calls) == 2
    assert any("nested too deeply" in r["event"] for r in logs)


async def test_cancelling_emit_and_collect_cancels_the_handlers() -> None:
    registry = HookRegistry()
    cancelled: list[str] = []
    waiting = 0
    both_waiting = asyncio.Event()
    both_cancelled = asyncio.Event()

    async def slow(event: str, data: dict[str, Any]) -> None:
        nonlocal waiting
        waiting += 1
        if waiting == 2:
            both_waiting.set()
        try:
            await hang()
        except asyncio.CancelledError:
            cancelled.append("slow")
            if len(cancelled) == 2:
                both_cancelled.set()
            raise

    registry.register(EVENT, slow)
    registry.register(EVENT, slow, timeout=0)
    task = asyncio.create_task(registry.emit_and_collect(EVENT, {}, timeout=10))
    await both_waiting.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await both_cancelled.wait()  # (a handler that never saw its cancellation hangs here)
    assert cancelled == ["slow", "slow"]
