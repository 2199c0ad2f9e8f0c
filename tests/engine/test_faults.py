"""The fault matrix: every way a handler can misbehave, in emit and emit_and_collect.

For each fault: the emit completes, the action is right (fail open, or deny when the
handler was registered fail_closed), and a log record names the handler. Faults are
tried both before the handler's first suspension and after it, because those take
different paths (finished by hand vs continued under a timeout).

The registries here read a `ManualClock` that never moves, so a handler is late only when
its timer fires, and that happens only to handlers that never finish (they wait on an event
nobody sets): on a busy machine a quick handler is slow, never late.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable
from typing import Any

import pytest

from amplifier_hooks import HookRegistry, HookResult
from conftest import ManualClock

EVENT = "tool:pre"
TIMEOUT = 0.05


async def _pause(suspend: bool) -> None:
    if suspend:
        await asyncio.sleep(0)


def raises(suspend: bool) -> Any:
    async def handler(event: str, data: dict[str, Any]) -> None:
        await _pause(suspend)
        raise RuntimeError("kaput")

    return handler


def times_out(suspend: bool) -> Any:
    async def handler(event: str, data: dict[str, Any]) -> None:
        await _pause(suspend)
        await asyncio.Event().wait()  # nobody sets it

    return handler


def hangs_forever(suspend: bool) -> Any:
    async def handler(event: str, data: dict[str, Any]) -> None:
        await _pause(suspend)
        await asyncio.get_running_loop().create_future()  # never resolved

    return handler


def wrong_type(suspend: bool) -> Any:
    async def handler(event: str, data: dict[str, Any]) -> Any:
        await _pause(suspend)
        return "deny"

    return handler


def invalid_dict(suspend: bool) -> Any:
    async def handler(event: str, data: dict[str, Any]) -> Any:
        await _pause(suspend)
        return {"action": "explode"}

    return handler


def raises_cancelled(suspend: bool) -> Any:
    async def handler(event: str, data: dict[str, Any]) -> None:
        await _pause(suspend)
        raise asyncio.CancelledError()

    return handler


def calls_sys_exit(suspend: bool) -> Any:
    async def handler(event: str, data: dict[str, Any]) -> None:
        await _pause(suspend)
        sys.exit(3)

    return handler


def sync_raises(suspend: bool) -> Any:
    def handler(event: str, data: dict[str, Any]) -> None:
        raise ValueError("sync kaput")

    return handler


def sync_exit(suspend: bool) -> Any:
    def handler(event: str, data: dict[str, Any]) -> None:
        raise SystemExit("bye")

    return handler


def returns_generator(suspend: bool) -> Any:
    async def handler(event: str, data: dict[str, Any]) -> Any:
        yield HookResult(action="deny")  # an async generator is not a handler

    return handler


def broken_model(suspend: bool) -> Any:
    class Foreign:
        def model_dump(self) -> dict[str, Any]:
            raise RuntimeError("dump broke")

    async def handler(event: str, data: dict[str, Any]) -> Any:
        await _pause(suspend)
        return Foreign()

    return handler


def unprintable_error(suspend: bool) -> Any:
    class Unprintable(Exception):
        def __str__(self) -> str:
            raise ValueError("no text")

    async def handler(event: str, data: dict[str, Any]) -> None:
        await _pause(suspend)
        raise Unprintable()

    return handler


FAULTS: list[tuple[Callable[[bool], Any], str, str]] = [
    (raises, "raised", "RuntimeError: kaput"),
    (times_out, "timeout", "TimeoutError"),
    (hangs_forever, "timeout", "TimeoutError"),
    (wrong_type, "invalid_return", "str"),
    (invalid_dict, "invalid_return", "invalid HookResult"),
    (raises_cancelled, "cancelled", "CancelledError"),
    (calls_sys_exit, "exit", "SystemExit: 3"),
    (sync_raises, "raised", "ValueError: sync kaput"),
    (sync_exit, "exit", "SystemExit: bye"),
    (returns_generator, "invalid_return", "async_generator"),
    (broken_model, "invalid_return", "RuntimeError: dump broke"),
    (unprintable_error, "raised", "Unprintable: <unprintable>"),
]


@pytest.mark.parametrize("suspend", [False, True], ids=["at-once", "after-await"])
@pytest.mark.parametrize("fail_closed", [False, True], ids=["fail-open", "fail-closed"])
@pytest.mark.parametrize(("make", "kind", "error"), FAULTS, ids=[f[0].__name__ for f in FAULTS])
async def test_a_failing_handler_never_breaks_the_emit(
    make: Callable[[bool], Any],
    kind: str,
    error: str,
    fail_closed: bool,
    suspend: bool,
    logs: list[dict[str, Any]],
    clock: ManualClock,
) -> None:
    registry = HookRegistry(default_timeout=TIMEOUT, clock=clock)
    after: list[str] = []
    registry.register(EVENT, make(suspend), name="culprit", fail_closed=fail_closed)
    registry.register(EVENT, lambda e, d: after.append("ran") and None, name="after")
    resolution = await registry.emit(EVENT, {"k": 1})
    entry = resolution.trace[0]
    assert (entry.handler, entry.failure) == ("culprit", kind)
    assert error in (entry.error or "")
    if fail_closed:
        assert resolution.action == "deny"
        assert resolution.denied_by == "culprit"
        assert "culprit" in (resolution.reason or "") and kind in (resolution.reason or "")
        assert after == []  # a deny is terminal
    else:
        assert resolution.action == "continue"
        assert resolution.data is not None and resolution.data["k"] == 1
        assert after == ["ran"]
    records = [r for r in logs if r.get("handler") == "culprit"]
    assert records, logs
    record = records[0]
    assert record["failure"] == kind
    assert record["hook_event"] == EVENT
    assert record["log_level"] == "warning"
    assert record["fail_closed"] is fail_closed
    assert record["duration_ms"] >= 0


@pytest.mark.parametrize(("make", "kind", "error"), FAULTS, ids=[f[0].__name__ for f in FAULTS])
async def test_a_failing_handler_contributes_nothing_to_collect(
    make: Callable[[bool], Any],
    kind: str,
    error: str,
    logs: list[dict[str, Any]],
    clock: ManualClock,
) -> None:
    registry = HookRegistry(clock=clock)
    registry.register(EVENT, make(True), name="culprit", fail_closed=True)
    registry.register(EVENT, lambda e, d: HookResult(data={"ok": True}), name="fine")
    results = await registry.emit_and_collect(EVENT, {}, timeout=TIMEOUT)
    assert results == [{"ok": True}]
    assert any(r.get("handler") == "culprit" and r["failure"] == kind for r in logs)


@pytest.mark.parametrize("suspend", [False, True], ids=["at-once", "after-await"])
@pytest.mark.parametrize(
    "handler",
    [
        pytest.param(lambda e, d: None, id="plain-function-returning-None"),
        pytest.param(lambda e, d: {"action": "continue"}, id="valid-dict"),
    ],
)
async def test_harmless_shapes_are_not_failures(
    handler: Any, suspend: bool, logs: list[dict[str, Any]], clock: ManualClock
) -> None:
    async def wrapped(event: str, data: dict[str, Any]) -> Any:
        await _pause(suspend)
        return handler(event, data)

    registry = HookRegistry(default_timeout=TIMEOUT, clock=clock)
    registry.register(EVENT, handler)
    registry.register(EVENT, wrapped)
    resolution = await registry.emit(EVENT, {})
    assert resolution.action == "continue"
    assert [t.failure for t in resolution.trace] == [None, None]
    assert logs == []


@pytest.mark.parametrize("suspend", [False, True], ids=["at-once", "after-await"])
async def test_keyboard_interrupt_propagates(suspend: bool) -> None:
    async def interrupt(event: str, data: dict[str, Any]) -> None:
        await _pause(suspend)
        raise KeyboardInterrupt

    registry = HookRegistry(default_timeout=None)
    registry.register(EVENT, interrupt)
    with pytest.raises(KeyboardInterrupt):
        await registry.emit(EVENT, {})


@pytest.mark.parametrize("timeout", [TIMEOUT * 100, None], ids=["with-timeout", "no-timeout"])
async def test_cancelling_the_emitting_task_raises_cancelled_error(timeout: float | None) -> None:
    registry = HookRegistry(default_timeout=timeout)
    handler_saw: list[str] = []
    waiting = asyncio.Event()

    async def slow(event: str, data: dict[str, Any]) -> None:
        waiting.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            handler_saw.append("cancelled")
            raise

    registry.register(EVENT, slow)
    task = asyncio.create_task(registry.emit(EVENT, {}))
    await waiting.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert task.cancelled()
    assert handler_saw == ["cancelled"]  # it ran in the emitting task: cancelled with it


@pytest.mark.parametrize("timeout", [TIMEOUT * 100, None], ids=["with-timeout", "no-timeout"])
async def test_a_handler_swallowing_cancellation_does_not_swallow_the_callers(
    timeout: float | None,
) -> None:
    registry = HookRegistry(default_timeout=timeout)
    later: list[str] = []
    waiting = asyncio.Event()

    async def swallower(event: str, data: dict[str, Any]) -> HookResult:
        waiting.set()
        with contextlib.suppress(asyncio.CancelledError):  # swallowed: returns as if fine
            await asyncio.Event().wait()
        return HookResult(action="modify", data={"swallowed": True})

    registry.register(EVENT, swallower)
    registry.register(EVENT, lambda e, d: later.append("ran"))
    task = asyncio.create_task(registry.emit(EVENT, {}))
    await waiting.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert later == []  # the emit stopped; no later handler ran


async def test_a_cancelled_emit_leaves_the_registry_usable() -> None:
    registry = HookRegistry()
    waiting = asyncio.Event()

    async def slow(event: str, data: dict[str, Any]) -> None:
        waiting.set()
        await asyncio.Event().wait()

    registry.register(EVENT, slow)
    task = asyncio.create_task(registry.emit(EVENT, {}))
    await waiting.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    fresh = HookRegistry()
    fresh.register(EVENT, lambda e, d: HookResult(action="deny"))
    assert (await fresh.emit(EVENT, {})).action == "deny"
    # The depth counter was restored when the cancelled emit unwound.
    registry.max_depth = 1
    registry.register("tool:post", lambda e, d: HookResult(action="deny"))
    assert (await registry.emit("tool:post", {})).action == "deny"
