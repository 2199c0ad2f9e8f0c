"""The browser approver in a real browser (Debian's headless Chromium via selenium):
questions from real agents appear live, answers let the agent go on, two browsers race
and one wins, nothing shows without the token, a forged cross-site answer is refused,
and the page fits a phone."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from selenium.webdriver.chrome.webdriver import WebDriver
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support import expected_conditions as ec

from amplifier_hooks.approvals import (
    ApprovalBackend,
    ApprovalDecision,
    ApprovalGate,
    QueueApprovalProvider,
    open_store,
)
from amplifier_hooks.engine.resolution import ApprovalAsk

from .browser import WAIT, approver, blocking, browsers, log_in, serving, until

__all__ = ["browsers"]  # the fixture, imported to be used here

COMMAND = "set -e\nmake build\nmake deploy --target <prod>"
OPTIONS = ["Allow once", "Allow always", "Deny"]


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return str(tmp_path / "approvals.db")


class Agent:
    """A real agent side: a gate whose provider is the shared queue, waiting on it."""

    def __init__(self, store: str, session: str = "agent-7") -> None:
        self.backend: ApprovalBackend = open_store(store)
        self.provider = QueueApprovalProvider(
            self.backend, session_id=session, host="build-3", workspace="/srv/app"
        )
        self.gate = ApprovalGate(self.provider, self.backend, workspace="/srv/app")

    def ask(self, prompt: str, command: str = COMMAND) -> asyncio.Future[ApprovalDecision]:
        ask = ApprovalAsk(
            source="deploy_guard", prompt=prompt, options=OPTIONS, timeout=300, default="deny"
        )
        data = {"tool_name": "bash", "tool_input": {"command": command}}
        return asyncio.ensure_future(self.gate.decide(ask, "tool:pre", data))

    async def queued(self) -> int:
        while self.provider.last_id is None:
            await self.backend.wait_for_change(None, 0.05)
        return self.provider.last_id

    async def aclose(self) -> None:
        await self.gate.aclose()
        await self.backend.aclose()


@pytest.fixture
async def agent(request: pytest.FixtureRequest) -> AsyncIterator[Callable[[str], Agent]]:
    made: list[Agent] = []

    def make(store: str) -> Agent:
        made.append(Agent(store))
        return made[-1]

    yield make
    for one in made:
        await one.aclose()


def _card(ident: int) -> Callable[[WebDriver], WebElement]:
    return lambda d: d.find_element(By.ID, f"request-{ident}")


def _button(ident: int, option: str) -> Any:
    return ec.element_to_be_clickable(
        (By.CSS_SELECTOR, f'#request-{ident} button[data-choice="{option}"]')
    )


def _text(element: WebElement) -> str:
    return str(element.get_attribute("textContent"))


async def _click(driver: WebDriver, ident: int, option: str) -> None:
    button = await until(driver, _button(ident, option))
    await blocking(button.click)


async def test_a_question_appears_live_and_allow_lets_the_agent_go_on(
    either_store: str, browsers: Callable[[], WebDriver], agent: Callable[[str], Agent]
) -> None:
    async with approver(either_store) as address:
        driver = await blocking(browsers)
        await log_in(driver, address, "alice")
        await until(driver, lambda d: d.find_element(By.ID, "empty").is_displayed())
        await blocking(lambda: driver.execute_script("window.sameDocument = true"))
        asker = agent(either_store)
        asking = asker.ask("Deploy <b>now</b>?\nThe build is green.")
        ident = await asker.queued()
        card = await until(driver, _card(ident))
        # Pushed to the open page: no reload happened.
        assert await blocking(lambda: driver.execute_script("return window.sameDocument"))
        # Everything the agent wrote is shown as text, with its line breaks.
        assert _text(card.find_element(By.CLASS_NAME, "prompt")) == (
            "Deploy <b>now</b>?\nThe build is green."
        )
        assert card.find_elements(By.TAG_NAME, "b") == []
        details = card.find_elements(By.CSS_SELECTOR, ".details dt")
        assert [_text(d) for d in details] == ["command"]
        assert _text(card.find_element(By.CSS_SELECTOR, ".details pre")) == COMMAND
        assert _text(card.find_element(By.CLASS_NAME, "tool")) == "bash"
        meta = _text(card.find_element(By.CLASS_NAME, "meta"))
        for shown in ("agent-7", "build-3", "/srv/app", "deploy_guard"):
            assert shown in meta
        assert _text(card.find_element(By.CLASS_NAME, "memory")) == (
            '"Allow always": don\'t ask again for this request, in /srv/app'
        )
        countdown = await until(
            driver, lambda d: _text(card.find_element(By.CLASS_NAME, "countdown")) or None
        )
        assert countdown.endswith(" left")
        await _click(driver, ident, "Allow once")
        decision = await asyncio.wait_for(asking, WAIT)
        assert (decision.allowed, decision.via, decision.choice) == (True, "person", "Allow once")
        row = await asker.backend.pending(ident)
        assert row is not None and row.answered_by == "alice (web)"
        await until(
            driver,
            lambda d: (
                'answered "Allow once" by alice (web)' in _text(d.find_element(By.ID, "history"))
            ),
        )


async def test_deny_in_the_browser_denies(
    sqlite_url: str, browsers: Callable[[], WebDriver], agent: Callable[[str], Agent]
) -> None:
    async with approver(sqlite_url) as address:
        driver = await blocking(browsers)
        await log_in(driver, address, "alice")
        asker = agent(sqlite_url)
        asking = asker.ask("Delete the cache?", "rm -rf ~/.cache")
        ident = await asker.queued()
        await _click(driver, ident, "Deny")
        decision = await asyncio.wait_for(asking, WAIT)
        assert (decision.allowed, decision.via, decision.choice) == (False, "person", "Deny")
        await until(driver, lambda d: not d.find_elements(By.ID, f"request-{ident}"))


async def test_two_browsers_race_one_wins_and_the_other_sees_who(
    sqlite_url: str, browsers: Callable[[], WebDriver], agent: Callable[[str], Agent]
) -> None:
    async with approver(sqlite_url) as address:
        alice, bob = await blocking(browsers), await blocking(browsers)
        await log_in(alice, address, "alice")
        asker = agent(sqlite_url)
        first = asker.ask("First question?")
        ident = await asker.queued()
        await until(alice, _card(ident))
        # Bob's page gets no live updates (as on a slow phone network), so it still
        # offers the question after Alice has answered it.
        await blocking(lambda: bob.execute_cdp_cmd("Network.enable", {}))
        await blocking(
            lambda: bob.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/events*"]})
        )
        await log_in(bob, address, "bob")
        await until(bob, _card(ident))
        await _click(alice, ident, "Allow once")
        decision = await asyncio.wait_for(first, WAIT)
        assert (decision.allowed, decision.choice) == (True, "Allow once")
        await _click(bob, ident, "Deny")
        told = f"request {ident} was already answered 'Allow once' by alice (web)"
        await until(
            bob,
            lambda d: _text(d.find_element(By.CSS_SELECTOR, f"#request-{ident} .outcome")) == told,
        )
        assert _text(bob.find_element(By.ID, "flash")) == told
        row = await asker.backend.pending(ident)
        assert row is not None and (row.choice, row.answered_by) == ("Allow once", "alice (web)")

        # Now Bob is first: Alice's live page drops the question and says who answered.
        second = asker.ask("Second question?")
        await until(alice, _card(ident + 1))
        await blocking(lambda: bob.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []}))
        await blocking(bob.refresh)
        await _click(bob, ident + 1, "Deny")
        decision = await asyncio.wait_for(second, WAIT)
        assert (decision.allowed, decision.choice) == (False, "Deny")
        await until(alice, lambda d: not d.find_elements(By.ID, f"request-{ident + 1}"))
        assert _text(alice.find_element(By.ID, "flash")) == (
            f'Request #{ident + 1} was answered "Deny" by bob (web).'
        )
        assert 'answered "Deny" by bob (web)' in _text(alice.find_element(By.ID, "history"))


async def test_without_the_token_the_browser_sees_nothing_pending(
    sqlite_url: str, browsers: Callable[[], WebDriver], agent: Callable[[str], Agent]
) -> None:
    async with approver(sqlite_url) as address:
        asker = agent(sqlite_url)
        asking = asker.ask("Secret question about prod-db-7?")
        await asker.queued()
        driver = await blocking(browsers)
        for path in ("/", "/?token=not-the-token", "/api/state", "/api/session"):
            await blocking(lambda path=path: driver.get(f"{address}{path}"))
            # ChromeDriver's navigation can return before the new document has its text
            # (an empty <pre> of a text/plain answer was read once): wait for the refusal
            # in the document at this address, then look at everything it holds.
            source = await until(driver, functools.partial(_refusal, url=f"{address}{path}"))
            assert source is not None and "prod-db-7" not in source, path
        assert not asking.done()
        asking.cancel()


def _refusal(driver: WebDriver, url: str) -> str | None:
    """The page's source once the document at ``url`` says this browser is not let in."""
    if driver.current_url != url:
        return None
    source = driver.page_source
    return source if "Not logged in" in source or "missing or wrong token" in source else None


EVIL_PAGE = """<!doctype html><html><body>
<form id="forged" method="POST" action="{target}/api/answer" enctype="text/plain">
<input type="hidden" name='{{"id": {ident}, "choice": "Allow once", "x": "' value='"}}'>
</form>
<script>
fetch("{target}/api/answer", {{method: "POST", mode: "no-cors", credentials: "include",
  headers: {{"Content-Type": "text/plain"}},
  body: JSON.stringify({{id: {ident}, choice: "Allow once"}})}})
  .finally(() => document.getElementById("forged").submit());
</script></body></html>"""


async def test_a_forged_cross_site_answer_is_refused(
    sqlite_url: str, browsers: Callable[[], WebDriver], agent: Callable[[str], Agent]
) -> None:
    async with approver(sqlite_url) as address:
        driver = await blocking(browsers)
        await log_in(driver, address, "alice")
        asker = agent(sqlite_url)
        asking = asker.ask("Push to main?")
        ident = await asker.queued()
        await until(driver, _card(ident))
        # Another origin on the same loopback host (the same *site*, so even the
        # SameSite=Strict cookie goes along) that posts an answer as soon as it loads.
        evil = web.Application()
        page = EVIL_PAGE.format(target=address, ident=ident)

        async def serve_page(request: web.Request) -> web.Response:
            return web.Response(text=page, content_type="text/html")

        evil.router.add_get("/", serve_page)
        async with serving(lambda: evil) as evil_address:
            await blocking(lambda: driver.get(f"{evil_address}/"))
            # The form lands on the approver, which refuses it: 403, not 401, so the
            # login cookie was sent and it is the origin check that stopped it.
            await until(driver, lambda d: d.current_url == f"{address}/api/answer")
            body = await until(driver, lambda d: d.find_element(By.TAG_NAME, "body").text)
            assert body == f"refused: origin '{evil_address}' is not this server"
        row = await asker.backend.pending(ident)
        assert row is not None and row.status == "pending"
        assert not asking.done()
        asking.cancel()


async def test_the_page_fits_a_phone(
    sqlite_url: str, browsers: Callable[[], WebDriver], agent: Callable[[str], Agent]
) -> None:
    async with approver(sqlite_url) as address:
        driver = await blocking(browsers)
        metrics = {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True}
        await blocking(
            lambda: driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        )
        await log_in(driver, address, "alice")
        asker = agent(sqlite_url)
        long_word = "x" * 400  # no spaces: must wrap, not widen the page
        asking = asker.ask("Run the migration?", f"psql -c '{long_word}'\n./migrate.sh")
        ident = await asker.queued()
        await until(driver, _button(ident, "Deny"))
        layout = await blocking(
            lambda: driver.execute_script(
                "const card = document.getElementById(arguments[0]);"
                "return {width: window.innerWidth,"
                " scroll: document.documentElement.scrollWidth,"
                " buttons: Array.from(card.querySelectorAll('button.option'), (b) => {"
                "   const r = b.getBoundingClientRect();"
                "   return {left: r.left, right: r.right, height: r.height, text: b.textContent};"
                " })};",
                f"request-{ident}",
            )
        )
        assert layout["width"] == 390
        assert layout["scroll"] <= 390  # no horizontal scrolling
        assert [b["text"] for b in layout["buttons"]] == OPTIONS
        for button in layout["buttons"]:
            assert button["left"] >= 0 and button["right"] <= 390, button
            assert button["height"] >= 44, button  # a finger-sized target
        await _click(driver, ident, "Allow once")
        decision = await asyncio.wait_for(asking, WAIT)
        assert decision.allowed
