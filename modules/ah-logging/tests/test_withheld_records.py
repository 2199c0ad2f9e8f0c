"""An event whose payload cannot be scrubbed is still recorded, by both paths (observer and
handler): event, time, session and verdict, with a `withheld` marker instead of the data,
and never a character of the payload, not even through the exception's message or name."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import amplifier_module_ah_redaction as redaction
import pytest
from amplifier_module_ah_logging import WITHHELD, mount
from amplifier_module_ah_logging.withheld import failure_kind

from amplifier_hooks import HookResult
from amplifier_hooks.session.coordinator import Coordinator
from amplifier_hooks.testing import returns

KEY = "sk-proj-" + "Hx4" * 10
"""A secret the redaction rules know: it must appear nowhere, scrubbed or not."""
PAYLOAD_TEXT = "payload-only-words"
"""Plain payload text no scrub rule would catch: it must not appear either."""

# A class named by the payload: its name must not reach the record either.
Sneaky = type(f"Leak_{PAYLOAD_TEXT.replace('-', '_')}", (RuntimeError,), {})


class KeyThatCannotPrint:
    """A dict key that is no str, and whose str() raises with the secret in its message."""

    def __str__(self) -> str:
        raise Sneaky(f"cannot print {KEY} {PAYLOAD_TEXT}")


class MappingThatFails(Mapping[str, Any]):
    """A mapping whose items cannot be walked."""

    def __getitem__(self, key: str) -> Any:
        raise KeyError(f"{KEY} {PAYLOAD_TEXT}")

    def __iter__(self) -> Iterator[str]:
        raise ValueError(f"{KEY} {PAYLOAD_TEXT}")

    def __len__(self) -> int:
        return 1


class FakeStr:
    """Claims to be a str (isinstance says so) without being one: as a key, the JSON
    encoder would reject it, and the record with it."""

    __class__ = str  # type: ignore[assignment]

    def __len__(self) -> int:
        return 3

    def __str__(self) -> str:
        return f"{KEY} {PAYLOAD_TEXT}"


HOSTILE: dict[str, tuple[Any, str]] = {
    # name: (a factory of the hostile value, the built-in class its failure is named by)
    "key_str_raises": (lambda: {KeyThatCannotPrint(): "x"}, "RuntimeError"),
    "mapping_fails": (MappingThatFails, "ValueError"),
    "fake_str_key": (lambda: {FakeStr(): "x"}, "TypeError"),
}


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def assert_no_payload(*texts: str) -> None:
    for text in texts:
        assert KEY not in text
        assert PAYLOAD_TEXT not in text
        assert PAYLOAD_TEXT.replace("-", "_") not in text


async def mounted(log: Path, *, with_redaction: bool = True) -> Coordinator:
    coordinator = Coordinator(session_id="s-1")
    coordinator.register_cleanup(await mount(coordinator, {"path": str(log)}))
    if with_redaction:
        coordinator.register_cleanup(await redaction.mount(coordinator, {}))
    return coordinator


@pytest.mark.parametrize("hostile", sorted(HOSTILE))
async def test_a_dispatched_event_that_cannot_be_scrubbed_keeps_its_verdict(
    tmp_path: Path, hostile: str, logs: list[dict[str, Any]]
) -> None:
    log = tmp_path / "e.jsonl"
    coordinator = await mounted(log)

    def edit(event: str, data: dict[str, Any]) -> HookResult:
        return HookResult(action="modify", data={**data, "dry_run": True})

    coordinator.hooks.register("tool:pre", edit, 0, "edit")
    deny = HookResult(action="deny", reason=f"leaks {KEY}")
    coordinator.hooks.register("tool:pre", returns(deny), 10, "guard")

    outcome = await coordinator.dispatch(
        "tool:pre",
        {"tool_name": "bash", "tool_input": HOSTILE[hostile][0](), "note": f"{PAYLOAD_TEXT} {KEY}"},
    )
    await coordinator.dispatch("tool:post", {"tool_name": "bash", "tool_result": "ok"})
    await coordinator.cleanup()

    assert not outcome.allowed  # logging never changes the verdict
    withheld, normal = records(log)
    assert list(withheld) == ["schema", "ts", "event", "session_id", "outcome", "withheld"]
    assert (withheld["event"], withheld["session_id"]) == ("tool:pre", "s-1")
    assert withheld["outcome"] == {
        "allowed": False,
        "action": "deny",
        "denied_by": "guard",
        "reason": "leaks [REDACTED:openai_api_key]",  # reasons are scrubbed on their own
        "modified_by": ["edit"],
        "approvals": [],
        "injected": {"count": 0, "ephemeral": 0, "tokens": 0, "dropped": 0},
    }
    assert withheld["withheld"] == {
        "fields": ["data"],
        "reason": "could not be scrubbed",
        "error": HOSTILE[hostile][1],
    }
    # The next, ordinary event is recorded as always.
    assert list(normal) == ["schema", "ts", "event", "session_id", "outcome", "data"]
    assert normal["data"]["tool_result"] == "ok"

    assert_no_payload(log.read_text(encoding="utf-8"), json.dumps(logs, default=repr))
    (warning,) = [e for e in logs if e["event"].startswith("event recorded without")]
    assert warning["hook_event"] == "tool:pre" and warning["withheld"] == ["data"]


@pytest.mark.parametrize("hostile", sorted(HOSTILE))
async def test_a_directly_emitted_event_that_cannot_be_scrubbed_is_recorded(
    tmp_path: Path, hostile: str, logs: list[dict[str, Any]]
) -> None:
    log = tmp_path / "e.jsonl"
    # Without ah-redaction, whose own handler (fail-closed) would deny this event before
    # the logging handler runs; the logging handler's scrub fails on its own.
    coordinator = await mounted(log, with_redaction=False)

    result = await coordinator.hooks.emit(
        "session:resume", {"state": HOSTILE[hostile][0](), "note": f"{PAYLOAD_TEXT} {KEY}"}
    )
    await coordinator.cleanup()

    assert result.action == "continue"
    assert [t.failure for t in result.trace] == [None] * len(
        result.trace
    )  # the handler never raised
    (record,) = records(log)
    assert list(record) == ["schema", "ts", "event", "session_id", "withheld"]
    assert (record["event"], record["session_id"]) == ("session:resume", "s-1")
    assert record["withheld"]["fields"] == ["data"]
    assert_no_payload(log.read_text(encoding="utf-8"), json.dumps(logs, default=repr))


async def test_a_scrubber_that_raises_withholds_free_text_but_keeps_who_decided(
    tmp_path: Path,
) -> None:
    def broken_scrub(value: Any) -> Any:  # a buggy scrubber that quotes its input
        raise ValueError(f"cannot scrub {value!r}")

    log = tmp_path / "e.jsonl"
    coordinator = Coordinator(session_id="s-1")
    coordinator.register_cleanup(await mount(coordinator, {"path": str(log)}))
    coordinator.register_capability("redaction.scrub", broken_scrub)
    deny = HookResult(action="deny", reason=f"leaks {KEY}")
    coordinator.hooks.register("tool:pre", returns(deny), 0, "guard")

    await coordinator.dispatch("tool:pre", {"tool_name": "bash", "tool_input": KEY})
    await coordinator.cleanup()

    (record,) = records(log)
    assert record["outcome"]["reason"] == WITHHELD  # handler text may quote the payload
    assert record["outcome"]["denied_by"] == "guard"  # a handler name is not payload
    assert record["withheld"] == {
        "fields": ["outcome", "data"],
        "reason": "could not be scrubbed",
        "error": "ValueError",
    }
    assert "data" not in record
    assert_no_payload(log.read_text(encoding="utf-8"))


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a full disk)")
async def test_a_withheld_record_that_cannot_be_written_is_logged(
    logs: list[dict[str, Any]],
) -> None:
    coordinator = Coordinator()
    cleanup = await mount(coordinator, {"path": "/dev/full"})
    outcome = await coordinator.dispatch("tool:pre", {"tool_input": {KeyThatCannotPrint(): 1}})
    assert outcome.allowed
    cleanup()

    (error,) = [e for e in logs if e["event"].startswith("event log write failed")]
    assert error["hook_event"] == "tool:pre" and "No space left" in error["error"]
    lost = [e for e in logs if e["event"] == "event log records lost"]
    assert lost and lost[0]["dropped"] == 1
    assert_no_payload(json.dumps(logs, default=repr))


async def test_when_no_record_can_be_made_the_error_is_logged_without_the_message(
    tmp_path: Path, logs: list[dict[str, Any]]
) -> None:
    class CapabilitiesDown(Coordinator):
        def get_capability(self, name: str, default: Any = None) -> Any:
            raise Sneaky(f"lookup failed near {KEY} {PAYLOAD_TEXT}")

    log = tmp_path / "e.jsonl"
    coordinator = CapabilitiesDown()
    coordinator.register_cleanup(await mount(coordinator, {"path": str(log)}))

    outcome = await coordinator.dispatch("prompt:submit", {"prompt": "hi"})
    await coordinator.hooks.emit("session:resume", {})
    await coordinator.cleanup()

    assert outcome.allowed
    assert not log.exists()  # without a scrubber nothing is written unscrubbed
    errors = [e for e in logs if e["event"].startswith("event not recorded")]
    assert [(e["hook_event"], e["error"]) for e in errors] == [
        ("prompt:submit", "RuntimeError"),
        ("session:resume", "RuntimeError"),
    ]
    assert not [e for e in logs if e["event"] == "observer failed; ignored"]
    assert_no_payload(json.dumps(logs, default=repr))


def test_a_failure_is_named_by_a_builtin_class_the_payload_cannot_choose() -> None:
    class ValueError(Exception):  # shadows the built-in on purpose
        pass

    impostor = type("KeyError", (LookupError,), {"__module__": "builtins"})
    assert failure_kind(ValueError("x")) == "Exception"
    assert failure_kind(impostor("x")) == "LookupError"
    assert failure_kind(Sneaky(KEY)) == "RuntimeError"
    assert failure_kind(KeyError(KEY)) == "KeyError"
    assert failure_kind(SystemExit(KEY)) == "SystemExit"
