"""configure_logging: JSON lines for machines, console lines for people, nothing on import."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
import structlog

from amplifier_hooks import HookRegistry, configure_logging
from amplifier_hooks.logs import get_logger, restored


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    with restored():
        yield
    structlog.reset_defaults()


def test_importing_the_library_configures_nothing() -> None:
    code = (
        "import structlog, amplifier_hooks, amplifier_hooks.engine.registry;"
        "print(structlog.is_configured())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"


async def failing_emit() -> None:
    registry = HookRegistry()

    def broken(event: str, data: dict[str, Any]) -> None:
        raise RuntimeError("kaput")

    registry.register("tool:pre", broken)
    await registry.emit("tool:pre", {})


async def test_json_lines_name_the_failed_handler() -> None:
    stream = io.StringIO()
    configure_logging("json", stream=stream)
    await failing_emit()
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert len(lines) == 1
    record = lines[0]
    assert record["event"] == "hook handler failed"
    assert record["handler"] == "broken"
    assert record["hook_event"] == "tool:pre"
    assert record["failure"] == "raised"
    assert record["level"] == "warning"
    assert record["timestamp"].endswith("Z")
    assert "RuntimeError" in json.dumps(record["exception"])


async def test_console_lines_are_for_people() -> None:
    stream = io.StringIO()
    configure_logging("console", stream=stream)
    await failing_emit()
    text = stream.getvalue()
    assert "hook handler failed" in text
    assert "handler=broken" in text
    assert "\x1b[" not in text  # no colour codes when the stream is not a terminal
    with pytest.raises(json.JSONDecodeError):
        json.loads(text.splitlines()[0])


async def test_the_level_filters_records() -> None:
    stream = io.StringIO()
    configure_logging("json", level="error", stream=stream)
    await failing_emit()  # a warning
    assert stream.getvalue() == ""
    configure_logging("json", level=10, stream=stream)
    await failing_emit()
    assert stream.getvalue()


def test_the_format_defaults_to_json_off_a_terminal() -> None:
    stream = io.StringIO()
    configure_logging(stream=stream)
    get_logger().info("hello", n=1)
    assert json.loads(stream.getvalue())["n"] == 1


def test_bad_settings_are_rejected() -> None:
    with pytest.raises(ValueError, match="log level"):
        configure_logging("json", level="chatty", stream=io.StringIO())
    with pytest.raises(ValueError, match="log format"):
        configure_logging("xml", stream=io.StringIO())  # type: ignore[arg-type]


QUIET_PROGRAM = """
import asyncio, sys, pathlib
from amplifier_hooks import Coordinator
from amplifier_hooks.amplifier.alias import install_amplifier_core_alias

async def main() -> None:
    install_amplifier_core_alias()
    coordinator = await Coordinator.from_bundle(pathlib.Path(sys.argv[1]))
    async def broken(event, data):
        raise RuntimeError("kaput")
    coordinator.hooks.register("tool:pre", broken)
    outcome = await coordinator.dispatch("tool:pre", {"tool_name": "bash"})
    await coordinator.cleanup()
    print("my own output", outcome.allowed)

asyncio.run(main())
"""


def test_a_program_that_configures_no_logging_keeps_stdout_to_itself(tmp_path: Any) -> None:
    """Debug and info stay silent, a warning reaches stderr, stdout is the program's."""
    bundle = tmp_path / "b.yaml"
    log = tmp_path / "events.jsonl"
    bundle.write_text(
        "bundle: {name: quiet}\n"
        f"hooks:\n  - module: ah-logging\n    config: {{path: '{log}'}}\n"
        "  - module: ah-progress-monitor\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", QUIET_PROGRAM, str(bundle)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    assert done.stdout == "my own output True\n"
    assert "hook handler failed" in done.stderr  # a warning, with its fields
    assert "handler='broken'" in done.stderr
    assert "bundle loaded" not in done.stderr  # info stays out unless the host asks


def test_records_carry_their_fields_for_the_hosts_handlers(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level("INFO", logger="amplifier_hooks"):
        get_logger().info("hello %s", n=1)
    (record,) = caplog.records
    assert record.getMessage() == "hello %s n=1"
    assert record.structlog == {"event": "hello %s", "n": 1}  # type: ignore[attr-defined]


def test_a_level_the_host_turned_off_is_not_processed(caplog: pytest.LogCaptureFixture) -> None:
    class Loud:
        def __repr__(self) -> str:
            raise AssertionError("rendered although debug is off")

    with caplog.at_level("INFO", logger="amplifier_hooks"):
        get_logger().debug("hidden", value=Loud())
    assert caplog.records == []


def test_tracebacks_false_keeps_the_line_and_drops_the_traceback() -> None:
    import io

    from amplifier_hooks.logs import configure_logging, get_logger, restored

    for tracebacks in (True, False):
        stream = io.StringIO()
        with restored():
            configure_logging("console", level="warning", stream=stream, tracebacks=tracebacks)
            try:
                raise RuntimeError("disk full")
            except RuntimeError as exc:
                get_logger().warning(
                    "hook handler failed", error="RuntimeError: disk full", exc_info=exc
                )
        text = stream.getvalue()
        assert "hook handler failed" in text and "error='RuntimeError: disk full'" in text
        assert ("Traceback (most recent call last):" in text) is tracebacks
        if not tracebacks:
            assert len(text.splitlines()) == 1


@pytest.mark.parametrize("level", ["debug", "info"])
def test_a_call_below_the_level_returns_before_its_fields_are_touched_and_above_is_kept(
    caplog: pytest.LogCaptureFixture, level: str
) -> None:
    class Loud:
        def __repr__(self) -> str:
            raise AssertionError("rendered although the level is off")

    with caplog.at_level("WARNING", logger="amplifier_hooks"):
        assert getattr(get_logger(), level)("hidden", value=Loud()) is None
    assert caplog.records == []
    with caplog.at_level(level.upper(), logger="amplifier_hooks"):
        getattr(get_logger(), level)("shown", value=1)
    [record] = caplog.records
    assert (record.levelname, record.structlog) == (level.upper(), {"event": "shown", "value": 1})  # type: ignore[attr-defined]
