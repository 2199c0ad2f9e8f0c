"""One call never holds up the others (issue 26, finding 6): a call past its deadline is
denied while another session's call is answered, and an input with too many values is
blocked without the bundle seeing it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from amplifier_hooks.web.limits import Limits
from tests.transports.support import Gate, bash, decision, gate_hooks, serving, write_bundle


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[aiohttp.ClientSession, str, Gate]]:
    gate = Gate(tmp_path / "gate")
    bundle = write_bundle(tmp_path, gate_hooks(gate.directory, tmp_path / "record"))
    limits = Limits(call_deadline=3.0, max_values=1000)
    async with serving(bundle, limits, max_body=64 << 20) as (client, url, _):
        try:
            yield client, url, gate
        finally:
            gate.let_go()  # its thread outlives the call given up on


async def test_a_call_past_its_deadline_is_denied_and_others_go_on(
    served: tuple[aiohttp.ClientSession, str, Gate],
) -> None:
    client, url, gate = served
    for session in ("slow", "other"):  # both sessions open (a cold one may take seconds)
        async with client.post(url, json=bash("ls", session=session)) as response:
            assert await response.json() == {}
    held = asyncio.ensure_future(client.post(url, json=bash("hold", session="slow")))
    await asyncio.to_thread(gate.wait_entered)  # the slow call is in its handler
    async with client.post(url, json=bash("rm -rf /", session="other")) as response:
        assert decision(await response.json()) == ("deny", "rm is not allowed here")
    async with await held as response:
        verdict, reason = decision(await response.json()) or ("", "")
    assert verdict == "deny"
    assert reason.endswith("the hook server did not answer within 3 s")


async def test_an_input_with_too_many_values_is_blocked_unseen(
    served: tuple[aiohttp.ClientSession, str, Gate],
) -> None:
    client, url, _ = served
    payload = bash("ls")
    payload["tool_input"]["extra"] = {f"k{i}": "v" * 200 for i in range(2000)}  # > 256 kB
    async with client.post(url, data=json.dumps(payload)) as response:
        answer = await response.json()
    assert answer["decision"] == "block" or decision(answer)
    assert "hook input holds more than 1000 JSON values" in json.dumps(answer)
