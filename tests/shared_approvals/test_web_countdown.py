"""The browser approver's countdown in a real browser (Debian's headless Chromium) says
the time the server has left, whatever the clock of the machine the page runs on, and
however long after the question was queued the page is opened (issue 26, finding 8:
opened 32 s after queueing, the page said "4:58 left, asked 2s ago" when 4:28 was left).

The store's clock is the test's: it moves only when the test moves it, so the server's
side of each expected number is exact. The page runs on real time; what it may have
counted on its own is bounded by the real time each check took (measured, not guessed).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from selenium.webdriver.chrome.webdriver import WebDriver
from selenium.webdriver.common.by import By

from amplifier_hooks.approvals import ApprovalBackend, ApprovalRequest, ApprovalStore, open_store

from .browser import TOKEN, approver, blocking, browsers, log_in, until

__all__ = ["browsers"]  # the fixture, imported to be used here

MINUTE = 60.0


class StoreClock:
    """Epoch seconds that move only when the test says: the clock of the server's store."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


# The page machine's wall clock, off by ``skew`` seconds: Date (with and without
# arguments' help) and performance.timeOrigin, before any script of the page runs.
SKEWED_CLOCK = """(() => {
  const skew = %r * 1000, Real = Date, origin = performance.timeOrigin + skew;
  class Skewed extends Real {
    constructor(...args) { if (args.length) super(...args); else super(Real.now() + skew); }
    static now() { return Real.now() + skew; }
  }
  globalThis.Date = Skewed;
  Object.defineProperty(performance, "timeOrigin", { get: () => origin });
})();"""

READ_CARDS = """return {
  page: Date.now() / 1000,
  cards: Object.fromEntries(Array.from(document.querySelectorAll(".request"), (card) => [
    card.dataset.id,
    {left: card.querySelector(".countdown").textContent,
     asked: card.querySelector(".age").textContent},
  ])),
};"""


def _seconds(countdown: str) -> int:
    """``"4:28 left"`` -> 268; ``"1:02:03 left"`` -> 3723."""
    found = re.fullmatch(r"(?:(\d+):)?(\d+):(\d\d) left", countdown)
    assert found is not None, countdown
    hours, minutes, seconds = (int(part or 0) for part in found.groups())
    return hours * 3600 + minutes * 60 + seconds


def _ago(asked: str) -> int:
    """``"32s ago"`` -> 32 (the page says seconds under two minutes)."""
    found = re.fullmatch(r"(\d+)s ago", asked)
    assert found is not None, asked
    return int(found.group(1))


async def _enqueue(backend: ApprovalBackend, prompt: str, timeout: float) -> int:
    request = ApprovalRequest(
        prompt=prompt, options=["Allow", "Deny"], timeout=timeout, event="tool:pre",
        source="deploy_guard", workspace="/srv/app", details={"tool": "bash", "command": "make"},
    )  # fmt: skip
    return await backend.enqueue(
        request, session_id="agent-7", host="build-3", deadline=backend.now() + timeout
    )


async def _read(driver: WebDriver) -> tuple[dict[str, Any], float]:
    """The page's cards and its clock, and the real time it was asked at (the mean of
    before and after, whose half-difference is below the window the checks allow)."""
    before = time.time()
    seen = await blocking(lambda: driver.execute_script(READ_CARDS))
    return seen, (before + time.time()) / 2


def _check(card: dict[str, str], left: float, asked: float, window: float) -> None:
    """The card says ``left`` seconds to go and ``asked`` seconds since it was queued, by
    the server's clock when the page last heard from it, less what the page has counted
    since on its own (at most ``window`` seconds of real time)."""
    assert left - window <= _seconds(card["left"]) <= left, (card, left, window)
    assert asked <= _ago(card["asked"]) <= asked + window, (card, asked, window)


@pytest.mark.parametrize("skew", [-7 * MINUTE, 3 * 60 * MINUTE], ids=["7min-behind", "3h-ahead"])
async def test_the_countdown_is_the_servers_time_left_whatever_the_pages_clock(
    skew: float, tmp_path: Path, browsers: Callable[[], WebDriver]
) -> None:
    path = tmp_path / "approvals.db"
    clock = StoreClock(float(round(time.time())))
    asked = clock.now
    agent = open_store(ApprovalStore(path, clock=clock))
    try:
        first = await _enqueue(agent, "Deploy now?", 5 * MINUTE)
        async with approver(ApprovalStore(path, clock=clock)) as address:
            # The server has read the queue (and built its state) when it was queued...
            async with aiohttp.ClientSession() as client:
                headers = {"Authorization": f"Bearer {TOKEN}"}
                async with client.get(f"{address}/api/state", headers=headers) as response:
                    state = await response.json()
            assert [view["id"] for view in state["pending"]] == [first]
            # ...and the page is opened 32 s later, on a machine whose clock is off.
            clock.now = asked + 32
            driver = await blocking(browsers)
            source = {"source": SKEWED_CLOCK % skew}
            await blocking(
                lambda: driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", source)
            )
            opened = time.monotonic()
            await log_in(driver, address)
            await until(driver, lambda d: d.find_element(By.ID, f"request-{first}"))
            seen, at = await _read(driver)
            window = time.monotonic() - opened
            assert abs(seen["page"] - at - skew) <= window  # the page's clock is off indeed
            _check(seen["cards"][str(first)], 5 * MINUTE - 32, 32, window)

            # A minute later by the server's clock a second question arrives, live: both
            # cards count from the server's time the update was sent.
            clock.now = asked + 92
            sent = time.monotonic()
            second = await _enqueue(agent, "Migrate the database?", 2 * MINUTE)
            await until(driver, lambda d: d.find_element(By.ID, f"request-{second}"))
            seen, _ = await _read(driver)
            window = time.monotonic() - sent
            _check(seen["cards"][str(first)], 5 * MINUTE - 92, 92, window)
            _check(seen["cards"][str(second)], 2 * MINUTE, 0, window)
    finally:
        await agent.aclose()
