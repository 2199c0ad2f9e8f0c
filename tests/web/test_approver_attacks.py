"""What an attacker sends the browser approver: answers that used to be a 500, a page on
a rebound DNS name, a token that is almost the token (issue 26, finding 7)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp

from tests.web.test_approver import TOKEN, _answer_headers, _queue, approver


async def test_an_id_too_big_or_json_too_deep_is_a_clear_400_not_a_500(tmp_path: Path) -> None:
    async with approver(tmp_path) as (address, backend), aiohttp.ClientSession() as client:
        ident = await _queue(backend)
        url = f"{address}/api/answer"
        headers = {**_answer_headers(address), "Content-Type": "application/json"}
        huge = json.dumps({"id": 2**70, "choice": "Allow"})
        deep = "[" * 5000 + "]" * 5000
        for body, message in ((huge, "id must be the number"), (deep, "the body is not JSON")):
            async with client.post(url, data=body, headers=headers) as response:
                assert response.status == 400, body[:40]
                assert (await response.json())["message"].startswith(message)
        row = await backend.pending(ident)
        assert row is not None and row.status == "pending"


async def test_a_host_that_is_not_loopback_is_refused(tmp_path: Path) -> None:
    async with approver(tmp_path) as (address, _), aiohttp.ClientSession() as client:
        port = urlsplit(address).port
        bearer = {"Authorization": f"Bearer {TOKEN}"}
        rebound = {**bearer, "Host": f"attacker.example:{port}"}
        async with client.get(f"{address}/api/session", headers=rebound) as response:
            assert response.status == 421
        for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
            async with client.get(f"{address}/api/session", headers={**bearer, "Host": host}) as ok:
                assert ok.status == 200, host


async def test_only_the_exact_token_is_accepted(tmp_path: Path) -> None:
    async with approver(tmp_path) as (address, _), aiohttp.ClientSession() as client:
        # (HTTP drops whitespace at the ends of a header's value before anyone sees it.)
        for almost in (f" {TOKEN}", f"{TOKEN[:-1]}", f"{TOKEN} {TOKEN}"):
            headers = {"Authorization": f"Bearer {almost}"}
            async with client.get(f"{address}/api/session", headers=headers) as response:
                assert response.status == 401, repr(almost)
        for almost in (f"{TOKEN}%20", f"%20{TOKEN}", f"{TOKEN}%0A"):
            async with client.get(f"{address}/?token={almost}", allow_redirects=False) as page:
                assert page.status == 401, almost


async def test_the_state_says_the_servers_time_as_it_is_sent(tmp_path: Path) -> None:
    """The page counts time left from ``now`` and its own monotonic clock: a ``now`` from
    when the queue last changed (half a minute ago, say) made it show more time left."""
    async with approver(tmp_path) as (address, backend), aiohttp.ClientSession() as client:
        await _queue(backend)
        headers = {"Authorization": f"Bearer {TOKEN}"}
        async with client.get(f"{address}/api/state", headers=headers) as response:
            first = await response.json()
        await asyncio.sleep(0.1)  # the queue does not change meanwhile
        asked = time.time()
        async with client.get(f"{address}/api/state", headers=headers) as response:
            second = await response.json()
        assert second["version"] == first["version"]
        assert second["now"] >= asked - 0.001
