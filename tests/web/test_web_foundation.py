"""The shared server foundation: tokens, access, binding, clean shutdown."""

from __future__ import annotations

import asyncio
import os
import stat
import sys
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from hypothesis import given
from hypothesis import strategies as st

from amplifier_hooks.web import (
    TOKEN_ENV,
    Credentials,
    ServerOptions,
    check_bind,
    is_loopback,
    require_token,
    resolve_token,
    run_until_stopped,
)
from amplifier_hooks.web.access import same_host_only
from amplifier_hooks.web.running import loop_factory, run_server

TOKEN = "t" * 32


def test_a_generated_token_is_kept_private_and_reused(tmp_path: Path) -> None:
    path = tmp_path / "state" / "token"
    first = resolve_token(path, environ={})
    assert first.source == str(path)
    assert len(first.value) >= 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert resolve_token(path, environ={}) == first
    assert first.value not in repr(first)


def test_the_environment_comes_first_and_must_be_long_enough(tmp_path: Path) -> None:
    token = resolve_token(tmp_path / "token", environ={TOKEN_ENV: TOKEN})
    assert (token.value, token.source) == (TOKEN, "$AMPLIFIER_HOOKS_TOKEN")
    assert not (tmp_path / "token").exists()
    with pytest.raises(ValueError, match="is 5 characters long; use at least 16"):
        resolve_token(tmp_path / "token", environ={TOKEN_ENV: "short"})


def test_a_token_file_others_can_read_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "token"
    resolve_token(path, environ={})
    os.chmod(path, 0o644)
    with pytest.raises(ValueError, match="can be read by other users"):
        resolve_token(path, environ={})


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.0.1", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("192.168.1.2", False),
        ("example", False),
    ],
)
def test_loopback_addresses(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_binding_beyond_loopback_must_be_asked_for_and_says_when_there_is_no_tls() -> None:
    assert check_bind("127.0.0.1", allow_remote=False, tls=False).warning is None
    with pytest.raises(ValueError, match="unless you pass --allow-remote"):
        check_bind("0.0.0.0", allow_remote=False, tls=False)
    plan = check_bind("0.0.0.0", allow_remote=True, tls=False)
    assert plan.remote and plan.warning is not None and "WITHOUT TLS" in plan.warning
    assert check_bind("0.0.0.0", allow_remote=True, tls=True).warning is None


def test_the_cookie_is_derived_from_the_token_not_the_token() -> None:
    credentials = Credentials(TOKEN, cookie_name="c")
    assert credentials.cookie_value() != TOKEN
    assert credentials.cookie_ok(credentials.cookie_value())
    assert not credentials.cookie_ok(TOKEN)
    assert not Credentials(TOKEN).cookie_ok(credentials.cookie_value())  # no cookie taken


async def test_a_server_refuses_requests_without_the_token_and_caps_bodies() -> None:
    async def echo(request: web.Request) -> web.Response:
        return web.json_response({"got": len(await request.read())})

    app = web.Application(middlewares=[require_token(Credentials(TOKEN))], client_max_size=1000)
    app.router.add_post("/x", echo)
    stop = asyncio.Event()
    ready: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(
        run_until_stopped(app, ServerOptions(port=0), on_ready=ready.set_result, stop=stop)
    )
    address = await ready
    assert address.startswith("http://127.0.0.1:")
    good = {"Authorization": f"Bearer {TOKEN}"}
    async with aiohttp.ClientSession() as client:
        async with client.post(f"{address}/x", data=b"{}") as response:
            assert response.status == 401
            assert response.headers["WWW-Authenticate"] == "Bearer"
        async with client.post(
            f"{address}/x", data=b"{}", headers={"Authorization": "Bearer x"}
        ) as response:
            assert response.status == 401
        async with client.post(f"{address}/x", data=b"{}", headers=good) as response:
            assert (response.status, await response.json()) == (200, {"got": 2})
        async with client.post(f"{address}/x", data=b"x" * 2000, headers=good) as response:
            assert response.status == 413
    stop.set()
    await server


async def _loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_a_server_process_runs_on_uvloop_where_it_is_installed() -> None:
    # The locked environment has it (Linux, macOS): `serve` runs there on its loop.
    assert run_server(_loop_module()).startswith("uvloop")


def test_without_uvloop_a_server_runs_on_asyncios_own_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # as on Windows: not installable
    assert loop_factory() is None
    assert run_server(_loop_module()).startswith("asyncio")


@given(
    header=st.one_of(
        st.none(),
        st.text(),
        st.text().map(lambda rest: "Bearer " + rest),
        st.sampled_from([f"Bearer {TOKEN}", f"Bearer  {TOKEN}", f"bearer {TOKEN}",
                         f"Bearer {TOKEN} ", f"Bearer {TOKEN}\n", "Bearer ", ""]),
    )
)  # fmt: skip
def test_the_bearer_check_on_every_call_agrees_with_the_explained_one(
    header: str | None,
) -> None:
    # One comparison of the whole header on the way in; `refusal` explains a refusal.
    credentials = Credentials(TOKEN)
    assert credentials.bearer_ok(header) == (credentials.refusal(header) is None)
    assert credentials.bearer_ok(header) == (header == f"Bearer {TOKEN}")


def test_the_host_check_keeps_its_verdict_however_often_it_is_asked() -> None:
    local = ("127.0.0.1", 8419)
    for _ in range(3):  # the memo answers the second time: the same verdict
        assert same_host_only("127.0.0.1:8419", local) is None
        assert same_host_only("localhost", local) is None
        assert "not this loopback server" in str(same_host_only("attacker.example:8419", local))
        assert "another port" in str(same_host_only("127.0.0.1:9999", local))
        assert same_host_only(None, local) == "no Host header"
    # The same Host to a server on another port is another question.
    assert "another port" in str(same_host_only("127.0.0.1:8419", ("127.0.0.1", 8420)))
    for i in range(1000):  # Hosts of the client's choice: the memo stays bounded
        same_host_only(f"h{i}.example", local)
    assert same_host_only.cache_info().currsize <= 256
