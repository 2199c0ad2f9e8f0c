"""What both OpenAI stand-ins share (`amplifier_hooks.testing.openai_api`): the key, the
model listing, a 404 for the other wire format's endpoint, loopback only.

Each wire format's own answers are in test_chat_completions and test_responses_api.
"""

from __future__ import annotations

import aiohttp
import pytest

from amplifier_hooks.testing.chat_completions import ScriptedChat
from amplifier_hooks.testing.openai_api import OpenAIServer
from amplifier_hooks.testing.responses_api import ScriptedResponses
from amplifier_hooks.testing.turns import Turn
from tests.openai_support import post

SERVERS = pytest.mark.parametrize(
    ("server", "elsewhere"),
    [(ScriptedChat, "/v1/responses"), (ScriptedResponses, "/v1/chat/completions")],
    ids=["chat_completions", "responses"],
)

BODY = {"model": "gpt-x", "tools": [{"type": "function", "name": "bash"}], "input": "hi"}


@SERVERS
async def test_a_request_without_the_key_is_refused_and_not_recorded(
    http: aiohttp.ClientSession, server: type[OpenAIServer], elsewhere: str
) -> None:
    async with server(Turn("secret")) as model:
        status, body = await post(http, model, BODY, key="wrong")

    assert status == 401 and body["error"]["message"]
    assert body["error"]["type"] == body["error"]["code"] == "authentication_error"
    assert model.requests == [] and model.answered == 0


@SERVERS
async def test_models_are_listed_and_other_endpoints_are_404(
    http: aiohttp.ClientSession, server: type[OpenAIServer], elsewhere: str
) -> None:
    async with server(model="gpt-scripted") as model:
        headers = {"Authorization": f"Bearer {model.api_key}"}
        async with http.get(model.v1_url + "/models", headers=headers) as response:
            listed = await response.json()
        status, missing = await post(http, model, BODY, path=elsewhere)

    assert [m["id"] for m in listed["data"]] == ["gpt-scripted"]
    assert status == 404 and "no such endpoint" in missing["error"]["message"]
    assert model.answered == 0 and model.conversation == []


@SERVERS
async def test_it_listens_on_loopback_only(server: type[OpenAIServer], elsewhere: str) -> None:
    async with server() as model:
        assert model.base_url.startswith("http://127.0.0.1:")
        assert model.v1_url == model.base_url + "/v1"
