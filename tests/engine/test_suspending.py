"""Handlers that suspend: the run is taken over and driven on in the emitting task, so
futures, context variables, asyncio.timeout and task groups behave as under a plain await."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from typing import Any

import structlog
from hypothesis import given, settings
from hypothesis import strategies as st
from registry_support import (
    EVENT,
    recorder,
)

from amplifier_hooks import HookRegistry, HookResult

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


# -- runs taken over and resumed ------------------------------------------------------------

STEPS = st.lists(
    st.tuples(st.booleans(), st.sampled_from(["none", "modify", "deny", "raise"])), max_size=8
)


@settings(max_examples=60, deadline=None)
@given(STEPS, st.sampled_from([30.0, None]))
def test_suspending_anywhere_never_skips_repeats_or_reorders_a_handler(
    steps: list[tuple[bool, str]], timeout: float | None
) -> None:
    # A handler that suspends ends the run that called it; the next handlers go on in a
    # fresh run. Whatever mix of suspending and quick handlers, each handler up to the
    # first deny runs once, in order, and sees the data of the last modify before it.
    registry = HookRegistry(default_timeout=timeout)
    calls: list[tuple[int, Any]] = []

    def make(index: int, suspends: bool, does: str) -> Any:
        async def handler(event: str, data: dict[str, Any]) -> HookResult | None:
            calls.append((index, data.get("step")))
            if suspends:
                await asyncio.sleep(0)
            if does == "modify":
                return HookResult(action="modify", data={**data, "step": index})
            if does == "deny":
                return HookResult(action="deny", reason=f"no {index}")
            if does == "raise":
                raise RuntimeError("boom")
            return None

        return handler

    for index, (suspends, does) in enumerate(steps):
        registry.register(EVENT, make(index, suspends, does), name=f"h{index}")
    resolution = asyncio.run(registry.emit(EVENT, {}))

    denied = next((i for i, (_, does) in enumerate(steps) if does == "deny"), None)
    ran = steps if denied is None else steps[: denied + 1]
    expected: list[tuple[int, Any]] = []
    step = None
    for index, (_, does) in enumerate(ran):
        expected.append((index, step))
        if does == "modify":
            step = index
    assert calls == expected
    assert [t.handler for t in resolution.trace] == [f"h{i}" for i in range(len(ran))]
    assert resolution.action == (
        "deny" if denied is not None else "modify" if step is not None else "continue"
    )
    if denied is None:
        assert resolution.data.get("step") == step
