"""The installed plugin itself, loaded in Node the way OpenClaw loads it (its default
export's ``register(api)``; `amplifier_hooks/hosts/openclaw/probe.mjs`), against a server
that fails in each way ours could: every failure is a block whose reason says what went
wrong -- never a throw (OpenClaw would tell the model only "hook failed"), never an
allow -- and a server that never answers is given up on within the plugin's budget."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from amplifier_hooks.hosts.openclaw.doctor import PROBE_SCRIPT
from amplifier_hooks.hosts.openclaw.install import PLUGIN_SOURCE

BLOCKED = "amplifier-hooks could not check this call, so it is blocked: "


@pytest.fixture
async def misbehaving() -> AsyncIterator[str]:
    """A server on loopback whose answer the path picks; its base URL."""
    never = asyncio.Event()

    async def answer(request: web.Request) -> web.StreamResponse:
        await request.read()
        kind = request.match_info["kind"]
        if kind == "garbage":
            return web.Response(text="<html>oops</html>")
        if kind == "error":
            return web.Response(status=500, text="Internal Server Error")
        if kind == "array":
            return web.json_response([1, 2])
        if kind == "deny":
            assert request.headers["Authorization"] == "Bearer " + "k" * 32
            return web.json_response({"block": True, "blockReason": "no, and here is why"})
        await never.wait()  # "hang": never answers
        raise AssertionError("unreachable")

    app = web.Application()
    app.router.add_post("/{kind}", answer)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}"
    finally:
        never.set()
        await runner.cleanup()


async def call_plugin(
    node: Path, settings: dict[str, Any] | None, env: dict[str, str] | None = None
) -> Any:
    """The plugin's answer to ``exec`` of ``ls``, loaded with ``settings``."""
    request = {
        "pluginConfig": settings,
        "event": {"toolName": "exec", "params": {"command": "ls"}},
        "ctx": {"sessionId": "s1"},
    }
    process = await asyncio.create_subprocess_exec(
        str(node / "node"),
        str(PROBE_SCRIPT),
        str(PLUGIN_SOURCE / "index.js"),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={"PATH": str(node), **(env or {})},
    )
    out, err = await asyncio.wait_for(process.communicate(json.dumps(request).encode()), 120)
    assert process.returncode == 0, err.decode()
    return json.loads(out)["result"]


def settings_for(url: str, budget_ms: int = 60_000) -> dict[str, Any]:
    return {
        "bundle": "/nonexistent/bundle.md",
        "python": "/nonexistent/python",
        "script": "/nonexistent/hook_start.py",
        "url": url,
        "budgetMs": budget_ms,
    }


TOKEN = {"AMPLIFIER_HOOKS_TOKEN": "k" * 32}


async def test_an_answer_is_passed_on_as_the_server_gives_it(
    node_bin: Path, misbehaving: str
) -> None:
    said = await call_plugin(node_bin, settings_for(f"{misbehaving}/deny"), TOKEN)
    assert said == {"block": True, "blockReason": "no, and here is why"}


@pytest.mark.parametrize(
    ("kind", "why"),
    [
        ("garbage", "the hook server's answer is not JSON: <html>oops</html>"),
        ("error", "the hook server answered HTTP 500: Internal Server Error"),
        ("array", "the hook server's answer is not a JSON object"),
    ],
)
async def test_an_answer_that_cannot_be_used_blocks_with_what_was_wrong(
    node_bin: Path, misbehaving: str, kind: str, why: str
) -> None:
    said = await call_plugin(node_bin, settings_for(f"{misbehaving}/{kind}"), TOKEN)
    assert said == {"block": True, "blockReason": BLOCKED + why}


async def test_a_server_that_never_answers_is_given_up_on_before_openclaw_does(
    node_bin: Path, misbehaving: str
) -> None:
    """OpenClaw's budget 3 s: the plugin answers 2 s earlier, with its own reason."""
    said = await call_plugin(node_bin, settings_for(f"{misbehaving}/hang", 3000), TOKEN)
    assert said == {
        "block": True,
        "blockReason": BLOCKED + "no answer within 1 s (OpenClaw's budget for this hook is 3 s)",
    }


async def test_no_token_and_no_settings_block_and_say_how_to_fix_it(
    node_bin: Path, misbehaving: str
) -> None:
    no_token = await call_plugin(node_bin, settings_for(f"{misbehaving}/deny"))
    assert no_token == {
        "block": True,
        "blockReason": BLOCKED + "no token: set $AMPLIFIER_HOOKS_TOKEN for OpenClaw",
    }
    unset = await call_plugin(node_bin, None)
    assert unset == {
        "block": True,
        "blockReason": BLOCKED
        + "the plugin has no settings: run `amplifier-hooks openclaw install`",
    }


async def test_our_program_gone_blocks_the_call(node_bin: Path, tmp_path: Path) -> None:
    """The default transport runs our Python once to find the server: gone, it blocks."""
    settings = {**settings_for(""), "url": None}
    del settings["url"]
    said = await call_plugin(node_bin, settings, {"HOME": str(tmp_path)})
    assert said["block"] is True
    assert said["blockReason"].startswith(BLOCKED + "cannot run /nonexistent/python")
