"""The scripted Messages API stand-in: what it answers, what it records, what it refuses."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from amplifier_hooks.testing.messages_api import (
    MAX_REQUEST_BYTES,
    ScriptedModel,
    Text,
    ToolUse,
    Turn,
    bash,
    is_side_query,
)

BASH_TOOL = {"name": "Bash", "input_schema": {"type": "object"}}


def conversation(text: str = "hi", *, stream: bool = False) -> dict[str, Any]:
    return {
        "model": "claude-x",
        "max_tokens": 100,
        "stream": stream,
        "tools": [BASH_TOOL],
        "messages": [{"role": "user", "content": text}],
    }


async def post(
    http: aiohttp.ClientSession,
    model: ScriptedModel,
    body: Any,
    *,
    path: str = "/v1/messages",
    key: str | None = None,
) -> tuple[int, Any]:
    headers = {"x-api-key": model.api_key if key is None else key}
    async with http.post(model.base_url + path, json=body, headers=headers) as response:
        text = await response.text()
        if response.content_type == "text/event-stream":
            return response.status, text
        return response.status, json.loads(text)


def assemble(stream: str) -> tuple[list[str], dict[str, Any]]:
    """The event names of an SSE stream and the message they add up to."""
    names: list[str] = []
    message: dict[str, Any] = {}
    partial: dict[int, str] = {}
    for chunk in stream.strip().split("\n\n"):
        name_line, data_line = chunk.split("\n")
        names.append(name_line.removeprefix("event: "))
        data = json.loads(data_line.removeprefix("data: "))
        if data["type"] == "message_start":
            message = data["message"]
        elif data["type"] == "content_block_start":
            message["content"].append(data["content_block"])
        elif data["type"] == "content_block_delta":
            delta, block = data["delta"], message["content"][data["index"]]
            if delta["type"] == "text_delta":
                block["text"] += delta["text"]
            else:
                partial[data["index"]] = partial.get(data["index"], "") + delta["partial_json"]
        elif data["type"] == "content_block_stop" and data["index"] in partial:
            message["content"][data["index"]]["input"] = json.loads(partial[data["index"]])
        elif data["type"] == "message_delta":
            message["stop_reason"] = data["delta"]["stop_reason"]
    return names, message


async def test_turns_answer_the_conversation_in_order_then_the_fallback(
    http: aiohttp.ClientSession,
) -> None:
    async with ScriptedModel(Turn("one", bash("ls")), Turn("two")) as model:
        answers = [await post(http, model, conversation()) for _ in range(3)]

    [(s1, first), (s2, second), (s3, third)] = answers
    assert (s1, s2, s3) == (200, 200, 200)
    assert first["stop_reason"] == "tool_use"
    assert first["content"][0] == {"type": "text", "text": "one"}
    assert first["content"][1]["name"] == "Bash"
    assert first["content"][1]["input"] == {"command": "ls", "description": "Run a command"}
    assert first["content"][1]["id"].startswith("toolu_")
    assert (second["stop_reason"], second["content"]) == (
        "end_turn",
        [{"type": "text", "text": "two"}],
    )
    assert third["content"] == [{"type": "text", "text": "Done."}]
    assert (model.answered, model.overran) == (2, 1)
    assert len(model.conversation) == 3


async def test_a_streamed_answer_adds_up_to_the_same_message(http: aiohttp.ClientSession) -> None:
    turn = Turn(Text("let me look"), ToolUse("Read", {"file_path": "/x/é.txt"}, id="toolu_1"))
    async with ScriptedModel(turn) as model:
        status, stream = await post(http, model, conversation(stream=True))

    names, message = assemble(stream)
    assert status == 200
    assert names[0] == "message_start" and names[-2:] == ["message_delta", "message_stop"]
    assert names.count("content_block_start") == names.count("content_block_stop") == 2
    assert message["content"] == [
        {"type": "text", "text": "let me look"},
        {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {"file_path": "/x/é.txt"}},
    ]
    assert message["stop_reason"] == "tool_use"


async def test_a_side_query_is_answered_without_consuming_the_script(
    http: aiohttp.ClientSession,
) -> None:
    title_request = {"model": "claude-haiku", "messages": [{"role": "user", "content": "title?"}]}
    async with ScriptedModel(Turn("scripted"), side_answer="A title") as model:
        _, side = await post(http, model, title_request)
        _, main = await post(http, model, conversation())

    assert side["content"] == [{"type": "text", "text": "A title"}]
    assert main["content"] == [{"type": "text", "text": "scripted"}]
    assert [r.side for r in model.requests] == [True, False]
    assert model.answered == 1 and model.overran == 0


def test_a_request_offering_bash_is_the_conversation() -> None:
    assert not is_side_query(conversation())
    assert is_side_query({"messages": [], "tools": [{"name": "Read"}]})
    assert is_side_query({"messages": []})


async def test_requests_are_recorded_with_what_is_new_since_the_last_answer(
    http: aiohttp.ClientSession,
) -> None:
    body = conversation()
    body["messages"] += [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash"}]},
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "out"}],
        },
        {"role": "system", "content": [{"type": "text", "text": "hook context"}]},
    ]
    async with ScriptedModel(Turn("ok")) as model:
        await post(http, model, body)

    [request] = model.conversation
    assert request.new_text() == "out\nhook context"
    assert request.tool_results() == [
        {"type": "tool_result", "tool_use_id": "t1", "content": "out"}
    ]
    assert "hi" in request.text()
    assert request.headers["x-api-key"] == model.api_key


async def test_count_tokens_answers_and_unknown_endpoints_are_404(
    http: aiohttp.ClientSession,
) -> None:
    async with ScriptedModel() as model:
        counted = await post(http, model, conversation(), path="/v1/messages/count_tokens")
        unknown = await post(http, model, {}, path="/v1/models")

    assert counted[0] == 200 and counted[1]["input_tokens"] >= 1
    assert unknown == (
        404,
        {
            "type": "error",
            "error": {"type": "not_found_error", "message": "no such endpoint: /v1/models"},
        },
    )
    assert model.answered == 0


async def test_a_request_without_the_key_is_refused_and_not_recorded(
    http: aiohttp.ClientSession,
) -> None:
    async with ScriptedModel(Turn("secret plan")) as model:
        status, body = await post(http, model, conversation(), key="wrong")
        async with http.post(model.base_url + "/v1/messages", json=conversation()) as response:
            missing = response.status

    assert (status, missing) == (401, 401)
    assert body["error"]["type"] == "authentication_error"
    assert model.requests == [] and model.answered == 0


async def test_a_bearer_token_is_accepted_like_an_api_key(http: aiohttp.ClientSession) -> None:
    async with ScriptedModel(Turn("hello")) as model:
        headers = {"Authorization": f"Bearer {model.api_key}"}
        async with http.post(
            model.base_url + "/v1/messages", json=conversation(), headers=headers
        ) as r:
            answer = await r.json()

    assert answer["content"] == [{"type": "text", "text": "hello"}]


@pytest.mark.parametrize(
    ("raw", "message"),
    [(b"{not json", "unreadable body"), (b"[1, 2]", "body must be a JSON object")],
)
async def test_a_malformed_body_is_a_400_that_says_why(
    http: aiohttp.ClientSession, raw: bytes, message: str
) -> None:
    async with ScriptedModel(Turn("x")) as model:
        headers = {"x-api-key": model.api_key, "Content-Type": "application/json"}
        async with http.post(model.base_url + "/v1/messages", data=raw, headers=headers) as r:
            status, body = r.status, await r.json()

    assert status == 400
    assert body["error"]["message"].startswith(message)
    assert model.answered == 0


async def test_an_oversized_request_is_refused(http: aiohttp.ClientSession) -> None:
    async with ScriptedModel(Turn("x"), max_request_bytes=1000) as model:
        headers = {"x-api-key": model.api_key, "Content-Type": "application/json"}
        data = b" " * 1001
        async with http.post(model.base_url + "/v1/messages", data=data, headers=headers) as r:
            status = r.status

    assert status == 413
    assert model.answered == 0
    assert MAX_REQUEST_BYTES >= 16 * 1024 * 1024, "a long conversation must still fit"


async def test_it_listens_on_loopback_only() -> None:
    async with ScriptedModel() as model:
        assert model.base_url.startswith("http://127.0.0.1:")
