"""The record's encoding: the encoder made once writes what `json.JSONEncoder` writes,
and a record it cannot write is a failed write, counted, never raised."""

from __future__ import annotations

import json
import math
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
