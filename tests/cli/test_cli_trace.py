"""Reading traces: every bad line is named by file and line, then stops or is skipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amplifier_hooks.cli.session import DEMO_TRACE
from amplifier_hooks.cli.trace_files import TraceError, parse_line, read_trace

GOOD = '{"event": "tool:pre", "data": {"tool_name": "bash", "tool_input": {"command": "ls"}}}'


def write(tmp_path: Path, *lines: str | bytes) -> Path:
    path = tmp_path / "trace.jsonl"
    path.write_bytes(b"\n".join(x if isinstance(x, bytes) else x.encode() for x in lines) + b"\n")
    return path


def test_reads_events_with_their_line_numbers_and_ignores_blank_lines(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD, "", "   ", '{"event": "prompt:submit", "data": {"prompt": "hi"}}')
    trace = read_trace(path)
    assert [(e.line, e.event) for e in trace.events] == [(1, "tool:pre"), (4, "prompt:submit")]
    assert trace.events[1].data == {"prompt": "hi"}
    assert trace.skipped == []


def test_data_is_optional_and_null_means_empty(tmp_path: Path) -> None:
    trace = read_trace(
        write(tmp_path, '{"event": "session:end"}', '{"event": "a:b", "data": null}')
    )
    assert [e.data for e in trace.events] == [{}, {}]


def test_a_hooks_logging_record_is_accepted(tmp_path: Path) -> None:
    record = {
        "schema": "amplifier-hooks.event/1",
        "ts": "2025-01-01T12:00:00Z",
        "event": "tool:post",
        "session_id": "s-1",
        "data": {"tool_name": "read_file"},
    }
    trace = read_trace(write(tmp_path, json.dumps(record)))
    assert trace.events[0].event == "tool:post"
    assert trace.events[0].data == {"tool_name": "read_file"}


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("{not json", "not valid JSON"),
        ('["tool:pre"]', "expected a JSON object"),
        ('{"data": {}}', "missing 'event'"),
        ('{"event": "Tool Pre"}', "'event' must be an event name"),
        ('{"event": 42}', "'event' must be an event name"),
        ('{"event": "tool:pre", "data": [1]}', "'data' must be a JSON object, got an array"),
        ('{"event": "tool:pre", "dta": {}}', "unknown key(s) 'dta'"),
        (
            '{"event": "tool:pre", "withheld": {"fields": ["data"]}}',
            "withheld this event's data",
        ),
    ],
)
def test_parse_line_says_what_is_wrong(line: str, expected: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_line(line)
    assert expected in str(info.value)


def test_a_bad_line_stops_the_read_naming_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD, GOOD, '{"event": "tool:post", "data": "oops"}', GOOD)
    with pytest.raises(TraceError) as info:
        read_trace(path)
    assert info.value.line == 3
    assert str(info.value).startswith(f"{path}:3: ")
    assert "'data' must be a JSON object, got a string" in str(info.value)


def test_skip_leaves_bad_lines_out_and_reports_each(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD, b"\xff\xfe{", GOOD, "{oops")
    warned: list[TraceError] = []
    trace = read_trace(path, on_bad_line="skip", warn=warned.append)
    assert [e.line for e in trace.events] == [1, 3]
    assert [e.line for e in trace.skipped] == [2, 4]
    assert warned == trace.skipped
    assert "not UTF-8" in warned[0].problem
    assert "not valid JSON" in warned[1].problem


def test_missing_file_and_directory_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(TraceError, match="trace file not found"):
        read_trace(tmp_path / "nope.jsonl")
    with pytest.raises(TraceError, match="is a directory"):
        read_trace(tmp_path)


def test_a_trace_without_events_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(TraceError, match="the file has no events"):
        read_trace(write(tmp_path, "", " "))
    with pytest.raises(TraceError, match="every line was bad"):
        read_trace(write(tmp_path, "{x"), on_bad_line="skip")


def test_unknown_on_bad_line_value_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="on_bad_line"):
        read_trace(write(tmp_path, GOOD), on_bad_line="ignore")  # type: ignore[arg-type]


def test_the_demo_trace_is_valid_and_covers_the_story() -> None:
    trace = read_trace(DEMO_TRACE)
    events = [e.event for e in trace.events]
    assert events[0] == "session:start" and events[-1] == "session:end"
    tools = [e.data.get("tool_name") for e in trace.events if e.event == "tool:pre"]
    assert {"read_file", "bash", "write_file", "edit_file", "todo", "grep", "glob"} <= set(tools)
    # A runaway read loop: at least ten read-only calls in a row.
    streak = best = 0
    for tool in tools:
        streak = streak + 1 if tool in ("read_file", "grep", "glob") else 0
        best = max(best, streak)
    assert best >= 10


def test_a_hooks_logging_v2_record_replays(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    record = {
        "schema": "amplifier-hooks.event/2",
        "ts": "2026-11-22T05:00:00+00:00",
        "event": "tool:pre",
        "session_id": "s1",
        "outcome": {"allowed": False, "action": "deny", "denied_by": "guard"},
        "data": {"tool_name": "bash"},
    }
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    [event] = read_trace(path).events
    assert (event.event, event.data) == ("tool:pre", {"tool_name": "bash"})


def test_a_record_whose_outcome_text_was_withheld_still_replays(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    record = {
        "event": "tool:pre",
        "outcome": {"allowed": False, "reason": "[WITHHELD]"},
        "withheld": {"fields": ["outcome"], "reason": "could not be scrubbed", "error": "Error"},
        "data": {"tool_name": "bash"},
    }
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    [event] = read_trace(path).events
    assert (event.event, event.data) == ("tool:pre", {"tool_name": "bash"})
