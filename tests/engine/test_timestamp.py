"""The timestamp every emit stamps: ISO-8601 UTC with microseconds, whatever the clock does."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amplifier_hooks.engine import registry

# Seconds since the epoch, from 1970 to 2200, at any fraction a float clock can give.
epoch_seconds = st.floats(min_value=1.0, max_value=7_258_118_400.0, allow_nan=False)


@given(st.lists(epoch_seconds, min_size=1, max_size=20))
def test_the_stamp_is_the_utc_time_truncated_to_the_microsecond(
    readings: list[float],
) -> None:
    # Any sequence of clock readings, also going back or staying within one second: the
    # per-second prefix must never be stale.
    for now in readings:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(registry, "_time", lambda now=now: now)
            stamp = registry.utc_timestamp()
        second = math.floor(now)
        micros = int((now - second) * 1e6)
        expected = datetime.fromtimestamp(second, UTC).replace(microsecond=micros)
        assert stamp == expected.isoformat(timespec="microseconds")
        assert datetime.fromisoformat(stamp) == expected


def test_the_last_microsecond_of_a_second_stays_in_that_second() -> None:
    now = math.nextafter(1_700_000_001.0, 0.0)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(registry, "_time", lambda: now)
        assert registry.utc_timestamp() == "2023-11-14T22:13:20.999999+00:00"
