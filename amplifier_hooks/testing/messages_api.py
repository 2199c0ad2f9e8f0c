"""A scripted stand-in for the Anthropic Messages API, on loopback, for driving real agents.

An agent CLI such as Claude Code talks to its model over ``POST /v1/messages``; pointing it
at `ScriptedModel` (``ANTHROPIC_BASE_URL``) replaces the model with a script, so a test runs
the real agent -- its hooks, permission checks and tools -- and decides exactly which tool
calls the "model" makes. Every request is recorded, so the test can assert what reached the
model: tool results, a hook's deny reason, injected context.

The script is a list of turns, one per request of the main conversation. Requests that are
not part of it -- the agent's own side queries (titles, summaries, a small model's checks)
-- are answered with a short text and consume nothing; `is_side_query` says which those are.

The server binds 127.0.0.1 on a free port, refuses requests without its API key and caps
the request size.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Final

from aiohttp import web

from amplifier_hooks.testing.standin import MAX_REQUEST_BYTES, ScriptedServer, serve_script, strings
from amplifier_hooks.testing.standin import RecordedRequest as _Recorded
from amplifier_hooks.testing.turns import CustomToolCall, Text, ToolUse, Turn

__all__ = [
    "MAX_REQUEST_BYTES",
    "RecordedRequest",
    "ScriptedModel",
    "Text",
    "ToolUse",
    "Turn",
    "bash",
    "is_side_query",
    "main",
]

MESSAGE_TEXT: Final = ("text", "content")
"""The fields of a message whose strings are what was said."""

MAIN_TOOL: Final = "Bash"
"""A request offering this tool belongs to an agent loop; side queries offer no tools."""


def bash(command: str, description: str = "Run a command") -> ToolUse:
    """A Bash tool call, the way Claude Code's model writes one."""
    return ToolUse("Bash", {"command": command, "description": description})


class RecordedRequest(_Recorded):
    """One Messages API request as the model received it."""

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages", []))

    def tool_results(self) -> list[dict[str, Any]]:
        """The ``tool_result`` blocks of the last user message (what the tools returned)."""
        for message in reversed(self.messages):
            if message.get("role") == "user" and isinstance(message.get("content"), list):
                return [b for b in message["content"] if b.get("type") == "tool_result"]
        return []

    def new_text(self) -> str:
        """Every string the agent sent after the model's last answer, joined: tool results,
        hook context (Claude Code sends that as a ``system`` message), reminders."""
        messages = self.messages
        last = max((i for i, m in enumerate(messages) if m.get("role") == "assistant"), default=-1)
        return "\n".join(strings(messages[last + 1 :], MESSAGE_TEXT))

    def text(self) -> str:
        """Every string in the conversation, joined (system prompt excluded)."""
        return "\n".join(strings(self.messages, MESSAGE_TEXT))


def is_side_query(body: Mapping[str, Any]) -> bool:
    """Whether a request is not part of the agent's conversation.

    Claude Code's conversation requests always offer its tools (Bash among them); its side
    queries -- titles, summaries, classifiers -- offer none. Subagents also offer tools, so a
    test that lets the model start one scripts the subagent's turns too.
    """
    tools = body.get("tools") or []
    return not any(isinstance(t, dict) and t.get("name") == MAIN_TOOL for t in tools)


class ScriptedModel(ScriptedServer):
    """A Messages API on 127.0.0.1 answering from a script; use as ``async with``.

    ``turns`` answer the main conversation in order. When they are used up, ``then``
    answers (by default a plain "Done." that ends the agent's turn) and `overran` counts
    how often, so a test notices an agent that asked more than the script expected. The
    key (`api_key`) is accepted as ``x-api-key`` or a bearer token.
    """

    name: ClassVar[str] = "Anthropic Messages API"
    usage: ClassVar[str] = "Agents take BASE_URL (ANTHROPIC_BASE_URL)."
    record_type: ClassVar[type[_Recorded]] = RecordedRequest
    requests: list[RecordedRequest]

    def __init__(self, *turns: Turn, model: str = "claude-scripted", **options: Any) -> None:
        super().__init__(*turns, model=model, **options)

    is_side_query = staticmethod(is_side_query)

    @property
    def conversation(self) -> list[RecordedRequest]:
        """The main conversation's requests (one per scripted turn answered)."""
        return [r for r in self.requests if not r.side and r.path == "/v1/messages"]

    def error(self, status: int, kind: str, message: str) -> web.Response:
        return web.json_response(
            {"type": "error", "error": {"type": kind, "message": message}}, status=status
        )

    async def answer(
        self, request: web.Request, body: dict[str, Any], side: bool
    ) -> web.StreamResponse:
        if request.method != "POST":
            return self.error(404, "not_found_error", f"{request.method} {request.path}")
        if request.path == "/v1/messages/count_tokens":
            return web.json_response({"input_tokens": max(1, len(await request.read()) // 4)})
        if request.path != "/v1/messages":
            return self.error(404, "not_found_error", f"no such endpoint: {request.path}")
        message = self._message(self.take(side), self.model_of(body))
        return await self.reply(request, body, message, list(_events(message)))

    def _message(self, turn: Turn, model: str) -> dict[str, Any]:
        content: list[dict[str, Any]] = []
        for block in turn.blocks:
            if isinstance(block, Text):
                content.append({"type": "text", "text": block.text})
            elif isinstance(block, CustomToolCall):
                raise ValueError("the Messages API has no free-form tool calls; use ToolUse")
            else:
                tool_id = block.id or self.new_id("toolu")
                content.append(
                    {"type": "tool_use", "id": tool_id, "name": block.name, "input": block.input}
                )
        return {
            "id": self.new_id("msg"),
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": content,
            "stop_reason": turn.stop_reason,
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }


def _events(message: dict[str, Any]) -> Iterable[tuple[str, dict[str, Any]]]:
    """The server-sent events that stream ``message``: a tool call's input arrives as
    ``input_json_delta`` pieces, the way the real API sends it."""
    start = {**message, "content": [], "stop_reason": None}
    yield "message_start", {"type": "message_start", "message": start}
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            opening: dict[str, Any] = {"type": "text", "text": ""}
            deltas: Sequence[dict[str, Any]] = [{"type": "text_delta", "text": block["text"]}]
        else:
            opening = {**block, "input": {}}
            encoded = json.dumps(block["input"])
            half = len(encoded) // 2
            deltas = [
                {"type": "input_json_delta", "partial_json": part}
                for part in (encoded[:half], encoded[half:])
            ]
        yield (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": index,
                "content_block": opening,
            },
        )
        for delta in deltas:
            yield (
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": delta},
            )
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    yield (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
            "usage": {"output_tokens": 1},
        },
    )
    yield "message_stop", {"type": "message_stop"}


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m amplifier_hooks.testing.messages_api --script FILE`` (`serve_script`)."""
    return serve_script(ScriptedModel, argv, out=sys.stdout)  # its output: what a user reads


if __name__ == "__main__":
    raise SystemExit(main())
