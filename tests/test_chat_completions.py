"""The scripted Chat Completions stand-in: what it answers, streams, records and refuses.

OpenCode, Cline and OpenClaw drive it for real in their binary tests; here its answers are
checked against the Chat Completions API's own shape, the way those clients assemble a
streamed answer (``delta.content`` appended, ``delta.tool_calls`` merged by ``index``).
"""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from amplifier_hooks.testing.chat_completions import (
    ScriptedChat,
    cline_editor,
    cline_run_commands,
    opencode_bash,
    opencode_write,
)
from amplifier_hooks.testing.turns import CustomToolCall, Text, ToolUse, Turn
from tests.openai_support import post

TOOLS = [{"type": "function", "function": {"name": "bash", "parameters": {"type": "object"}}}]


def request(*messages: dict[str, Any], stream: bool = False, usage: bool = False) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": "gpt-x",
        "stream": stream,
        "tools": TOOLS,
        "messages": [
            {"role": "system", "content": "You are a coding agent."},
            {"role": "user", "content": [{"type": "text", "text": "hi"}]},
            *messages,
        ],
    }
    if usage:
        body["stream_options"] = {"include_usage": True}
    return body


def assemble(stream: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The chunks of an SSE stream, and the message built from them the way a client
    does; the stream must end with ``data: [DONE]``."""
    events = [line.removeprefix("data: ") for line in stream.strip().split("\n\n")]
    assert events[-1] == "[DONE]"
    chunks = [json.loads(event) for event in events[:-1]]
    message: dict[str, Any] = {"content": "", "tool_calls": []}
    finish = None
    for chunk in chunks:
        assert chunk["object"] == "chat.completion.chunk"
        for choice in chunk["choices"]:
            delta = choice["delta"]
            message["content"] += delta.get("content") or ""
            for call in delta.get("tool_calls", []):
                calls = message["tool_calls"]
                if call["index"] == len(calls):
                    calls.append({"id": call["id"], "name": call["function"]["name"], "args": ""})
                calls[call["index"]]["args"] += call["function"].get("arguments", "")
            finish = choice["finish_reason"] or finish
    message["finish_reason"] = finish
    return chunks, message


async def test_turns_answer_the_conversation_in_order_then_the_fallback(
    http: aiohttp.ClientSession,
) -> None:
    async with ScriptedChat(Turn("one", opencode_bash("ls")), Turn("two")) as model:
        answers = [await post(http, model, request()) for _ in range(3)]

    [(s1, first), (s2, second), (s3, third)] = answers
    assert (s1, s2, s3) == (200, 200, 200)
    [choice] = first["choices"]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["content"] == "one"
    [call] = choice["message"]["tool_calls"]
    assert (call["type"], call["function"]["name"]) == ("function", "bash")
    assert json.loads(call["function"]["arguments"]) == {
        "command": "ls",
        "description": "Run a command",
    }
    assert call["id"].startswith("call_") and first["object"] == "chat.completion"
    assert second["choices"][0]["finish_reason"] == "stop"
    assert "tool_calls" not in second["choices"][0]["message"]
    assert third["choices"][0]["message"]["content"] == "Done."
    assert (model.answered, model.overran) == (2, 1)
    assert len(model.conversation) == 3


async def test_a_new_script_answers_from_its_first_turn_with_nothing_recorded(
    http: aiohttp.ClientSession,
) -> None:
    """One address for several runs: after `rescript` the old script's turns, record and
    counts are gone, and the same key still opens it."""
    async with ScriptedChat(Turn("old")) as model:
        await post(http, model, request())
        await post(http, model, request())
        model.rescript(Turn("new one"), Turn("new two"))
        assert (model.answered, model.overran, model.requests) == (0, 0, [])
        status, first = await post(http, model, request())

    assert status == 200 and first["choices"][0]["message"]["content"] == "new one"
    assert (model.answered, model.overran, len(model.conversation)) == (1, 0, 1)


async def test_a_streamed_answer_adds_up_to_the_scripted_turn(
    http: aiohttp.ClientSession,
) -> None:
    turn = Turn(
        Text("let me look"),
        cline_run_commands("ls /x/é"),
        ToolUse("editor", {"path": "a.txt", "new_text": "hi"}, id="call_given"),
    )
    async with ScriptedChat(turn) as model:
        status, stream = await post(http, model, request(stream=True))

    chunks, built = assemble(stream)
    assert status == 200
    assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
    assert built["content"] == "let me look" and built["finish_reason"] == "tool_calls"
    first, second = built["tool_calls"]
    assert first["name"] == "run_commands" and json.loads(first["args"]) == {
        "commands": ["ls /x/é"]
    }
    assert (second["id"], second["name"]) == ("call_given", "editor")
    assert json.loads(second["args"]) == {"path": "a.txt", "new_text": "hi"}
    assert len({chunk["id"] for chunk in chunks}) == 1
    assert all(chunk["choices"] for chunk in chunks), "no usage chunk unless asked for"


async def test_usage_is_a_last_chunk_when_the_request_asks_for_it(
    http: aiohttp.ClientSession,
) -> None:
    async with ScriptedChat(Turn("hello")) as model:
        _, stream = await post(http, model, request(stream=True, usage=True))

    chunks, built = assemble(stream)
    assert built == {"content": "hello", "tool_calls": [], "finish_reason": "stop"}
    assert chunks[-1]["choices"] == [] and chunks[-1]["usage"]["total_tokens"] >= 1


async def test_a_request_offering_no_tools_is_a_side_query(http: aiohttp.ClientSession) -> None:
    side = {"model": "gpt-mini", "messages": [{"role": "user", "content": "Title this"}]}
    async with ScriptedChat(Turn("scripted"), side_answer="A title") as model:
        _, title = await post(http, model, side)
        _, main = await post(http, model, request())

    assert title["choices"][0]["message"]["content"] == "A title"
    assert main["choices"][0]["message"]["content"] == "scripted"
    assert [r.side for r in model.requests] == [True, False]
    assert model.requests[0].messages[0]["content"] == "Title this"
    assert (model.answered, model.overran) == (1, 0)


async def test_the_record_says_what_reached_the_model_since_its_last_answer(
    http: aiohttp.ClientSession,
) -> None:
    call = {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": "{}"}}
    said = {"role": "assistant", "content": None, "tool_calls": [call]}
    result = {"role": "tool", "tool_call_id": "c1", "content": "blocked: no rm"}
    context = {"role": "user", "content": [{"type": "text", "text": "<hook_context>careful"}]}
    async with ScriptedChat(Turn("ok")) as model:
        await post(http, model, request(said, result, context))

    [seen] = model.conversation
    assert seen.tool_results() == [result]
    assert seen.output_text("c1") == "blocked: no rm" and seen.output_text("other") == ""
    assert "<hook_context>careful" in seen.new_text()
    assert "hi" not in seen.new_text().split("\n") and "hi" in seen.text().split("\n")
    assert seen.system == "You are a coding agent."
    assert seen.tool_names == ["bash"]


async def test_a_free_form_call_is_a_script_error_not_an_answer(
    http: aiohttp.ClientSession,
) -> None:
    async with ScriptedChat(Turn(CustomToolCall("apply_patch", "P"))) as model:
        status, body = await post(http, model, request())

    assert status == 500 and "free-form" in body["error"]["message"]


def test_tool_call_helpers_write_what_each_agent_offers() -> None:
    assert opencode_bash("ls", "list").input == {"command": "ls", "description": "list"}
    assert opencode_write("/w/a", "x") == ToolUse("write", {"filePath": "/w/a", "content": "x"})
    assert cline_run_commands("a", "b").input == {"commands": ["a", "b"]}
    assert cline_editor("/w/a", "new").input == {
        "path": "/w/a",
        "old_text": None,
        "new_text": "new",
    }
