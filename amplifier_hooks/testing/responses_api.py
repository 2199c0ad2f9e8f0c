"""A scripted stand-in for the OpenAI Responses API, on loopback, for driving real agents.

Codex (``model_providers.<name>.base_url``, ``wire_api = "responses"``) and GitHub Copilot
CLI (``COPILOT_PROVIDER_BASE_URL``, ``COPILOT_PROVIDER_WIRE_API=responses``) talk to their
model over ``POST /v1/responses``; pointing them at `ScriptedResponses` replaces the model
with a script of `Turn` s, so a test runs the real agent -- its hooks, permission checks and
tools -- and decides exactly which tool calls the "model" makes. A `ToolUse` becomes a
``function_call`` (arguments as JSON text), a `CustomToolCall` a free-form
``custom_tool_call`` (Codex's ``apply_patch``), text an assistant ``message``. Streamed
answers follow the real event sequence (``response.created``, ``response.output_item.added``,
the deltas, ``response.output_item.done``, ``response.completed``).

Every request is recorded (`ResponsesRequest`), so a test can assert what reached the model:
a tool's output, a hook's deny reason, context a hook added as a developer message. Requests
that offer no tools -- the agent's own side queries -- get `side_answer` and consume nothing.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

from aiohttp import web

from amplifier_hooks.testing.openai_api import OpenAIRequest, OpenAIServer, halves
from amplifier_hooks.testing.standin import RecordedRequest, serve_script
from amplifier_hooks.testing.turns import CustomToolCall, Text, ToolUse, Turn

__all__ = [
    "ResponsesRequest",
    "ScriptedResponses",
    "apply_patch",
    "copilot_bash",
    "exec_command",
    "main",
]

ASSISTANT_ITEMS = frozenset({"function_call", "custom_tool_call", "reasoning"})
"""Input item types the model wrote (besides assistant messages)."""

OUTPUT_ITEMS = frozenset({"function_call_output", "custom_tool_call_output"})


def exec_command(cmd: str) -> ToolUse:
    """Codex's shell tool call (``exec_command``)."""
    return ToolUse("exec_command", {"cmd": cmd})


def apply_patch(patch: str) -> CustomToolCall:
    """Codex's file edit: the patch (``*** Begin Patch`` ... ``*** End Patch``) as a
    free-form ``apply_patch`` call."""
    return CustomToolCall("apply_patch", patch)


def copilot_bash(command: str, description: str = "Run a command") -> ToolUse:
    """GitHub Copilot CLI's shell tool call (``bash``)."""
    return ToolUse("bash", {"command": command, "description": description})


class ResponsesRequest(OpenAIRequest):
    """One Responses API request as the model received it (``text()`` leaves
    ``instructions`` out)."""

    item_text: ClassVar[tuple[str, ...]] = ("text", "content", "output", "arguments", "input")

    @property
    def input(self) -> list[dict[str, Any]]:
        """The conversation items (a bare string input is one user message)."""
        value = self.body.get("input", [])
        if isinstance(value, str):
            return [{"type": "message", "role": "user", "content": value}]
        return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []

    @property
    def items(self) -> list[dict[str, Any]]:
        return self.input

    @staticmethod
    def is_model_item(item: Mapping[str, Any]) -> bool:
        kind = item.get("type", "message")
        return kind in ASSISTANT_ITEMS or (kind == "message" and item.get("role") == "assistant")

    @staticmethod
    def is_tool_output(item: Mapping[str, Any]) -> bool:
        """``function_call_output`` and ``custom_tool_call_output`` items."""
        return item.get("type") in OUTPUT_ITEMS

    @property
    def instructions(self) -> str:
        return str(self.body.get("instructions") or "")


class ScriptedResponses(OpenAIServer):
    """`OpenAIServer` speaking the Responses API."""

    name: ClassVar[str] = "OpenAI Responses API"
    usage: ClassVar[str] = (
        "Agents take BASE_URL + '/v1' (Codex: model_providers.<name>.base_url; "
        "Copilot CLI: COPILOT_PROVIDER_BASE_URL)."
    )
    record_type: ClassVar[type[RecordedRequest]] = ResponsesRequest
    endpoint: ClassVar[str] = "/responses"
    requests: list[ResponsesRequest]

    async def respond(
        self, request: web.Request, body: dict[str, Any], turn: Turn
    ) -> web.StreamResponse:
        response = self._response(turn, self.model_of(body))
        return await self.reply(request, body, response, list(_events(response)))

    def _response(self, turn: Turn, model: str) -> dict[str, Any]:
        output: list[dict[str, Any]] = []
        for block in turn.blocks:
            if isinstance(block, Text):
                output.append(
                    {
                        "type": "message",
                        "id": self.new_id("msg"),
                        "status": "completed",
                        "role": "assistant",
                        "content": [{"type": "output_text", "text": block.text, "annotations": []}],
                    }
                )
            elif isinstance(block, ToolUse):
                arguments = {"arguments": json.dumps(block.input)}
                output.append(self._call("function_call", "fc", block, arguments))
            elif isinstance(block, CustomToolCall):
                output.append(self._call("custom_tool_call", "ctc", block, {"input": block.input}))
        return {
            "id": self.new_id("resp"),
            "object": "response",
            "created_at": int(time.time()),
            "status": "completed",
            "model": model,
            "output": output,
            "parallel_tool_calls": True,
            "error": None,
            "incomplete_details": None,
            "usage": {
                "input_tokens": 1,
                "input_tokens_details": {"cached_tokens": 0},
                "output_tokens": 1,
                "output_tokens_details": {"reasoning_tokens": 0},
                "total_tokens": 2,
            },
        }

    def _call(
        self, kind: str, prefix: str, block: ToolUse | CustomToolCall, said: dict[str, Any]
    ) -> dict[str, Any]:
        """An output item calling a tool: ``said`` is what it passes (its arguments)."""
        return {
            "type": kind,
            "id": self.new_id(prefix),
            "call_id": block.id or self.new_id("call"),
            "name": block.name,
            **said,
            "status": "completed",
        }


def _events(response: dict[str, Any]) -> Iterable[tuple[str, dict[str, Any]]]:
    """The server-sent events that stream ``response``, numbered the way the real API
    numbers them; arguments and text arrive as deltas."""
    return _number(_unnumbered(response))


def _number(
    events: Iterable[tuple[str, dict[str, Any]]],
) -> list[tuple[str, dict[str, Any]]]:
    return [
        (name, {"type": name, "sequence_number": n, **data})
        for n, (name, data) in enumerate(events)
    ]


def _unnumbered(response: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    opening = {**response, "status": "in_progress", "output": [], "usage": None}
    yield "response.created", {"response": opening}
    yield "response.in_progress", {"response": opening}
    for index, item in enumerate(response["output"]):
        where = {"output_index": index, "item_id": item["id"]}
        yield "response.output_item.added", {"output_index": index, "item": _empty(item)}
        if item["type"] == "message":
            part = item["content"][0]
            slot = {**where, "content_index": 0}
            yield "response.content_part.added", {**slot, "part": {**part, "text": ""}}
            yield "response.output_text.delta", {**slot, "delta": part["text"], "logprobs": []}
            yield "response.output_text.done", {**slot, "text": part["text"], "logprobs": []}
            yield "response.content_part.done", {**slot, "part": part}
        elif item["type"] == "function_call":
            for piece in halves(item["arguments"]):
                yield "response.function_call_arguments.delta", {**where, "delta": piece}
            yield (
                "response.function_call_arguments.done",
                {
                    **where,
                    "name": item["name"],
                    "arguments": item["arguments"],
                },
            )
        else:
            for piece in halves(item["input"]):
                yield "response.custom_tool_call_input.delta", {**where, "delta": piece}
            yield "response.custom_tool_call_input.done", {**where, "input": item["input"]}
        yield "response.output_item.done", {"output_index": index, "item": item}
    yield "response.completed", {"response": response}


def _empty(item: dict[str, Any]) -> dict[str, Any]:
    """An output item as ``response.output_item.added`` announces it: nothing said yet."""
    blank = {"message": ("content", []), "function_call": ("arguments", "")}
    key, value = blank.get(item["type"], ("input", ""))
    return {**item, key: value, "status": "in_progress"}


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m amplifier_hooks.testing.responses_api --script FILE`` (`serve_script`)."""
    return serve_script(ScriptedResponses, argv, out=sys.stdout)  # its output: what a user reads


if __name__ == "__main__":
    raise SystemExit(main())
