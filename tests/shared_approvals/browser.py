"""Debian's headless Chromium driven by selenium, for the browser approver's tests and
its screenshot script. Selenium Manager never runs (it would download a driver): the
driver and the browser are the Debian packages' own."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
from aiohttp import web
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.chrome.webdriver import WebDriver
from selenium.webdriver.common.selenium_manager import SeleniumManager
from selenium.webdriver.support.ui import WebDriverWait

from amplifier_hooks.approvals.store import StoreTarget, open_store
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
    # A page a test is not looking at is still watched: no throttled timers or IPC for a
    # renderer the browser deems in the background.
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


def _run_loop(loop: asyncio.AbstractEventLoop) -> None:
    asyncio.set_event_loop(loop)
    try:
        loop.run_forever()
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.run_until_complete(loop.shutdown_default_executor())
    finally:
        loop.close()


@asynccontextmanager
async def serving(build: Callable[[], web.Application]) -> AsyncIterator[str]:
    """Serve the app ``build`` makes on a free loopback port, from an event loop in a
    thread of its own; its address.

    Why a thread: a WebDriver command waits for the page's pending navigation, and the
    page waits for this server. Served from the test's own loop, any selenium call made
    on that loop (``driver.current_url``, say, right after a ``get`` that returned before
    the new document committed) left the browser waiting for a server that could not
    answer until the call returned: "Timed out receiving message from renderer" after
    the page-load timeout, in about one run of the module in three on a busy machine."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=_run_loop, args=(loop,), name="server-under-test")
    thread.start()

    async def start() -> tuple[web.AppRunner, str]:
        return await start_site(build(), ServerOptions(port=0))

    def on_server(call: Coroutine[Any, Any, T]) -> Awaitable[T]:
        return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(call, loop))

    try:
        runner, address = await on_server(start())
        try:
            yield address
        finally:
            await on_server(runner.cleanup())
    finally:
        loop.call_soon_threadsafe(loop.stop)
        await asyncio.to_thread(thread.join)


@asynccontextmanager
async def approver(store: StoreTarget, approver: str = "server@test") -> AsyncIterator[str]:
    """An approver server over ``store`` (its own connection, opened and closed on the
    server's loop); its address."""

    def build() -> web.Application:
        backend = open_store(store)
        app = make_approver_app(backend, TOKEN, ApproverSettings(approver=approver))

        async def close_store(app: web.Application) -> None:
            await backend.aclose()

        app.on_cleanup.append(close_store)
        return app

    async with serving(build) as address:
        yield address


async def log_in(driver: WebDriver, address: str, name: str | None = None) -> None:
    """Open the token URL (as the person would), and set who answers."""
    await blocking(lambda: driver.get(f"{address}/?token={TOKEN}"))
    # The token leaves the address bar (the 303 to /): waited for, since ChromeDriver's
    # navigation can return before the new document has committed.
    await until(driver, lambda d: d.current_url == f"{address}/")
    await until(driver, lambda d: d.execute_script("return document.body.dataset.version"))
    if name is not None:
        await blocking(
            lambda: driver.execute_script(
                "const n = document.getElementById('name'); n.value = arguments[0];"
                "n.dispatchEvent(new Event('change'));",
                name,
            )
        )
