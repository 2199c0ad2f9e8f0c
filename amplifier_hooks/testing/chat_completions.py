"""A scripted stand-in for the OpenAI Chat Completions API, on loopback, for driving real agents.

OpenCode (a provider with ``"npm": "@ai-sdk/openai-compatible"`` and ``options.baseURL``),
Cline (``cline auth -p openai-compatible -b URL``) and OpenClaw (``api:
"openai-completions"``) talk to their model over ``POST /v1/chat/completions``, streamed;
pointing them at `ScriptedChat` replaces the model with a script of `Turn` s, so a test runs
the real agent -- its hooks or plugins, permission checks and tools -- and decides exactly
which tool calls the "model" makes. A `ToolUse` becomes an entry of ``tool_calls`` (its
arguments JSON text, streamed in two pieces), text the assistant's ``content``. A streamed
answer is ``chat.completion.chunk`` events ending with a ``finish_reason`` chunk, a usage
chunk when ``stream_options.include_usage`` asks for one, and ``data: [DONE]``.

Every request is recorded (`ChatRequest`), so a test can assert what reached the model: a
tool's result (a ``role: "tool"`` message), a hook's deny reason, context a hook added.
Requests that offer no tools -- the agent's own side queries (titles, summaries) -- get
`side_answer` and consume nothing.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

from aiohttp import web

from amplifier_hooks.testing.openai_api import OpenAIRequest, OpenAIServer, halves
from amplifier_hooks.testing.standin import RecordedRequest, serve_script, strings
from amplifier_hooks.testing.turns import CustomToolCall, Text, ToolUse, Turn

__all__ = [
    "ChatRequest",
    "ScriptedChat",
    "cline_editor",
    "cline_run_commands",
    "main",
    "opencode_bash",
    "opencode_write",
]


def opencode_bash(command: str, description: str = "Run a command") -> ToolUse:
    """OpenCode's shell tool call (``bash``)."""
    return ToolUse("bash", {"command": command, "description": description})


def opencode_write(file_path: str, content: str) -> ToolUse:
    """OpenCode's file write (``write``; the path absolute)."""
    return ToolUse("write", {"filePath": file_path, "content": content})


def cline_run_commands(*commands: str) -> ToolUse:
    """Cline's shell tool call (``run_commands``)."""
    return ToolUse("run_commands", {"commands": list(commands)})


def cline_editor(path: str, new_text: str, old_text: str | None = None) -> ToolUse:
    """Cline's file edit (``editor``): a new file's text, or ``old_text`` replaced."""
    return ToolUse("editor", {"path": path, "old_text": old_text, "new_text": new_text})


class ChatRequest(OpenAIRequest):
    """One Chat Completions request as the model received it."""

    item_text: ClassVar[tuple[str, ...]] = ("content", "text", "arguments")
    output_field: ClassVar[str] = "content"
    call_id_field: ClassVar[str] = "tool_call_id"

    @property
    def messages(self) -> list[dict[str, Any]]:
        value = self.body.get("messages", [])
        return [m for m in value if isinstance(m, dict)] if isinstance(value, list) else []

    @property
    def items(self) -> list[dict[str, Any]]:
        return self.messages

    @staticmethod
    def is_model_item(item: Mapping[str, Any]) -> bool:
        return item.get("role") == "assistant"

    @staticmethod
    def is_tool_output(item: Mapping[str, Any]) -> bool:
        return item.get("role") == "tool"

    @property
    def system(self) -> str:
        """The system (and developer) messages' text, joined."""
        said = [m for m in self.messages if m.get("role") in ("system", "developer")]
        return "\n".join(strings(said, self.item_text))

    def tool_results(self) -> list[dict[str, Any]]:
        """The ``role: "tool"`` messages sent since the model's last answer."""
        return self.tool_outputs()


class ScriptedChat(OpenAIServer):
    """`OpenAIServer` speaking Chat Completions."""

    name: ClassVar[str] = "OpenAI Chat Completions API"
    usage: ClassVar[str] = (
        "Agents take BASE_URL + '/v1' (OpenCode: a provider's options.baseURL; "
        "Cline: cline auth -b; OpenClaw: models.providers.<id>.baseUrl)."
    )
    record_type: ClassVar[type[RecordedRequest]] = ChatRequest
    endpoint: ClassVar[str] = "/chat/completions"
    requests: list[ChatRequest]

    async def respond(
        self, request: web.Request, body: dict[str, Any], turn: Turn
    ) -> web.StreamResponse:
        if any(isinstance(block, CustomToolCall) for block in turn.blocks):
            return self.error(500, "script_error", "Chat Completions has no free-form tool calls")
        completion = self._completion(turn, self.model_of(body))
        options = body.get("stream_options")
        usage = isinstance(options, dict) and bool(options.get("include_usage"))
        chunks = [(None, chunk) for chunk in _chunks(completion, usage=usage)]
        return await self.reply(request, body, completion, chunks, last=b"data: [DONE]\n\n")

    def _completion(self, turn: Turn, model: str) -> dict[str, Any]:
        text = "".join(block.text for block in turn.blocks if isinstance(block, Text))
        calls = [
            {
                "id": block.id or self.new_id("call"),
                "type": "function",
                "function": {"name": block.name, "arguments": json.dumps(block.input)},
            }
            for block in turn.blocks
            if isinstance(block, ToolUse)
        ]
        message: dict[str, Any] = {"role": "assistant", "content": text or None}
        if calls:
            message["tool_calls"] = calls
        return {
            "id": self.new_id("chatcmpl"),
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if calls else "stop",
                    "logprobs": None,
                }
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }


def _chunks(completion: dict[str, Any], *, usage: bool) -> Iterator[dict[str, Any]]:
    """The ``chat.completion.chunk`` objects that stream ``completion``, the way the real
    API sends them: the role first, text as a delta, each tool call announced with its id
    and name and its arguments in two pieces, then the finish reason (and usage)."""
    head = {key: completion[key] for key in ("id", "created", "model")}
    head["object"] = "chat.completion.chunk"
    [choice] = completion["choices"]
    message = choice["message"]

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        entry = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}
        return {**head, "choices": [entry]}

    yield chunk({"role": "assistant", "content": ""})
    if message["content"]:
        yield chunk({"content": message["content"]})
    for index, call in enumerate(message.get("tool_calls", [])):
        function = call["function"]
        yield chunk(
            {
                "tool_calls": [
                    {
                        "index": index,
                        "id": call["id"],
                        "type": "function",
                        "function": {"name": function["name"], "arguments": ""},
                    }
                ]
            }
        )
        for piece in halves(function["arguments"]):
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, choice["finish_reason"])
    if usage:
        yield {**head, "choices": [], "usage": completion["usage"]}


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m amplifier_hooks.testing.chat_completions --script FILE`` (`serve_script`)."""
    return serve_script(ScriptedChat, argv, out=sys.stdout)  # its output: what a user reads


if __name__ == "__main__":
    raise SystemExit(main())
