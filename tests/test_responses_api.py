"""The scripted Responses API stand-in: what it answers, streams, records and refuses.

Codex and GitHub Copilot CLI drive it for real in their binary tests; here its answers are
checked against the Responses API's own shape, the way those clients assemble them.
"""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from amplifier_hooks.testing.responses_api import (
    ScriptedResponses,
    apply_patch,
    copilot_bash,
    exec_command,
)
from amplifier_hooks.testing.turns import Text, ToolUse, Turn
from tests.openai_support import post

TOOLS = [{"type": "function", "name": "exec_command", "parameters": {"type": "object"}}]


def request(*items: dict[str, Any], stream: bool = False) -> dict[str, Any]:
    user = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}
    return {
        "model": "gpt-x",
        "instructions": "You are a coding agent.",
        "stream": stream,
        "tools": TOOLS,
        "input": [user, *items],
    }


def assemble(stream: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The events of an SSE stream, and the response built from them the way a client
    does: items from ``output_item.added``, filled by the deltas."""
    events: list[dict[str, Any]] = []
    built: dict[int, dict[str, Any]] = {}
    for chunk in stream.strip().split("\n\n"):
        name_line, data_line = chunk.split("\n")
        data = json.loads(data_line.removeprefix("data: "))
        assert name_line == f"event: {data['type']}"
        events.append(data)
        kind = data["type"]
        if kind == "response.output_item.added":
            built[data["output_index"]] = dict(data["item"])
        elif kind == "response.content_part.added":
            built[data["output_index"]]["content"] = [dict(data["part"])]
        elif kind == "response.output_text.delta":
            built[data["output_index"]]["content"][0]["text"] += data["delta"]
        elif kind == "response.function_call_arguments.delta":
            built[data["output_index"]]["arguments"] += data["delta"]
        elif kind == "response.custom_tool_call_input.delta":
            built[data["output_index"]]["input"] += data["delta"]
    completed = events[-1]["response"]
    for index, item in built.items():
        item["status"] = completed["output"][index]["status"]
    return events, {"output": [built[i] for i in sorted(built)], "completed": completed}


async def test_turns_answer_the_conversation_in_order_then_the_fallback(
    http: aiohttp.ClientSession,
) -> None:
    async with ScriptedResponses(Turn("one", exec_command("ls")), Turn("two")) as model:
        answers = [await post(http, model, request()) for _ in range(3)]

    [(s1, first), (s2, second), (s3, third)] = answers
    assert (s1, s2, s3) == (200, 200, 200)
    message, call = first["output"]
    assert message["type"] == "message" and message["role"] == "assistant"
    assert message["content"][0] == {"type": "output_text", "text": "one", "annotations": []}
    assert (call["type"], call["name"]) == ("function_call", "exec_command")
    assert json.loads(call["arguments"]) == {"cmd": "ls"}
    assert call["call_id"].startswith("call_") and first["status"] == "completed"
    assert [item["type"] for item in second["output"]] == ["message"]
    assert third["output"][0]["content"][0]["text"] == "Done."
    assert (model.answered, model.overran) == (2, 1)
    assert len(model.conversation) == 3


async def test_a_streamed_answer_adds_up_to_the_completed_response(
    http: aiohttp.ClientSession,
) -> None:
    patch = "*** Begin Patch\n*** Add File: é.txt\n+hello\n*** End Patch\n"
    turn = Turn(Text("let me look"), copilot_bash("ls /x/é"), apply_patch(patch))
    async with ScriptedResponses(turn) as model:
        status, stream = await post(http, model, request(stream=True))

    events, built = assemble(stream)
    kinds = [e["type"] for e in events]
    assert status == 200
    assert kinds[:2] == ["response.created", "response.in_progress"]
    assert kinds[-1] == "response.completed"
    assert kinds.count("response.output_item.added") == kinds.count("response.output_item.done")
    assert [e["sequence_number"] for e in events] == list(range(len(events)))
    completed = built["completed"]
    assert built["output"] == completed["output"]
    assert [e["item"] for e in events if e["type"] == "response.output_item.done"] == (
        completed["output"]
    )
    text, call, custom = completed["output"]
    assert text["content"][0]["text"] == "let me look"
    assert json.loads(call["arguments"]) == {"command": "ls /x/é", "description": "Run a command"}
    assert (custom["type"], custom["name"], custom["input"]) == (
        "custom_tool_call",
        "apply_patch",
        patch,
    )
    assert events[0]["response"]["status"] == "in_progress"
    assert completed["usage"]["total_tokens"] >= 1


async def test_a_request_offering_no_tools_is_a_side_query(http: aiohttp.ClientSession) -> None:
    side = {"model": "gpt-mini", "input": "Summarise the title"}
    async with ScriptedResponses(Turn("scripted"), side_answer="A title") as model:
        _, title = await post(http, model, side)
        _, main = await post(http, model, request())

    assert title["output"][0]["content"][0]["text"] == "A title"
    assert main["output"][0]["content"][0]["text"] == "scripted"
    assert [r.side for r in model.requests] == [True, False]
    assert model.requests[0].input[0]["content"] == "Summarise the title"
    assert (model.answered, model.overran) == (1, 0)


async def test_the_record_says_what_reached_the_model_since_its_last_answer(
    http: aiohttp.ClientSession,
) -> None:
    said = {"type": "function_call", "call_id": "c1", "name": "exec_command", "arguments": "{}"}
    output = {"type": "function_call_output", "call_id": "c1", "output": "blocked: no rm"}
    context = {
        "type": "message",
        "role": "developer",
        "content": [{"type": "input_text", "text": "hook context: be careful"}],
    }
    async with ScriptedResponses(Turn("ok")) as model:
        await post(http, model, request(said, output, context))

    [seen] = model.conversation
    assert seen.tool_outputs() == [output]
    assert seen.output_text("c1") == "blocked: no rm" and seen.output_text("other") == ""
    assert "hook context: be careful" in seen.new_text()
    assert "hi" not in seen.new_text() and "hi" in seen.text()
    assert seen.instructions == "You are a coding agent."
    assert seen.tool_names == ["exec_command"]


def test_tool_call_helpers_write_what_each_agent_offers() -> None:
    assert exec_command("ls") == ToolUse("exec_command", {"cmd": "ls"})
    assert copilot_bash("ls", "list").input == {"command": "ls", "description": "list"}
    assert apply_patch("P").name == "apply_patch" and apply_patch("P").input == "P"
