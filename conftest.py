"""Fixtures shared by tests/ and the modules' own tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from amplifier_hooks.testing import capture_logs


@pytest.fixture(autouse=True)
def _no_store_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """``$AMPLIFIER_HOOKS_STORE`` comes before a bundle's approval store, so a value in
    the developer's shell would send every test's approvals there: tests set it
    themselves when they mean to."""
    monkeypatch.delenv("AMPLIFIER_HOOKS_STORE", raising=False)


@pytest.fixture
def logs() -> Iterator[list[dict[str, Any]]]:
    """Structured log records emitted during the test (structlog's capture)."""
    with capture_logs() as captured:
        yield captured


class ManualClock:
    """A monotonic clock that moves only when told to.

    Passed as ``clock=`` to a `HookRegistry` or `ContributionChannels`, it lets a test make a
    handler "take" any time without sleeping (``clock.advance(0.35)`` inside the handler is a
    handler that blocked the loop for 0.35 s), so the outcome cannot depend on how busy the
    machine is.
    """

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> ManualClock:
    """A `ManualClock` (see there)."""
    return ManualClock()


@pytest.fixture(params=[30.0, None], ids=["with-timeout", "no-timeout"])
def registry(request: pytest.FixtureRequest) -> Any:
    """A `HookRegistry` with and without a default timeout: a handler that suspends is
    driven on under a timer in the one case, without one in the other."""
    from amplifier_hooks import HookRegistry

    return HookRegistry(default_timeout=request.param)
