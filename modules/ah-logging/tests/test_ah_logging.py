"""ah-logging: one schema-versioned JSONL record per event, through a real Coordinator:
dispatched events once, with their final outcome (denies included); direct emits by the
handler; configured keys redacted; contributed events logged after on_session_ready."""

from __future__ import annotations

import dataclasses
import datetime
import json
from pathlib import Path
from typing import Any

import amplifier_module_ah_redaction as redaction
import pytest
from amplifier_module_ah_logging import HANDLER_NAME, SCHEMA, mount, on_session_ready
from amplifier_module_ah_logging.writer import JsonlWriter

from amplifier_hooks import HookResult, events
from amplifier_hooks.engine import registry as registry_module
from amplifier_hooks.session.coordinator import Coordinator


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


async def mounted(path: Path, **config: Any) -> Coordinator:
    coordinator = Coordinator()
    coordinator.register_cleanup(await mount(coordinator, {"path": str(path), **config}))
    return coordinator


async def test_every_standard_event_is_logged_from_mount(tmp_path: Path) -> None:
    log = tmp_path / "deep" / "dir" / "events.jsonl"  # parent directories are created
    coordinator = Coordinator(session_id="s-1")
    coordinator.register_cleanup(await mount(coordinator, {"path": str(log)}))
    for event in events.STANDARD_EVENTS:
        assert coordinator.hooks.list_handlers(event)[event] == [HANDLER_NAME]

    await coordinator.dispatch("session:start", {"session_id": "s-1", "workspace": "/w"})
    await coordinator.dispatch("tool:pre", {"tool_name": "grep", "tool_input": {"pattern": "x"}})
    await coordinator.cleanup()

    first, second = records(log)
    assert list(first) == ["schema", "ts", "event", "session_id", "outcome", "data"]
    assert first["schema"] == SCHEMA == "amplifier-hooks.event/2"
    assert first["event"] == "session:start"
    assert first["data"]["workspace"] == "/w"
    assert first["ts"].endswith("Z") or first["ts"].endswith("+00:00")
    # The coordinator stamps its session id on every event.
    assert second["session_id"] == "s-1"
    assert second["data"]["tool_input"] == {"pattern": "x"}


async def test_logging_never_changes_the_outcome(tmp_path: Path) -> None:
    coordinator = await mounted(tmp_path / "e.jsonl")
    outcome = await coordinator.dispatch("prompt:submit", {"prompt": "hi"})
    assert outcome.allowed and outcome.action == "continue"
    assert outcome.resolution is not None
    trace = {t.handler: t for t in outcome.resolution.trace}
    assert trace[HANDLER_NAME].action == "continue" and trace[HANDLER_NAME].failure is None
    assert trace[HANDLER_NAME].priority == 1000


async def test_configured_keys_are_redacted_at_any_depth(tmp_path: Path) -> None:
    log = tmp_path / "e.jsonl"
    coordinator = await mounted(log, redact_keys=["api_key", "token", "password", "Cookie*"])
    await coordinator.dispatch(
        "provider:request",
        {
            "model": "m",
            "headers": {"X-Api-Key": "k1", "Authorization": "kept: not configured here"},
            "auth": [{"accessToken": "t1", "PASSWORD": "p1", "max_tokens": 10}],
            "cookie_jar": "c1",
            "OPENAI_API_KEY": "k2",
        },
    )
    await coordinator.cleanup()
    (record,) = records(log)
    data = record["data"]
    assert data["headers"] == {
        "X-Api-Key": "[REDACTED]",
        "Authorization": "kept: not configured here",
    }
    assert data["auth"] == [
        {"accessToken": "[REDACTED]", "PASSWORD": "[REDACTED]", "max_tokens": 10}
    ]
    assert data["cookie_jar"] == "[REDACTED]"
    assert data["OPENAI_API_KEY"] == "[REDACTED]"
    assert "k1" not in log.read_text() and "t1" not in log.read_text()


async def test_contributed_events_logged_after_session_ready(tmp_path: Path) -> None:
    log = tmp_path / "e.jsonl"
    coordinator = await mounted(log)
    # A module mounted later contributes its custom event name and emits it directly.
    coordinator.register_contributor(
        "observability.events", "todo", lambda: ["todo:item_completed"]
    )
    await coordinator.hooks.emit("todo:item_completed", {"item": "before ready"})

    await on_session_ready(coordinator)
    await on_session_ready(coordinator)  # idempotent: no duplicate registration
    assert coordinator.hooks.list_handlers("todo:item_completed") == {
        "todo:item_completed": [HANDLER_NAME]
    }
    await coordinator.hooks.emit("todo:item_completed", {"item": "after ready"})
    # A dispatched event is recorded whatever its name, known or not.
    await coordinator.dispatch("todo:list_cleared", {"item": "dispatched"})
    await coordinator.cleanup()

    logged = records(log)
    assert [(r["event"], r["data"].get("item")) for r in logged] == [
        ("todo:item_completed", "after ready"),
        ("todo:list_cleared", "dispatched"),
    ]
    assert "outcome" not in logged[0]  # a direct emit has no outcome to record
    assert logged[1]["outcome"]["allowed"] is True


async def test_include_and_exclude_globs(tmp_path: Path) -> None:
    log = tmp_path / "e.jsonl"
    coordinator = await mounted(
        log, events=["tool:*", "session:start", "custom:thing"], exclude_events=["tool:error"]
    )
    assert set(coordinator.hooks.events()) == {
        "tool:pre",
        "tool:post",
        "session:start",
        "custom:thing",
    }
    # tool:retry has no handler at all: its dispatch is still recorded (it matches tool:*).
    for event in ("tool:pre", "tool:error", "prompt:submit", "custom:thing", "tool:retry"):
        await coordinator.dispatch(event, {})
    await coordinator.hooks.emit("tool:error", {})  # excluded, emitted directly
    await coordinator.cleanup()
    assert [r["event"] for r in records(log)] == ["tool:pre", "custom:thing", "tool:retry"]


async def test_values_are_made_json_safe_and_bounded(tmp_path: Path) -> None:
    @dataclasses.dataclass
    class Point:
        x: int
        token: str

    class Unprintable:
        def __str__(self) -> str:
            raise RuntimeError("no")

    cyclic: dict[str, Any] = {"name": "loop"}
    cyclic["self"] = cyclic
    log = tmp_path / "e.jsonl"
    coordinator = await mounted(log, max_value_chars=20)
    await coordinator.dispatch(
        "tool:post",
        {
            "tool_result": "y" * 100,
            "blob": b"\x00\x01\x02",
            "nan": float("nan"),
            "path": Path("/tmp/x"),
            "point": Point(1, "t0ps3cret"),
            "result": HookResult(action="deny", reason="r"),
            "tags": ("a", "b"),
            "cyclic": cyclic,
            "emoji": "héllo \udcff",
            "odd": Unprintable(),
        },
    )
    await coordinator.cleanup()
    (record,) = records(log)
    data = record["data"]
    assert data["tool_result"] == "y" * 20 + "…[+80 chars]"
    assert data["blob"] == "<3 bytes>"
    assert data["nan"] == "nan"
    assert data["path"] == "/tmp/x"
    assert data["point"] == {"x": 1, "token": "[REDACTED]"}
    assert data["result"]["action"] == "deny"
    assert data["tags"] == ["a", "b"]
    assert data["cyclic"] == {"name": "loop", "self": "<cycle>"}
    assert data["emoji"].startswith("héllo")
    assert data["odd"].startswith("<unprintable Unprint")


async def test_redaction_capability_scrubs_even_tool_payloads(tmp_path: Path) -> None:
    key = "sk-proj-" + "Zz9" * 10
    log = tmp_path / "e.jsonl"
    coordinator = Coordinator()
    coordinator.register_cleanup(await mount(coordinator, {"path": str(log)}))
    coordinator.register_cleanup(await redaction.mount(coordinator, {}))

    outcome = await coordinator.dispatch("tool:post", {"tool_result": f"OPENAI={key}"})
    # The agent still gets the tool result (redaction leaves tool:* alone) …
    assert outcome.data["tool_result"] == f"OPENAI={key}"
    await coordinator.dispatch("prompt:submit", {"prompt": f"my key {key}"})
    await coordinator.cleanup()
    # … but the log holds no secret, from either event.
    text = log.read_text()
    assert key not in text
    tool_record, prompt_record = records(log)
    assert tool_record["data"]["tool_result"] == "OPENAI=[REDACTED:openai_api_key]"
    assert prompt_record["data"]["prompt"] == "my key [REDACTED:openai_api_key]"

    plain_log = tmp_path / "plain.jsonl"
    plain = Coordinator()
    plain.register_cleanup(await mount(plain, {"path": str(plain_log), "scrub_secrets": False}))
    plain.register_cleanup(await redaction.mount(plain, {}))
    await plain.dispatch("tool:post", {"tool_result": key})
    await plain.cleanup()
    assert key in plain_log.read_text()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a full disk)")
async def test_write_errors_are_logged_once_and_never_raised(logs: list[dict[str, Any]]) -> None:
    # /dev/full opens fine and fails every write with ENOSPC, like a disk that filled up.
    coordinator = Coordinator()
    cleanup = await mount(coordinator, {"path": "/dev/full"})
    for _ in range(3):
        outcome = await coordinator.dispatch("prompt:submit", {"prompt": "x"})
        assert outcome.allowed
        assert outcome.resolution is not None
        assert outcome.resolution.trace[0].failure is None

    errors = [e for e in logs if e["event"].startswith("event log write failed")]
    assert len(errors) == 1
    assert "No space left" in errors[0]["error"]
    cleanup()
    lost = [e for e in logs if e["event"] == "event log records lost"]
    assert lost and lost[0]["dropped"] == 3


async def test_cleanup_closes_file_and_unregisters(tmp_path: Path) -> None:
    log = tmp_path / "e.jsonl"
    coordinator = Coordinator()
    cleanup = await mount(coordinator, {"path": str(log)})
    await coordinator.dispatch("prompt:submit", {"prompt": "one"})
    cleanup()
    cleanup()  # idempotent
    assert coordinator.hooks.events() == []
    assert len(coordinator.observers) == 0
    await coordinator.dispatch("prompt:submit", {"prompt": "two"})
    assert [r["data"]["prompt"] for r in records(log)] == ["one"]


async def test_appends_across_sessions(tmp_path: Path) -> None:
    log = tmp_path / "e.jsonl"
    for prompt in ("first", "second"):
        coordinator = await mounted(log)
        await coordinator.dispatch("prompt:submit", {"prompt": prompt})
        await coordinator.cleanup()
    assert [r["data"]["prompt"] for r in records(log)] == ["first", "second"]


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"max_value_chars": 3}, "max_value_chars"),
        ({"events": []}, "at least one event"),
        ({"events": ["TOOL:PRE"]}, "invalid event name"),
        ({"exclude_events": ["tool:$"]}, "invalid event"),
        ({"redact_keys": [""]}, "blank"),
        ({"path": ""}, "path"),
        ({"paht": "x.jsonl"}, "paht"),
        ("events.jsonl", "must be a mapping"),
    ],
)
async def test_bad_config_is_a_clear_error(config: Any, message: str) -> None:
    coordinator = Coordinator()
    with pytest.raises(ValueError, match="ah-logging") as info:
        await mount(coordinator, config)
    assert message in str(info.value)
    assert coordinator.hooks.events() == []


async def test_unwritable_path_fails_at_mount(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    coordinator = Coordinator()
    with pytest.raises(ValueError, match="cannot open"):
        await mount(coordinator, {"path": str(blocker / "events.jsonl")})
    assert coordinator.hooks.events() == []


@pytest.mark.parametrize("now", [0.0, 1764170000.0, 1764170000.5, 1764170000.125, 1764170059.75])
def test_a_records_time_is_written_as_isoformat_writes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, now: float
) -> None:
    """The time of day is formatted once a second; a record still says what
    ``datetime.now(UTC).isoformat()`` says (``Z`` for ``+00:00``), a whole second
    included (isoformat leaves out its zero microseconds)."""
    writer = JsonlWriter(tmp_path / "events.jsonl")
    monkeypatch.setattr(registry_module, "_time", lambda: now)
    assert writer.write("tool:pre", data={})
    writer.close()
    expected = datetime.datetime.fromtimestamp(now, datetime.UTC).isoformat()
    assert records(tmp_path / "events.jsonl")[0]["ts"] == expected.replace("+00:00", "Z")


def test_a_record_keeps_its_field_order_and_its_own_schema_time_and_event(tmp_path: Path) -> None:
    writer = JsonlWriter(tmp_path / "events.jsonl")
    fields = {"extra": 1, "data": {"k": "v"}, "ts": "forged", "schema": "forged"}
    assert writer.write("tool:pre", session_id="s", **fields)
    writer.close()
    (record,) = records(tmp_path / "events.jsonl")
    assert list(record) == ["schema", "ts", "event", "session_id", "data", "extra"]
    assert (record["schema"], record["event"]) == (SCHEMA, "tool:pre")
    assert record["ts"] != "forged"


async def test_mounting_alone_makes_no_log_file(tmp_path: Path) -> None:
    """Reading a bundle (`check`, `install`) mounts it: that leaves nothing behind. The
    file and its folder come with the first record."""
    log = tmp_path / "logs" / "events.jsonl"
    coordinator = Coordinator()
    coordinator.register_cleanup(await mount(coordinator, {"path": str(log)}))
    assert not log.parent.exists()
    await coordinator.dispatch("tool:pre", {"tool_name": "bash"})
    await coordinator.cleanup()
    assert log.is_file()
