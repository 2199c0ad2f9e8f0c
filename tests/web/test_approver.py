"""The browser approver over HTTP: login, what is refused without the token or from
another site, answers (one winner), the live feed, and the `approve --web` options."""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import pytest

from amplifier_hooks.approvals import ApprovalBackend, ApprovalRequest, open_store
from amplifier_hooks.approvals.queue import QUEUED_FIELD_LIMIT, queued_details
from amplifier_hooks.approvals.requests import build_request
from amplifier_hooks.cli import main as cli_main
from amplifier_hooks.engine.resolution import ApprovalAsk
from amplifier_hooks.web import ServerOptions, start_site
from amplifier_hooks.web.approver import (
    COOKIE,
    CSRF_HEADER,
    ApproverSettings,
    csrf_token,
    make_approver_app,
)

TOKEN = "approver-test-token-0123456789abcdef"
HOSTILE = "rm -rf / <img src=x onerror=alert(1)>\x1b[2J\u202eevil"


@asynccontextmanager
async def approver(tmp_path: Path) -> AsyncIterator[tuple[str, ApprovalBackend]]:
    backend = open_store(str(tmp_path / "approvals.db"))
    app = make_approver_app(backend, TOKEN, ApproverSettings(approver="server@test"))
    runner, address = await start_site(app, ServerOptions(port=0))
    try:
        yield address, backend
    finally:
        await runner.cleanup()
        await backend.aclose()


async def _queue(backend: ApprovalBackend, prompt: str = HOSTILE) -> int:
    request = ApprovalRequest(
        prompt=prompt, options=["Allow", "Allow always", "Deny"], timeout=300, event="tool:pre",
        source="guard", workspace="/w", remember_scope="/w",
        details={"tool": "bash", "command": "make\ndeploy"},
    )  # fmt: skip
    return await backend.enqueue(request, session_id="s1", host="h1", deadline=time.time() + 300)


def _logged_in(address: str) -> dict[str, str]:
    return {"Cookie": f"{COOKIE}=" + _cookie(), "Origin": address}


def _cookie() -> str:
    from amplifier_hooks.web import Credentials

    return Credentials(TOKEN, cookie_name=COOKIE).cookie_value()


def _answer_headers(address: str) -> dict[str, str]:
    return {**_logged_in(address), CSRF_HEADER: csrf_token(TOKEN), "Sec-Fetch-Site": "same-origin"}


async def test_the_token_url_logs_a_browser_in_and_leaves_the_address_bar(
    tmp_path: Path,
) -> None:
    async with approver(tmp_path) as (address, backend), aiohttp.ClientSession() as client:
        await _queue(backend)
        async with client.get(f"{address}/?token={TOKEN}", allow_redirects=False) as response:
            assert response.status == 303
            assert response.headers["Location"] == "/"
            cookie = response.headers["Set-Cookie"]
        assert f"{COOKIE}={_cookie()}" in cookie
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
        assert TOKEN not in cookie  # the cookie is derived from the token, not the token
        async with client.get(f"{address}/", headers=_logged_in(address)) as response:
            assert response.status == 200
            page = await response.text()
            assert "approver.js" in page
            csp = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "default-src 'none'" in csp
        assert "unsafe-inline" not in csp


async def test_without_the_token_nothing_pending_is_shown_or_answerable(tmp_path: Path) -> None:
    async with approver(tmp_path) as (address, backend), aiohttp.ClientSession() as client:
        ident = await _queue(backend, "secret-prompt-text")
        for path in ("/", "/?token=wrong-token", "/api/state", "/api/session", "/api/events",
                     "/static/approver.js"):  # fmt: skip
            async with client.get(f"{address}{path}") as response:
                assert response.status == 401, path
                body = await response.text()
                assert "secret-prompt-text" not in body
                assert "Content-Security-Policy" in response.headers
        body = json.dumps({"id": ident, "choice": "Allow"})
        headers = {CSRF_HEADER: csrf_token(TOKEN), "Content-Type": "application/json"}
        async with client.post(f"{address}/api/answer", data=body, headers=headers) as response:
            assert response.status == 401
        row = await backend.pending(ident)
        assert row is not None and row.status == "pending"


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"Origin": "http://127.0.0.1:1"}, "origin 'http://127.0.0.1:1' is not this server"),
        (
            {"Sec-Fetch-Site": "same-site"},
            "the request comes from another site (Sec-Fetch-Site: same-site)",
        ),
        ({CSRF_HEADER: ""}, "missing or wrong X-Approver-CSRF header"),
        ({CSRF_HEADER: "0" * 64}, "missing or wrong X-Approver-CSRF header"),
        ({"Content-Type": "text/plain"}, "the body must be JSON"),
    ],
)
async def test_an_answer_from_another_site_is_refused(
    tmp_path: Path, change: dict[str, str], reason: str
) -> None:
    async with approver(tmp_path) as (address, backend), aiohttp.ClientSession() as client:
        ident = await _queue(backend)
        headers = {**_answer_headers(address), "Content-Type": "application/json", **change}
        body = json.dumps({"id": ident, "choice": "Allow"})
        async with client.post(f"{address}/api/answer", data=body, headers=headers) as response:
            assert response.status == 403
            assert await response.text() == f"refused: {reason}\n"
        row = await backend.pending(ident)
        assert row is not None and row.status == "pending"


async def test_exactly_one_answer_wins_and_the_loser_is_told_who(tmp_path: Path) -> None:
    async with approver(tmp_path) as (address, backend), aiohttp.ClientSession() as client:
        ident = await _queue(backend)
        url = f"{address}/api/answer"
        headers = _answer_headers(address)

        async def send(choice: str, name: str) -> tuple[int, dict[str, object]]:
            payload = {"id": ident, "choice": choice, "name": name}
            async with client.post(url, json=payload, headers=headers) as response:
                return response.status, await response.json()

        replies = await asyncio.gather(send("Allow", "alice"), send("Deny", "bob"))
        assert [status for status, _ in replies] == [200, 200]
        winners = [reply for _, reply in replies if reply["won"]]
        losers = [reply for _, reply in replies if not reply["won"]]
        assert len(winners) == 1 and len(losers) == 1
        row = await backend.pending(ident)
        assert row is not None and row.status == "answered"
        assert row.answered_by in ("alice (web)", "bob (web)")
        assert losers[0]["message"] == (
            f"request {ident} was already answered {row.choice!r} by {row.answered_by}"
        )


async def test_a_script_with_the_bearer_token_needs_no_browser_checks(tmp_path: Path) -> None:
    async with approver(tmp_path) as (address, backend), aiohttp.ClientSession() as client:
        ident = await _queue(backend)
        payload = {"id": ident, "choice": "Deny", "name": "ci-bot"}
        headers = {"Authorization": f"Bearer {TOKEN}"}
        async with client.post(f"{address}/api/answer", json=payload, headers=headers) as reply:
            assert reply.status == 200
            assert (await reply.json())["won"] is True
        row = await backend.pending(ident)
        assert row is not None and (row.choice, row.answered_by) == ("Deny", "ci-bot (web)")


async def test_bad_answers_get_clear_errors_and_bodies_are_capped(tmp_path: Path) -> None:
    async with approver(tmp_path) as (address, backend), aiohttp.ClientSession() as client:
        ident = await _queue(backend)
        url = f"{address}/api/answer"
        headers = _answer_headers(address)
        cases = [
            ({"id": ident, "choice": "Yes please"}, 400,
             f"that is not one of the options of request {ident}"),
            ({"id": ident + 99, "choice": "Allow"}, 404, f"no queued request {ident + 99} in"),
            ({"id": "1", "choice": "Allow"}, 400, "id must be the number of a request"),
            ({"id": True, "choice": "Allow"}, 400, "id must be the number of a request"),
            ([1, 2], 400, "the body must be a JSON object"),
        ]  # fmt: skip
        for payload, status, message in cases:
            async with client.post(url, json=payload, headers=headers) as response:
                assert response.status == status, payload
                assert (await response.json())["message"].startswith(message)
        big = {"id": ident, "choice": "Allow", "name": "x" * 20_000}
        async with client.post(url, json=big, headers=headers) as response:
            assert response.status == 413
        row = await backend.pending(ident)
        assert row is not None and row.status == "pending"


async def test_the_feed_pushes_a_new_question_without_a_reload(tmp_path: Path) -> None:
    async with (
        approver(tmp_path) as (address, backend),
        aiohttp.ClientSession() as client,
        client.get(f"{address}/api/events", headers=_logged_in(address)) as stream,
    ):
        assert stream.headers["Content-Type"] == "text/event-stream"
        states = _states(stream)
        first = await anext(states)
        while first.get("loading"):
            first = await anext(states)
        assert first["pending"] == []
        ident = await _queue(backend)
        state = await anext(states)
        [view] = state["pending"]
        assert view["id"] == ident
        # Shown as text: control characters escaped, markup left as it is (the page
        # puts it in text nodes), the command whole with its line break.
        assert view["prompt"] == "rm -rf / <img src=x onerror=alert(1)>\\x1b[2J\\u202eevil"
        assert ["command", "make\ndeploy"] in view["details"]
        assert view["memory"] == '"Allow always": don\'t ask again for this request, in /w'
        assert [o["kind"] for o in view["options"]] == ["allow", "allow-always", "deny"]
        await backend.answer(ident, "Deny", "carol")
        state = await anext(states)
        assert state["pending"] == []
        [over] = state["history"]
        assert (over["state"], over["choice"], over["answered_by"]) == (
            "answered", "Deny", "carol"
        )  # fmt: skip


async def _states(stream: aiohttp.ClientResponse) -> AsyncIterator[dict[str, object]]:
    event = None
    async for raw in stream.content:
        line = raw.decode().rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event == "state":
            yield json.loads(line[6:])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--web", "--host", "0.0.0.0"], "unless you pass --allow-remote"),
        (["--port", "9000"], "--host, --port, --allow-remote, --certfile and --keyfile go with"),
        (["--web", "--certfile", "c.pem"], "--certfile and --keyfile go together"),
        (["--web", "--list"], "--web serves the console; it takes no ID, --list or --prune"),
    ],
)
def test_approve_web_refuses_unsafe_or_mixed_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.setenv("AMPLIFIER_HOOKS_TOKEN", TOKEN)
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    store = str(tmp_path / "approvals.db")
    code = cli_main(["approve", "--store", store, *args])
    assert code == 2
    assert message in err.getvalue()
    assert out.getvalue() == ""


async def test_approve_web_prints_the_login_address_and_stops_on_sigint(tmp_path: Path) -> None:
    store = str(tmp_path / "approvals.db")
    backend = open_store(store)
    ident = await _queue(backend, "from the command line?")
    env = {**os.environ, "AMPLIFIER_HOOKS_TOKEN": TOKEN}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "amplifier_hooks.cli", "approve", "--web", "--port", "0",
        "--store", store, "--as", "carol@desk",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env,
    )  # fmt: skip
    try:
        assert process.stdout is not None and process.stderr is not None
        url = (await asyncio.wait_for(process.stdout.readline(), 60)).decode().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith(f"/?token={TOKEN}")
        note = (await process.stderr.readline()).decode()
        assert note.startswith(f"approver console for {store} at http://127.0.0.1:")
        assert "token from $AMPLIFIER_HOOKS_TOKEN" in note and TOKEN not in note
        jar = aiohttp.CookieJar(unsafe=True)  # the cookie of an IP address host
        async with aiohttp.ClientSession(cookie_jar=jar) as client:
            async with client.get(url) as page:  # follows the 303 to /
                assert page.status == 200 and str(page.url) == url.split("?")[0]
            async with client.get(url.split("?")[0] + "api/session") as session:
                assert (await session.json())["approver"] == "carol@desk"
            async with client.get(url.split("?")[0] + "api/state") as state:
                [view] = (await state.json())["pending"]
                assert view["id"] == ident
        process.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(process.wait(), 60) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        await backend.aclose()


def test_the_queue_keeps_a_command_whole_and_says_where_it_cut_one() -> None:
    ask = ApprovalAsk(
        source="g", prompt="Run?", options=["Allow", "Deny"], timeout=5, default="deny"
    )
    script = "echo one\n" + "x" * 300
    request = build_request(ask, "tool:pre", {"tool_name": "bash", "command": script})
    summary = request.details["command"]  # the gate's one-line summary, cut in the middle
    assert "…" in summary and "\n" not in summary and len(summary) < len(script)
    assert queued_details(request) == {"tool": "bash", "command": script}
    huge = "y" * (QUEUED_FIELD_LIMIT + 5)
    request = build_request(ask, "tool:pre", {"tool_name": "bash", "command": huge})
    assert queued_details(request)["command"] == (
        "y" * QUEUED_FIELD_LIMIT + "\n[… 5 more characters not shown]"
    )
