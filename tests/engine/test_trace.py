"""An emit's trace: one entry per handler, made when first read, equal to an eager one."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

from registry_support import EVENT

from amplifier_hooks import HookRegistry, HookResult, Resolution
from amplifier_hooks.engine.trace import Trace, TraceEntry


def _registry() -> HookRegistry:
    registry = HookRegistry()

    async def quiet(event: str, data: dict[str, Any]) -> None:
        return None

    async def changes(event: str, data: dict[str, Any]) -> HookResult:
        return HookResult(action="modify", data={"k": 2})

    def sync_quiet(event: str, data: dict[str, Any]) -> None:
        return None

    async def broken(event: str, data: dict[str, Any]) -> None:
        raise RuntimeError("boom")

    registry.register(EVENT, quiet, priority=1)
    registry.register(EVENT, changes, priority=2)
    registry.register(EVENT, sync_quiet, priority=3)
    registry.register(EVENT, broken, priority=4)
    return registry


async def test_every_handler_has_its_entry_in_run_order() -> None:
    resolution = await _registry().emit(EVENT, {"k": 1})
    trace = resolution.trace
    assert len(trace) == 4
    assert all(isinstance(entry, TraceEntry) for entry in trace)
    assert [(t.handler, t.priority, t.action, t.failure) for t in trace] == [
        ("quiet", 1, "continue", None),
        ("changes", 2, "modify", None),
        ("sync_quiet", 3, "continue", None),
        ("broken", 4, "continue", "raised"),
    ]
    assert all(isinstance(t.duration, float) and t.duration >= 0 for t in trace)
    assert trace[0] is trace[0]  # made once, then kept
    assert trace[-1].error is not None and "boom" in trace[-1].error
    assert [t.handler for t in trace[1:3]] == ["changes", "sync_quiet"]


async def test_a_trace_serializes_validates_and_compares_like_a_list() -> None:
    resolution = await _registry().emit(EVENT, {"k": 1})
    entries = list(resolution.trace)
    assert resolution.trace == entries and entries == list(resolution.trace)
    dumped = resolution.model_dump()
    assert [tuple(t) for t in dumped["trace"]] == [tuple(t) for t in entries]
    assert Resolution.model_validate(dumped) == resolution
    as_json = json.loads(resolution.model_dump_json())
    assert [t[0] for t in as_json["trace"]] == ["quiet", "changes", "sync_quiet", "broken"]
    assert Resolution.model_validate_json(resolution.model_dump_json()) == resolution
    assert pickle.loads(pickle.dumps(resolution)) == resolution
    assert copy.deepcopy(resolution) == resolution
    assert "quiet" in repr(resolution.trace)


async def test_a_trace_that_is_never_read_still_dumps_whole() -> None:
    # Serialization reads the trace without attribute access: it must still be whole.
    resolution = await _registry().emit(EVENT, {"k": 1})
    assert [t[0] for t in resolution.model_dump()["trace"]] == [
        "quiet",
        "changes",
        "sync_quiet",
        "broken",
    ]


def test_a_trace_is_built_from_entries_too() -> None:
    entry = TraceEntry("h", 0, "continue", None, 0.5)
    assert Trace([entry]) == [entry] and Trace() == [] and len(Trace([entry])) == 1
    assert Resolution(trace=[entry]).trace == [entry]  # type: ignore[arg-type]
    assert Trace([entry]) != Trace()


async def test_durations_from_a_registry_clock_of_whole_numbers() -> None:
    ticks = iter(range(1000))
    registry = HookRegistry(clock=lambda: next(ticks))

    async def quiet(event: str, data: dict[str, Any]) -> None:
        return None

    registry.register(EVENT, quiet)
    registry.register(EVENT, quiet, name="again")
    trace = (await registry.emit(EVENT, {})).trace
    assert [(t.handler, t.action, t.duration) for t in trace] == [
        ("quiet", "continue", 1),
        ("again", "continue", 1),
    ]
    assert all(isinstance(t, TraceEntry) for t in trace)


async def test_handlers_that_names_the_same_handlers_before_and_after_entries_are_made() -> None:
    registry = _registry()

    async def denies(event: str, data: dict[str, Any]) -> HookResult:
        return HookResult(action="deny", reason="no")

    async def changes_again(event: str, data: dict[str, Any]) -> HookResult:
        return HookResult(action="modify", data={"k": 3})

    registry.register(EVENT, changes_again, priority=5)
    registry.register(EVENT, denies, priority=6)
    for action in ("modify", "deny", "continue", "inject_context"):
        fresh = (await registry.emit(EVENT, {"k": 1})).trace
        unread = fresh.handlers_that(action)  # before any entry is made
        made = [t.handler for t in fresh if t.action == action]
        assert unread == made == fresh.handlers_that(action)  # and after
    assert fresh.handlers_that("modify") == ["changes", "changes_again"]
    assert fresh.handlers_that("deny") == ["denies"]
    assert Trace(list(fresh)).handlers_that("modify") == ["changes", "changes_again"]
