"""The scripted Gemini API stand-in: what it answers, streams, records and refuses.

Gemini CLI drives it for real in tests/gemini_cli; here its answers are checked against the
Gemini API's shape, and its side answers against the schemas the CLI's router asks in.
"""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from amplifier_hooks.testing.gemini_api import ScriptedGemini, fill_schema, run_shell_command
from amplifier_hooks.testing.turns import Turn

FUNCTIONS = [{"functionDeclarations": [{"name": "run_shell_command", "parameters": {}}]}]
STREAM = "/v1beta/models/gemini-x:streamGenerateContent"
GENERATE = "/v1beta/models/gemini-x:generateContent"


def request(*contents: dict[str, Any], tools: Any = FUNCTIONS) -> dict[str, Any]:
    prompt = {"role": "user", "parts": [{"text": "hi"}]}
    body: dict[str, Any] = {"contents": [prompt, *contents]}
    if tools is not None:
        body["tools"] = tools
    return body


async def post(
    http: aiohttp.ClientSession,
    model: ScriptedGemini,
    body: Any,
    path: str = GENERATE,
    *,
    params: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    headers = {"x-goog-api-key": model.api_key} if headers is None else headers
    url = model.base_url + path
    async with http.post(url, json=body, headers=headers, params=params) as response:
        text = await response.text()
        if response.content_type == "text/event-stream":
            return response.status, [
                json.loads(chunk.removeprefix("data: ")) for chunk in text.strip().split("\n\n")
            ]
        return response.status, json.loads(text)


def parts(answer: dict[str, Any]) -> list[dict[str, Any]]:
    return list(answer["candidates"][0]["content"]["parts"])


async def test_turns_answer_in_order_streamed_or_not(http: aiohttp.ClientSession) -> None:
    shell = run_shell_command("ls", "list")
    async with ScriptedGemini(Turn("one", shell), Turn("two")) as model:
        status, chunks = await post(http, model, request(), STREAM, params={"alt": "sse"})
        _, second = await post(http, model, request())
        _, third = await post(http, model, request())

    assert status == 200
    streamed = [p for chunk in chunks for p in parts(chunk)]
    assert streamed == [
        {"text": "one"},
        {"functionCall": {"name": "run_shell_command", "args": shell.input}},
    ]
    assert chunks[-1]["candidates"][0]["finishReason"] == "STOP"
    assert "finishReason" not in chunks[0]["candidates"][0]
    assert chunks[-1]["usageMetadata"]["totalTokenCount"] >= 1
    assert parts(second) == [{"text": "two"}] and parts(third) == [{"text": "Done."}]
    assert second["candidates"][0]["content"]["role"] == "model"
    assert (model.answered, model.overran) == (2, 1)
    assert [r.method_name for r in model.conversation] == [
        "streamGenerateContent",
        "generateContent",
        "generateContent",
    ]
    assert model.conversation[0].model == "gemini-x"
    assert model.conversation[0].query == {"alt": "sse"}


async def test_the_routers_side_query_gets_json_in_its_schema(
    http: aiohttp.ClientSession,
) -> None:
    schema = {
        "type": "OBJECT",
        "properties": {
            "complexity_reasoning": {"type": "STRING"},
            "complexity_score": {"type": "INTEGER"},
        },
        "required": ["complexity_reasoning", "complexity_score"],
    }
    router = request(tools=None)
    router["generationConfig"] = {"responseMimeType": "application/json", "responseSchema": schema}
    async with ScriptedGemini(Turn("scripted"), side_answer="simple") as model:
        _, routed = await post(http, model, router)
        _, plain = await post(http, model, request(tools=None))
        _, main = await post(http, model, request())

    assert json.loads(parts(routed)[0]["text"]) == {
        "complexity_reasoning": "simple",
        "complexity_score": 1,
    }
    assert parts(plain) == [{"text": "simple"}]
    assert parts(main) == [{"text": "scripted"}]
    assert [r.side for r in model.requests] == [True, True, False]
    assert (model.answered, model.overran) == (1, 0)


def test_a_schema_is_filled_so_the_user_speaks_next() -> None:
    next_speaker = {
        "type": "object",
        "properties": {
            "reasoning": {"type": "string"},
            "next_speaker": {"type": "string", "enum": ["user", "model"]},
            "flags": {"type": "array"},
            "sure": {"type": "boolean"},
        },
    }
    assert fill_schema(next_speaker, "why") == {
        "reasoning": "why",
        "next_speaker": "user",
        "flags": [],
        "sure": False,
    }


async def test_the_record_says_what_reached_the_model_since_its_last_answer(
    http: aiohttp.ClientSession,
) -> None:
    said = {"role": "model", "parts": [{"functionCall": {"name": "run_shell_command"}}]}
    response = {"name": "run_shell_command", "response": {"error": "Tool execution blocked: no"}}
    back = {"role": "user", "parts": [{"functionResponse": response}, {"text": "hook context"}]}
    async with ScriptedGemini(Turn("ok")) as model:
        await post(http, model, request(said, back))

    [seen] = model.conversation
    assert seen.function_responses() == [response]
    assert "Tool execution blocked: no" in seen.new_text()
    assert "hook context" in seen.new_text() and "hi" not in seen.new_text()
    assert "hi" in seen.text()
    assert seen.function_names == ["run_shell_command"]


@pytest.mark.parametrize("how", ["header", "query", "bearer"])
async def test_the_key_is_taken_where_gemini_clients_send_it(
    http: aiohttp.ClientSession, how: str
) -> None:
    async with ScriptedGemini(Turn("ok")) as model:
        headers = {"Authorization": f"Bearer {model.api_key}"} if how == "bearer" else {}
        if how == "header":
            headers = {"x-goog-api-key": model.api_key}
        params = {"key": model.api_key} if how == "query" else None
        status, _ = await post(http, model, request(), params=params, headers=headers)
    assert status == 200


async def test_a_request_without_the_key_is_refused_and_not_recorded(
    http: aiohttp.ClientSession,
) -> None:
    async with ScriptedGemini(Turn("secret")) as model:
        status, body = await post(http, model, request(), headers={"x-goog-api-key": "wrong"})

    assert status == 401 and body["error"]["code"] == 401
    assert model.requests == [] and model.answered == 0


async def test_count_tokens_answers_and_unknown_methods_are_404(
    http: aiohttp.ClientSession,
) -> None:
    async with ScriptedGemini() as model:
        _, counted = await post(http, model, request(), "/v1beta/models/gemini-x:countTokens")
        status, missing = await post(http, model, request(), "/v1beta/models/gemini-x:embed")
        other, _ = await post(http, model, request(), "/v1/chat")

    assert counted["totalTokens"] >= 1
    assert status == other == 404 and "embed" in missing["error"]["message"]
    assert model.answered == 0


async def test_it_listens_on_loopback_only() -> None:
    async with ScriptedGemini() as model:
        assert model.base_url.startswith("http://127.0.0.1:")
