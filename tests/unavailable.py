"""What a test does when a tool it drives for real is missing: it skips and says why --
except under ``CI``, where it fails, because CI must run every test (PostgreSQL, Claude
Code, Chromium, amplifier-core 2.x, lint-imports). The one place that rule is written."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

__all__ = ["unavailable"]


def unavailable(reason: str) -> NoReturn:
    """Skip the test with ``reason``; fail it instead when ``$CI`` is set (not empty)."""
    if os.environ.get("CI"):
        pytest.fail(f"CI is set and this test cannot run: {reason}")
    pytest.skip(reason)
