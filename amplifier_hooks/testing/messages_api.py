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

import itertools
import json
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from aiohttp import web

__all__ = [
    "DEFAULT_API_KEY",
    "RecordedRequest",
    "ScriptedModel",
    "Text",
    "ToolUse",
    "Turn",
    "bash",
    "is_side_query",
]

MAX_REQUEST_BYTES: Final = 64 * 1024 * 1024
"""A long agent conversation is resent whole on every turn; 64 MiB leaves room for it."""

DEFAULT_API_KEY: Final = "scripted-model"
"""The key a `ScriptedModel` takes when given none: what ``ANTHROPIC_API_KEY`` is set to for
an agent pointed at it (it listens on 127.0.0.1 only)."""

MAIN_TOOL: Final = "Bash"
"""A request offering this tool belongs to an agent loop; side queries offer no tools."""


@dataclass(frozen=True)
class Text:
    """A text block the model says."""

    text: str


@dataclass(frozen=True)
class ToolUse:
    """A tool call the model makes; ``id`` is generated when not given."""

    name: str
    input: Mapping[str, Any]
    id: str | None = None


Block = Text | ToolUse


@dataclass(frozen=True)
class Turn:
    """One answer of the model: its blocks, in order. A turn with a tool call stops with
    ``tool_use`` (the agent runs the tools and asks again); otherwise with ``end_turn``."""

    blocks: tuple[Block, ...]

    def __init__(self, *blocks: Block | str) -> None:
        made = tuple(Text(b) if isinstance(b, str) else b for b in blocks)
        object.__setattr__(self, "blocks", made)

    @property
    def stop_reason(self) -> str:
        return "tool_use" if any(isinstance(b, ToolUse) for b in self.blocks) else "end_turn"


def bash(command: str, description: str = "Run a command") -> ToolUse:
    """A Bash tool call, the way Claude Code's model writes one."""
    return ToolUse("Bash", {"command": command, "description": description})


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the model received it."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: Mapping[str, Any]
    side: bool
    """True for a side query (answered without consuming the script)."""

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
        return "\n".join(_strings(messages[last + 1 :]))

    def text(self) -> str:
        """Every string in the conversation, joined (system prompt excluded)."""
        return "\n".join(_strings(self.messages))


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key in ("text", "content") or isinstance(item, list | dict):
                yield from _strings(item)


def is_side_query(body: Mapping[str, Any]) -> bool:
    """Whether a request is not part of the agent's conversation.

    Claude Code's conversation requests always offer its tools (Bash among them); its side
    queries -- titles, summaries, classifiers -- offer none. Subagents also offer tools, so a
    test that lets the model start one scripts the subagent's turns too.
    """
    tools = body.get("tools") or []
    return not any(isinstance(t, dict) and t.get("name") == MAIN_TOOL for t in tools)


class ScriptedModel:
    """A Messages API on 127.0.0.1 answering from a script; use as ``async with``.

    ``turns`` answer the main conversation in order. When they are used up, ``then``
    answers (by default a plain "Done." that ends the agent's turn) and `overran` counts
    how often, so a test notices an agent that asked more than the script expected.
    """

    def __init__(
        self,
        *turns: Turn,
        then: Turn | None = None,
        side_answer: str = "OK",
        side_query: Callable[[Mapping[str, Any]], bool] = is_side_query,
        model: str = "claude-scripted",
        max_request_bytes: int = MAX_REQUEST_BYTES,
        api_key: str = DEFAULT_API_KEY,
        port: int = 0,
    ) -> None:
        self.turns: list[Turn] = list(turns)
        self.then = then if then is not None else Turn("Done.")
        self.side_answer = side_answer
        self.side_query = side_query
        self.model = model
        self.max_request_bytes = max_request_bytes
        if not api_key:
            raise ValueError("api_key must not be empty: the server refuses requests without it")
        self.api_key = api_key
        """The key the agent must send (``x-api-key`` or a bearer token)."""
        self.requests: list[RecordedRequest] = []
        """Every request with a readable body, side queries included, in arrival order."""
        self.overran = 0
        self._next = 0
        self._ids = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self._port = port
        """The port to bind (0: a free one), then the one bound."""

    # -- lifecycle ---------------------------------------------------------------------

    async def start(self) -> str:
        """Start serving; returns the base URL (for ``ANTHROPIC_BASE_URL``)."""
        app = web.Application(client_max_size=self.max_request_bytes)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self._port)
        await site.start()
        self._port = int(self._runner.addresses[0][1])
        return self.base_url

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> ScriptedModel:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    # -- what was asked ----------------------------------------------------------------

    @property
    def conversation(self) -> list[RecordedRequest]:
        """The main conversation's requests (one per scripted turn answered)."""
        return [r for r in self.requests if not r.side and r.path == "/v1/messages"]

    @property
    def answered(self) -> int:
        """How many scripted turns were used."""
        return self._next

    # -- serving -----------------------------------------------------------------------

    def _authorised(self, request: web.Request) -> bool:
        given = request.headers.get("x-api-key", "")
        bearer = request.headers.get("Authorization", "")
        if bearer.startswith("Bearer "):
            given = given or bearer[len("Bearer ") :]
        return secrets.compare_digest(given.encode(), self.api_key.encode())

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        if not self._authorised(request):
            return _error(401, "authentication_error", "invalid x-api-key")
        try:
            raw = await request.read()
        except web.HTTPRequestEntityTooLarge:
            return _error(413, "request_too_large", f"over {self.max_request_bytes} bytes")
        try:
            body = json.loads(raw) if raw else {}
        except ValueError as exc:
            return _error(400, "invalid_request_error", f"unreadable body: {exc}")
        if not isinstance(body, dict):
            return _error(400, "invalid_request_error", "body must be a JSON object")
        if request.method != "POST":
            return _error(404, "not_found_error", f"{request.method} {request.path}")
        side = self.side_query(body)
        self.requests.append(
            RecordedRequest(request.method, request.path, dict(request.headers), body, side)
        )
        if request.path == "/v1/messages/count_tokens":
            return web.json_response({"input_tokens": max(1, len(raw) // 4)})
        if request.path != "/v1/messages":
            return _error(404, "not_found_error", f"no such endpoint: {request.path}")
        turn = Turn(self.side_answer) if side else self._take()
        message = self._message(turn, str(body.get("model") or self.model))
        if body.get("stream"):
            return await self._stream(request, message)
        return web.json_response(message)

    def _take(self) -> Turn:
        if self._next < len(self.turns):
            turn = self.turns[self._next]
            self._next += 1
            return turn
        self.overran += 1
        return self.then

    def _message(self, turn: Turn, model: str) -> dict[str, Any]:
        content: list[dict[str, Any]] = []
        for block in turn.blocks:
            if isinstance(block, Text):
                content.append({"type": "text", "text": block.text})
            else:
                tool_id = block.id or f"toolu_scripted_{next(self._ids):04d}"
                content.append(
                    {"type": "tool_use", "id": tool_id, "name": block.name, "input": block.input}
                )
        return {
            "id": f"msg_scripted_{next(self._ids):04d}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": content,
            "stop_reason": turn.stop_reason,
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }

    async def _stream(self, request: web.Request, message: dict[str, Any]) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        for name, data in _events(message):
            await response.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
        await response.write_eof()
        return response


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


def _error(status: int, kind: str, message: str) -> web.Response:
    return web.json_response(
        {"type": "error", "error": {"type": kind, "message": message}}, status=status
    )
