"""The core's extension points: upper layers plug in, the core never imports them."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from amplifier_hooks import Coordinator, HookRegistry, HookResult
from amplifier_hooks.engine.resolution import Resolution
from amplifier_hooks.engine.slots import Slot, bundle_builder, foreign_results

ROOT = Path(__file__).resolve().parents[2]


def test_a_slot_says_what_is_missing_and_restores_what_was_plugged() -> None:
    slot: Slot[Any] = Slot("demo.slot", "a demonstration")
    with pytest.raises(LookupError, match=r"nothing is plugged into demo.slot \(a demonstration\)"):
        slot.get()
    first, second = (lambda: 1), (lambda: 2)
    slot.plug(first)
    unplug = slot.plug(second)
    assert slot.get() is second and slot.plugged
    unplug()
    assert slot.get() is first
    with pytest.raises(TypeError, match=r"a plug-in for demo\.slot must be callable"):
        slot.plug("not callable")
    assert repr(slot) == "Slot('demo.slot', plugged=True)"


def test_a_slot_s_default_is_imported_when_first_asked_for() -> None:
    slot: Slot[Any] = Slot("demo.slot", "a demonstration", default="json:dumps")
    assert slot.plugged
    assert slot.get() is json.dumps
    unplug = slot.plug(repr)
    assert slot.get() is repr
    unplug()
    assert slot.get() is json.dumps
    missing: Slot[Any] = Slot("demo.slot", "a demonstration", default="json:no_such_name")
    with pytest.raises(AttributeError):
        missing.get()


def test_the_slots_name_the_library_s_own_plug_ins_without_loading_them() -> None:
    probe = (
        "import json, sys, amplifier_hooks\n"
        "from amplifier_hooks.engine import slots as x\n"
        "print(json.dumps([x.foreign_results.plugged, x.bundle_builder.plugged,"
        " sorted(m for m in sys.modules if m.startswith(('amplifier_hooks.amplifier',"
        " 'amplifier_hooks.bundles')))]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert json.loads(done.stdout) == [True, True, []]


class Foreign:
    """A result of another library: anything with ``model_dump``."""

    def __init__(self, **values: Any) -> None:
        self.values = values

    def model_dump(self) -> dict[str, Any]:
        return dict(self.values)


async def test_a_foreign_result_is_read_by_the_plugged_reader() -> None:
    read: list[Mapping[str, Any]] = []

    def reader(values: Mapping[str, Any]) -> HookResult:
        read.append(values)
        return HookResult(action="deny", reason=f"read {values['verdict']}")

    registry = HookRegistry()
    registry.register("tool:pre", lambda event, data: Foreign(verdict="no"))
    unplug = foreign_results.plug(reader)
    try:
        resolution = await registry.emit("tool:pre", {})
    finally:
        unplug()
    assert read == [{"verdict": "no"}]
    assert (resolution.action, resolution.reason) == ("deny", "read no")
    # The library's own reader is back: the reference's 2.x fields are mapped.
    registry2 = HookRegistry()
    registry2.register(
        "tool:pre",
        lambda event, data: Foreign(
            action="continue", context_injections=[{"content": "hi", "role": "user"}]
        ),
    )
    mapped = await registry2.emit("tool:pre", {})
    assert (mapped.action, mapped.context_injection) == ("inject_context", "hi")


async def test_from_bundle_asks_the_plugged_builder_and_checks_what_it_builds() -> None:
    calls: list[tuple[Any, dict[str, Any]]] = []

    async def builder(bundle: Any, **options: Any) -> Any:
        calls.append((bundle, options))
        return options["factory"](session_id="from-builder")

    unplug = bundle_builder.plug(builder)
    try:
        built = await Coordinator.from_bundle("b.yaml", strict=True, parent_id="p")
        assert isinstance(built, Coordinator) and built.session_id == "from-builder"
        assert calls == [("b.yaml", {"strict": True, "factory": Coordinator, "parent_id": "p"})]

        async def wrong(bundle: Any, **options: Any) -> Any:
            return "not a coordinator"

        bundle_builder.plug(wrong)
        with pytest.raises(TypeError, match="bundle_builder returned str"):
            await Coordinator.from_bundle("b.yaml")
    finally:
        unplug()
    # The library's own builder is back.
    assert bundle_builder.get().__module__ == "amplifier_hooks.bundles.loading"


async def test_a_registry_adapter_changes_one_registry_only() -> None:
    class Upper:
        def adapt_handler(self, handler: Any) -> Any:
            async def upper(event: str, data: dict[str, Any]) -> Any:
                return HookResult(action="modify", data={"seen": event.upper()})

            return upper

        def adapt_resolution(self, resolution: Resolution) -> Resolution:
            return resolution.model_copy(update={"reason": "adapted"})

    def handler(event: str, data: dict[str, Any]) -> None:
        return None

    adapted, plain = HookRegistry(adapter=Upper()), HookRegistry()
    for registry in (adapted, plain):
        registry.register("tool:pre", handler)
    assert adapted.list_handlers() == plain.list_handlers() == {"tool:pre": ["handler"]}
    result = await adapted.emit("tool:pre", {})
    assert (result.data, result.reason) == ({"seen": "TOOL:PRE"}, "adapted")
    untouched = await plain.emit("tool:pre", {})
    assert untouched.reason is None and "seen" not in (untouched.data or {})
