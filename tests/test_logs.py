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


@pytest.fixture(autouse=True)
def restore_structlog() -> Iterator[None]:
    yield
    structlog.reset_defaults()


def test_importing_the_library_configures_nothing() -> None:
    code = (
        "import structlog, amplifier_hooks, amplifier_hooks.registry;"
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
    structlog.get_logger("amplifier_hooks").info("hello", n=1)
    assert json.loads(stream.getvalue())["n"] == 1


def test_bad_settings_are_rejected() -> None:
    with pytest.raises(ValueError, match="log level"):
        configure_logging("json", level="chatty", stream=io.StringIO())
    with pytest.raises(ValueError, match="log format"):
        configure_logging("xml", stream=io.StringIO())  # type: ignore[arg-type]
