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

Command line: ``python -m amplifier_hooks.testing.chat_completions --script FILE [--port N]
[--api-key KEY] [--record FILE]`` (the script format is in `amplifier_hooks.testing.turns`).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, Final

from aiohttp import web

from amplifier_hooks.testing.standin import RecordedRequest, ScriptedServer, serve_script, strings
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

MESSAGE_TEXT: Final = ("content", "text", "arguments")
"""The fields of a message whose strings are what was said (a tool call's arguments too)."""


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


class ChatRequest(RecordedRequest):
    """One Chat Completions request as the model received it."""

    @property
    def messages(self) -> list[dict[str, Any]]:
        value = self.body.get("messages", [])
        return [m for m in value if isinstance(m, dict)] if isinstance(value, list) else []

    @property
    def system(self) -> str:
        """The system (and developer) messages' text, joined."""
        said = [m for m in self.messages if m.get("role") in ("system", "developer")]
        return "\n".join(strings(said, MESSAGE_TEXT))

    @property
    def tool_names(self) -> list[str]:
        """The names of the tools offered to the model."""
        names = []
        for tool in self.body.get("tools") or []:
            function = tool.get("function") if isinstance(tool, dict) else None
            if isinstance(function, dict) and function.get("name"):
                names.append(str(function["name"]))
        return names

    def _since_last_answer(self) -> list[dict[str, Any]]:
        messages = self.messages
        last = max((i for i, m in enumerate(messages) if m.get("role") == "assistant"), default=-1)
        return messages[last + 1 :]

    def tool_results(self) -> list[dict[str, Any]]:
        """The ``role: "tool"`` messages sent since the model's last answer."""
        return [m for m in self._since_last_answer() if m.get("role") == "tool"]

    def output_text(self, call_id: str | None = None) -> str:
        """The text of the tool results since the model's last answer (of one call)."""
        return "\n".join(
            "\n".join(strings(m.get("content"), MESSAGE_TEXT))
            for m in self.tool_results()
            if call_id is None or m.get("tool_call_id") == call_id
        )

    def new_text(self) -> str:
        """Every string the agent sent after the model's last answer, joined: tool
        results, user messages (hook context, reminders), the prompt."""
        return "\n".join(strings(self._since_last_answer(), MESSAGE_TEXT))

    def text(self) -> str:
        """Every string in the conversation, joined (system messages included)."""
        return "\n".join(strings(self.messages, MESSAGE_TEXT))


class ScriptedChat(ScriptedServer):
    """The Chat Completions API on 127.0.0.1 answering from a script; use as ``async with``.

    ``base_url`` is the server's root: agents take ``base_url + "/v1"``
    (`ScriptedChat.v1_url`). ``turns`` answer the conversation in order; then ``then`` (a
    plain "Done.") answers and `overran` counts how often.
    """

    name: ClassVar[str] = "OpenAI Chat Completions API"
    record_type: ClassVar[type[RecordedRequest]] = ChatRequest
    requests: list[ChatRequest]

    def __init__(self, *turns: Turn, model: str = "gpt-scripted", **options: Any) -> None:
        super().__init__(*turns, model=model, **options)

    @property
    def v1_url(self) -> str:
        """The base URL agents take (``…/v1``)."""
        return self.base_url + "/v1"

    @property
    def conversation(self) -> list[ChatRequest]:
        """The conversation's requests (one per scripted turn answered)."""
        return [r for r in self.requests if not r.side and r.path.endswith("/chat/completions")]

    def error(self, status: int, kind: str, message: str) -> web.Response:
        return web.json_response(
            {"error": {"message": message, "type": kind, "param": None, "code": kind}},
            status=status,
        )

    async def answer(
        self, request: web.Request, body: dict[str, Any], side: bool
    ) -> web.StreamResponse:
        if request.method == "GET" and request.path.endswith("/models"):
            created = int(time.time())
            model = {"id": self.model, "object": "model", "created": created, "owned_by": "test"}
            return web.json_response({"object": "list", "data": [model]})
        if request.method != "POST" or not request.path.endswith("/chat/completions"):
            return self.error(
                404, "not_found", f"no such endpoint: {request.method} {request.path}"
            )
        turn = self.take(side)
        if any(isinstance(block, CustomToolCall) for block in turn.blocks):
            return self.error(500, "script_error", "Chat Completions has no free-form tool calls")
        completion = self._completion(turn, str(body.get("model") or self.model))
        if not body.get("stream"):
            return web.json_response(completion)
        options = body.get("stream_options")
        usage = isinstance(options, dict) and bool(options.get("include_usage"))
        return await self._stream(request, _chunks(completion, usage=usage))

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

    async def _stream(
        self, request: web.Request, chunks: Iterator[Mapping[str, Any]]
    ) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        for chunk in chunks:
            await response.write(f"data: {json.dumps(chunk)}\n\n".encode())
        await response.write(b"data: [DONE]\n\n")
        await response.write_eof()
        return response


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
        for piece in _halves(function["arguments"]):
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, choice["finish_reason"])
    if usage:
        yield {**head, "choices": [], "usage": completion["usage"]}


def _halves(text: str) -> Sequence[str]:
    half = len(text) // 2
    return [part for part in (text[:half], text[half:]) if part]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m amplifier_hooks.testing.chat_completions --script FILE --port N``."""
    return serve_script(
        ScriptedChat,
        argv,
        out=sys.stdout,  # this program's own output: the lines a user reads
        usage="Agents take BASE_URL + '/v1' (OpenCode: a provider's options.baseURL; "
        "Cline: cline auth -b; OpenClaw: models.providers.<id>.baseUrl).",
    )


if __name__ == "__main__":
    raise SystemExit(main())
