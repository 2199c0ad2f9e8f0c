"""Debian's headless Chromium driven by selenium, for the browser approver's tests and
its screenshot script. Selenium Manager never runs (it would download a driver): the
driver and the browser are the Debian packages' own."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.chrome.webdriver import WebDriver
from selenium.webdriver.common.selenium_manager import SeleniumManager
from selenium.webdriver.support.ui import WebDriverWait

from amplifier_hooks.approvals import ApprovalBackend, open_store
from amplifier_hooks.web import ServerOptions, start_site
from amplifier_hooks.web.approver import ApproverSettings, make_approver_app
from tests.unavailable import unavailable

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
TOKEN = "browser-test-token-0123456789abcdef"
WAIT = 30.0
"""Seconds a condition may take on a busy machine before the test fails."""

T = TypeVar("T")

FLAGS = (
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--no-first-run", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-default-browser-check", "--disable-extensions",
    # A renderer the browser deems in the background gets its timers and IPC throttled; on
    # a busy machine that left page loads waiting ("Timed out receiving message from
    # renderer") about one run in three, with this project's code or without it.
    "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows", "--disable-ipc-flooding-protection",
)  # fmt: skip


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not path.exists():
            return f"{path} is missing: install Debian's {package} package (make browser)"
    return None


def _no_selenium_manager(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("Selenium Manager was invoked: the driver path must be given")


def chromium(profile: Path, size: tuple[int, int] = (1100, 900)) -> WebDriver:
    """A new headless Chromium with its own profile directory."""
    options = Options()
    options.binary_location = str(CHROMIUM)
    # Navigation returns once the document is parsed; every test then waits for what it
    # needs in the page (`until`), so nothing waits on the load event itself.
    options.page_load_strategy = "eager"
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={size[0]},{size[1]}")
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(WAIT)
    return driver


@pytest.fixture
def browsers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], WebDriver]]:
    """Makes headless Chromiums (quit at the end). Skips with the reason where the Debian
    packages are missing, except under CI, where that is a failure."""
    reason = missing()
    if reason is not None:
        unavailable(reason)
    monkeypatch.setattr(SeleniumManager, "binary_paths", _no_selenium_manager)
    made: list[WebDriver] = []

    def make() -> WebDriver:
        driver = chromium(tmp_path / f"profile-{len(made)}")
        made.append(driver)
        return driver

    yield make
    for driver in made:
        driver.quit()


async def blocking(call: Callable[[], T]) -> T:
    """Run a selenium call off the event loop (the server under test runs on it)."""
    return await asyncio.to_thread(call)


async def until(driver: WebDriver, condition: Callable[[WebDriver], T], timeout: float = WAIT) -> T:
    """Wait for ``condition`` in the page (a WebDriverWait, off the event loop)."""
    wait = WebDriverWait(driver, timeout, poll_frequency=0.05)
    return await asyncio.to_thread(wait.until, condition)


@asynccontextmanager
async def approver(
    store: str, approver: str = "server@test"
) -> AsyncIterator[tuple[str, ApprovalBackend]]:
    """An approver server on a free loopback port over ``store`` (its own connection)."""
    backend = open_store(store)
    app = make_approver_app(backend, TOKEN, ApproverSettings(approver=approver))
    runner, address = await start_site(app, ServerOptions(port=0))
    try:
        yield address, backend
    finally:
        await runner.cleanup()
        await backend.aclose()


async def _navigate(driver: WebDriver, url: str) -> None:
    """``driver.get(url)``, once more if the renderer did not answer in time: Debian's
    Chromium 150 sometimes leaves a fresh profile's first navigation waiting ("Timed out
    receiving message from renderer"), with this project's server old or new, about one
    run of the browser tests in three; the second navigation goes through."""
    try:
        await blocking(lambda: driver.get(url))
    except TimeoutException:
        await blocking(lambda: driver.get(url))


async def log_in(driver: WebDriver, address: str, name: str | None = None) -> None:
    """Open the token URL (as the person would), and set who answers."""
    await _navigate(driver, f"{address}/?token={TOKEN}")
    assert driver.current_url == f"{address}/"  # the token left the address bar
    await until(driver, lambda d: d.execute_script("return document.body.dataset.version"))
    if name is not None:
        await blocking(
            lambda: driver.execute_script(
                "const n = document.getElementById('name'); n.value = arguments[0];"
                "n.dispatchEvent(new Event('change'));",
                name,
            )
        )
