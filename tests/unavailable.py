"""What a test does when a tool it drives for real is missing: it skips and says why --
except under ``CI``, where it fails, because CI must run every test (PostgreSQL, Claude
Code, Chromium, amplifier-core 2.x, lint-imports). The one place that rule is written."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NoReturn

import pytest

__all__ = ["agent_cli", "unavailable"]

ROOT = Path(__file__).resolve().parent.parent


def unavailable(reason: str) -> NoReturn:
    """Skip the test with ``reason``; fail it instead when ``$CI`` is set (not empty)."""
    if os.environ.get("CI"):
        pytest.fail(f"CI is set and this test cannot run: {reason}")
    pytest.skip(reason)


def agent_cli(product: str, package: str, program: str) -> Path:
    """The agent CLI ``program`` that ``make PACKAGE`` installs from its pin in
    tools/PACKAGE into .cache/PACKAGE, or `unavailable` saying how to install it."""
    binary = ROOT / ".cache" / package / "node_modules" / ".bin" / program
    if not os.access(binary, os.X_OK):
        unavailable(f"{product} is not installed at {binary} (run `make {package}`)")
    return binary
