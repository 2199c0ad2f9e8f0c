"""Reading session traces: JSONL files of events to replay through a coordinator.

A trace is UTF-8 text, one JSON object per line: ``{"event": "tool:pre", "data": {...}}``.
Blank lines are ignored; there are no comments (JSON has none, and a trace should stay
readable by any JSONL tool). The record layout ah-logging writes (``schema``, ``ts``,
``session_id`` beside ``event`` and ``data``) is accepted too, so a recorded session can be
replayed against another bundle. A Claude Code transcript (``~/.claude/projects/…/
<session>.jsonl``) is recognised by its first line and read as the events its hooks would
have sent (`amplifier_hooks.hosts.claude_code.transcript`). The whole file is checked
before anything is replayed, so a bad line stops a run before any hook has seen an event.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from amplifier_hooks.events import is_valid_event_name

OnBadLine = Literal["stop", "skip"]

_KEYS = frozenset({"event", "data"})
_LOG_KEYS = frozenset({"schema", "ts", "session_id", "outcome", "withheld"})
"""Keys of a ah-logging record that carry no event data: accepted and ignored."""


class TraceError(ValueError):
    """A trace that cannot be replayed: the file, the line where known, and what is wrong."""

    def __init__(self, path: str | os.PathLike[str], problem: str, line: int | None = None):
        self.path = str(path)
        self.line = line
        self.problem = problem
        where = self.path if line is None else f"{self.path}:{line}"
        super().__init__(f"{where}: {problem}")


@dataclass(frozen=True)
class TraceEvent:
    """One event of a trace, with the line it came from (1-based)."""

    line: int
    event: str
    data: dict[str, Any]


@dataclass
class Trace:
    """The events of a trace file, in order, and the lines left out (``--on-bad-line skip``)."""

    path: Path
    events: list[TraceEvent] = field(default_factory=list)
    skipped: list[TraceError] = field(default_factory=list)


def parse_line(text: str) -> tuple[str, dict[str, Any]]:
    """The event name and data of one trace line; `ValueError` saying what is wrong."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(record, dict):
        raise ValueError(
            f'expected a JSON object {{"event": ..., "data": {{...}}}}, got {_kind(record)}'
        )
    unknown = sorted(set(record) - _KEYS - _LOG_KEYS)
    if unknown:
        raise ValueError(
            f"unknown key(s) {', '.join(map(repr, unknown))}: expected 'event' and 'data'"
        )
    if "event" not in record:
        raise ValueError("missing 'event' (an event name such as \"tool:pre\")")
    event = record["event"]
    if not is_valid_event_name(event):
        raise ValueError(
            f"'event' must be an event name such as \"tool:pre\" "
            f"(lowercase 'namespace:name'), got {json.dumps(event)[:80]}"
        )
    if "withheld" in record and "data" not in record:
        # Replaying it with empty data would be a different event from the one recorded.
        raise ValueError(
            "ah-logging withheld this event's data (it could not be scrubbed): "
            "it cannot be replayed"
        )
    data = record.get("data", {})
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ValueError(f"'data' must be a JSON object, got {_kind(data)}")
    return event, data


def _kind(value: object) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", int: "a number"}
    names |= {float: "a number", type(None): "null", dict: "an object"}
    return names.get(type(value), type(value).__name__)


class _Blank(Exception):
    """A line with nothing on it (skipped without a word)."""


def _decode(chunk: bytes) -> tuple[str, dict[str, Any]]:
    try:
        text = chunk.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 text (byte {exc.start + 1})") from None
    if not text.strip():
        raise _Blank
    return parse_line(text)


def read_trace(
    path: str | os.PathLike[str],
    *,
    on_bad_line: OnBadLine = "stop",
    warn: Callable[[TraceError], None] | None = None,
) -> Trace:
    """Read and check the whole trace at ``path``.

    A bad line raises `TraceError` naming file and line (``on_bad_line="stop"``), or is left
    out, passed to ``warn`` and listed in `Trace.skipped` (``"skip"``). A missing or
    unreadable file, or a trace without a single event, is always a `TraceError`.
    """
    if on_bad_line not in ("stop", "skip"):
        raise ValueError(f"on_bad_line must be 'stop' or 'skip', got {on_bad_line!r}")
    file = Path(path)
    try:
        raw = file.read_bytes()
    except FileNotFoundError:
        raise TraceError(path, "trace file not found") from None
    except IsADirectoryError:
        raise TraceError(path, "is a directory, not a trace file") from None
    except OSError as exc:
        raise TraceError(path, f"cannot read the trace: {exc.strerror or exc}") from None
    trace = Trace(file)
    if _is_transcript(raw):
        _read_transcript(raw, trace, on_bad_line, warn)
    else:
        _read_events(raw, trace, on_bad_line, warn)
    if not trace.events:
        what = "every line was bad" if trace.skipped else "the file has no events"
        raise TraceError(path, f"nothing to replay: {what}")
    return trace


def _is_transcript(raw: bytes) -> bool:
    from amplifier_hooks.hosts.claude_code.transcript import looks_like_transcript

    for chunk in raw.splitlines():
        if chunk.strip():
            try:
                first = json.loads(chunk)
            except ValueError:
                return False
            return isinstance(first, dict) and looks_like_transcript(first)
    return False


def _bad(
    trace: Trace,
    error: TraceError,
    on_bad_line: OnBadLine,
    warn: Callable[[TraceError], None] | None,
) -> None:
    if on_bad_line == "stop":
        raise error from None
    trace.skipped.append(error)
    if warn is not None:
        warn(error)


def _read_transcript(
    raw: bytes,
    trace: Trace,
    on_bad_line: OnBadLine,
    warn: Callable[[TraceError], None] | None,
) -> None:
    from amplifier_hooks.hosts.claude_code.transcript import TranscriptReader, decode

    reader = TranscriptReader(str(trace.path))
    for number, chunk in enumerate(raw.splitlines(), start=1):
        if not chunk.strip():
            continue
        try:
            reader.feed(number, decode(chunk.decode("utf-8")))
        except ValueError as exc:  # UnicodeDecodeError among them
            if isinstance(exc, UnicodeDecodeError):
                why = f"not UTF-8 text (byte {exc.start + 1})"
            else:
                why = f"Claude Code transcript: {exc}"
            _bad(trace, TraceError(trace.path, why, number), on_bad_line, warn)
    trace.events.extend(TraceEvent(e.line, e.event, e.data) for e in reader.finish())


def _read_events(
    raw: bytes,
    trace: Trace,
    on_bad_line: OnBadLine,
    warn: Callable[[TraceError], None] | None,
) -> None:
    path = trace.path
    for number, chunk in enumerate(raw.splitlines(), start=1):
        try:
            event, data = _decode(chunk)
        except _Blank:
            continue
        except ValueError as exc:
            _bad(trace, TraceError(path, str(exc), number), on_bad_line, warn)
        else:
            trace.events.append(TraceEvent(number, event, data))
