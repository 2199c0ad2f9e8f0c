"""A scripted stand-in for the Gemini API, on loopback, for driving the real Gemini CLI.

Gemini CLI talks to its model over ``POST /v1beta/models/<model>:streamGenerateContent?alt=sse``
and ``…:generateContent``; pointing it at `ScriptedGemini` (``GOOGLE_GEMINI_BASE_URL``, any
``GEMINI_API_KEY`` it was given) replaces the model with a script of `Turn` s: text becomes
``text`` parts, a `ToolUse` a ``functionCall`` part. Every request is recorded
(`GeminiRequest`), so a test can assert what reached the model: a tool's response, a hook's
deny reason, context a hook added.

Requests that declare no functions are the CLI's side queries (its model router, the
next-speaker check) and consume nothing. Those ask for JSON in a schema
(``generationConfig.responseJsonSchema``/``responseSchema``); the answer fills the schema:
strings with `side_answer`, an enum with its first value, numbers with 1 -- so the router's
``complexity_reasoning``/``complexity_score`` is satisfied and the next speaker is the user.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from aiohttp import web

from amplifier_hooks.testing.standin import RecordedRequest, ScriptedServer, serve_script, strings
from amplifier_hooks.testing.turns import CustomToolCall, Text, ToolUse, Turn

__all__ = ["GeminiRequest", "ScriptedGemini", "fill_schema", "main", "run_shell_command"]

GENERATE = frozenset({"generateContent", "streamGenerateContent"})


def run_shell_command(command: str, description: str = "Run a command") -> ToolUse:
    """Gemini CLI's shell tool call."""
    return ToolUse("run_shell_command", {"command": command, "description": description})


class GeminiRequest(RecordedRequest):
    """One Gemini API request as the model received it."""

    @property
    def method_name(self) -> str:
        """``generateContent``, ``streamGenerateContent``, ``countTokens`` …"""
        return self.path.rpartition(":")[2]

    @property
    def model(self) -> str:
        """The model named in the path (``gemini-2.5-pro``)."""
        return self.path.rpartition("/models/")[2].partition(":")[0]

    @property
    def contents(self) -> list[dict[str, Any]]:
        value = self.body.get("contents", [])
        return [c for c in value if isinstance(c, dict)] if isinstance(value, list) else []

    @property
    def function_names(self) -> list[str]:
        """The functions declared to the model."""
        return [
            str(d.get("name"))
            for tool in self.body.get("tools") or []
            if isinstance(tool, dict)
            for d in tool.get("functionDeclarations") or []
            if isinstance(d, dict)
        ]

    def _since_last_answer(self) -> list[dict[str, Any]]:
        contents = self.contents
        last = max((i for i, c in enumerate(contents) if c.get("role") == "model"), default=-1)
        return contents[last + 1 :]

    def function_responses(self) -> list[dict[str, Any]]:
        """The ``functionResponse`` parts sent since the model's last answer."""
        return [
            part["functionResponse"]
            for content in self._since_last_answer()
            for part in content.get("parts") or []
            if isinstance(part, dict) and isinstance(part.get("functionResponse"), dict)
        ]

    def new_text(self) -> str:
        """Every string the agent sent after the model's last answer, joined: function
        responses, hook context, the user's prompt."""
        return "\n".join(strings(self._since_last_answer()))

    def text(self) -> str:
        """Every string in the conversation, joined (``systemInstruction`` excluded)."""
        return "\n".join(strings(self.contents))


def _declares_functions(body: Mapping[str, Any]) -> bool:
    tools = body.get("tools") or []
    return any(isinstance(t, dict) and t.get("functionDeclarations") for t in tools)


def fill_schema(schema: Any, text: str) -> Any:
    """A value that satisfies a response schema (OpenAPI or JSON Schema, either case of
    type name): strings are ``text``, an enum takes its first value, numbers are 1."""
    if not isinstance(schema, Mapping):
        return text
    if schema.get("enum"):
        return schema["enum"][0]
    kind = str(schema.get("type", "string")).lower()
    if kind == "object":
        properties = schema.get("properties") or {}
        return {name: fill_schema(sub, text) for name, sub in properties.items()}
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        return 1
    if kind == "boolean":
        return False
    return text


class ScriptedGemini(ScriptedServer):
    """The Gemini API on 127.0.0.1 answering from a script; use as ``async with``.

    ``base_url`` is what Gemini CLI takes as ``GOOGLE_GEMINI_BASE_URL``. The key is
    accepted as ``x-goog-api-key``, ``?key=`` or a bearer token.
    """

    name: ClassVar[str] = "Gemini API"
    usage: ClassVar[str] = (
        "Gemini CLI takes BASE_URL as GOOGLE_GEMINI_BASE_URL, API_KEY as GEMINI_API_KEY."
    )
    record_type: ClassVar[type[RecordedRequest]] = GeminiRequest
    requests: list[GeminiRequest]

    def __init__(self, *turns: Turn, model: str = "gemini-scripted", **options: Any) -> None:
        super().__init__(*turns, model=model, **options)

    @staticmethod
    def is_side_query(body: Mapping[str, Any]) -> bool:
        """A request declaring no functions is not the agent loop."""
        return not _declares_functions(body)

    @property
    def conversation(self) -> list[GeminiRequest]:
        """The conversation's requests (one per scripted turn answered)."""
        return [r for r in self.requests if not r.side and r.method_name in GENERATE]

    def keys_given(self, request: web.Request) -> list[str]:
        return [
            *super().keys_given(request),
            request.headers.get("x-goog-api-key", ""),
            request.query.get("key", ""),
        ]

    def error(self, status: int, kind: str, message: str) -> web.Response:
        body = {"error": {"code": status, "message": message, "status": kind.upper()}}
        return web.json_response(body, status=status)

    async def answer(
        self, request: web.Request, body: dict[str, Any], side: bool
    ) -> web.StreamResponse:
        method = request.path.rpartition(":")[2] if "/models/" in request.path else ""
        if request.method != "POST" or not method:
            return self.error(
                404, "not_found", f"no such endpoint: {request.method} {request.path}"
            )
        if method == "countTokens":
            return web.json_response({"totalTokens": max(1, len(json.dumps(body)) // 4)})
        if method not in GENERATE:
            return self.error(404, "not_found", f"no such method: {method}")
        chunks = self._chunks(self._turn(body, side))
        if method == "generateContent":
            return web.json_response(_merge(chunks))
        return await self.stream(request, [(None, chunk) for chunk in chunks])

    def _turn(self, body: Mapping[str, Any], side: bool) -> Turn:
        if not side:
            return self.take(side=False)
        config = body.get("generationConfig") or {}
        schema = config.get("responseJsonSchema") or config.get("responseSchema")
        if schema is None and config.get("responseMimeType") != "application/json":
            return self.take(side=True)
        return Turn(json.dumps(fill_schema(schema or {"type": "object"}, self.side_answer)))

    def _chunks(self, turn: Turn) -> list[dict[str, Any]]:
        """One streamed chunk per part, the last with the finish reason and usage."""
        parts: list[dict[str, Any]] = []
        for block in turn.blocks:
            if isinstance(block, Text):
                parts.append({"text": block.text})
            elif isinstance(block, ToolUse):
                call: dict[str, Any] = {"name": block.name, "args": dict(block.input)}
                if block.id is not None:
                    call["id"] = block.id
                parts.append({"functionCall": call})
            elif isinstance(block, CustomToolCall):
                raise ValueError("the Gemini API has no free-form tool calls; use ToolUse")
        chunks = [_response([part]) for part in parts or [{"text": ""}]]
        chunks[-1]["candidates"][0]["finishReason"] = "STOP"
        chunks[-1]["usageMetadata"] = {
            "promptTokenCount": 1,
            "candidatesTokenCount": 1,
            "totalTokenCount": 2,
        }
        for chunk in chunks:
            chunk["modelVersion"] = self.model
            chunk["responseId"] = self.new_id("resp")
        return chunks


def _response(parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {"candidates": [{"content": {"role": "model", "parts": parts}, "index": 0}]}


def _merge(chunks: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The unstreamed answer: every chunk's parts in one candidate."""
    merged = dict(chunks[-1])
    parts = [p for chunk in chunks for p in chunk["candidates"][0]["content"]["parts"]]
    candidate = {**chunks[-1]["candidates"][0], "content": {"role": "model", "parts": parts}}
    merged["candidates"] = [candidate]
    return merged


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m amplifier_hooks.testing.gemini_api --script FILE`` (`serve_script`)."""
    return serve_script(ScriptedGemini, argv, out=sys.stdout)  # its output: what a user reads


if __name__ == "__main__":
    raise SystemExit(main())
