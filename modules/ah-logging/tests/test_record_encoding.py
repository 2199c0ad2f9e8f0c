"""The record's encoding: the encoder made once writes what `json.JSONEncoder` writes,
and a record it cannot write is a failed write, counted, never raised."""

from __future__ import annotations

import io
import json
import math
import os
from pathlib import Path
from typing import Any

from amplifier_module_ah_logging.writer import _ENCODER, JsonlWriter, _dumps
from hypothesis import given, settings
from hypothesis import strategies as st

_plain = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),  # lone surrogates and non-ASCII included: written as they are
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(), _plain, max_size=6))
def test_a_record_is_encoded_as_the_json_encoder_writes_it(record: dict[str, Any]) -> None:
    assert _dumps(record) == _ENCODER.encode(record)


def test_values_json_cannot_hold_are_failed_writes_not_raised(tmp_path: Path) -> None:
    writer = JsonlWriter(tmp_path / "events.jsonl")
    cycle: dict[str, Any] = {}
    cycle["self"] = cycle
    assert writer.write("a", data=cycle) is False  # no cycle markers: ends in RecursionError
    assert writer.write("b", data={"x": math.nan}) is False
    assert writer.write("c", data={"x": object()}) is False
    assert writer.write("d", data={"x": 1}) is True
    writer.close()
    assert (writer.written, writer.dropped) == (1, 3)
    lines = (tmp_path / "events.jsonl").read_text().splitlines()
    assert [json.loads(line)["event"] for line in lines] == ["d"]


def test_a_lone_surrogate_is_written_escaped_and_the_line_still_decodes(tmp_path: Path) -> None:
    writer = JsonlWriter(tmp_path / "events.jsonl")
    assert writer.write("e", data={"text": "a\ud800b", "é": "ü"}) is True
    writer.close()
    raw = (tmp_path / "events.jsonl").read_bytes()
    assert raw.endswith(os.linesep.encode()) and raw.count(b"\n") == 1
    assert b"a\\ud800b" in raw  # the escape text mode's backslashreplace wrote
    assert json.loads(raw)["data"]["\u00e9"] == "\u00fc"  # UTF-8, not escaped


class _ShortWrites(io.RawIOBase):
    """A file that takes at most three bytes per write, as a nearly full disk might."""

    def __init__(self) -> None:
        self.taken = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        piece = bytes(data[:3])
        self.taken += piece
        return len(piece)


def test_a_short_write_goes_on_with_the_rest_of_the_line(tmp_path: Path) -> None:
    writer = JsonlWriter(tmp_path / "events.jsonl")  # a new log: opened at its first record
    short = _ShortWrites()
    writer._file = short  # type: ignore[assignment]
    assert writer.write("e", data={"x": "y" * 50}) is True
    record = json.loads(bytes(short.taken))
    assert (record["event"], record["data"]) == ("e", {"x": "y" * 50})
