"""Fixtures shared by tests/ and the modules' own tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import structlog


@pytest.fixture
def logs() -> Iterator[list[dict[str, Any]]]:
    """Structured log records emitted during the test (structlog's capture)."""
    with structlog.testing.capture_logs() as captured:
        yield captured
