"""What the two OpenAI wire formats' stand-ins share: the ``/v1`` root, the model listing,
the error body, and reading a conversation back out of a recorded request.

Chat Completions (`chat_completions`) and Responses (`responses_api`) differ in how a turn
is written and streamed; everything an agent meets before that -- ``GET /v1/models``, a 404
for an endpoint the API lacks, OpenAI's error object -- is the same, and so is what a test
asks of a request (what the agent sent since the model last spoke). Each wire format names
its endpoint, its items and how it writes a turn; this module does the rest.
"""

from __future__ import annotations

import abc
import time
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from aiohttp import web

from amplifier_hooks.testing.standin import RecordedRequest, ScriptedServer, strings
from amplifier_hooks.testing.turns import Turn

__all__ = ["OpenAIRequest", "OpenAIServer", "halves"]


class OpenAIRequest(RecordedRequest):
    """A recorded request whose conversation is a list of items, some written by the model.

    A wire format says where its items are (`items`), which the model wrote, which carry a
    tool's output and under which fields a string is something said (`item_text`).
    """

    item_text: ClassVar[tuple[str, ...]] = ()
    """The fields of an item whose strings are what was said."""
    output_field: ClassVar[str] = "output"
    """The field of a tool-output item that holds the output."""
    call_id_field: ClassVar[str] = "call_id"
    """The field of a tool-output item that names the call it answers."""

    @property
    @abc.abstractmethod
    def items(self) -> list[dict[str, Any]]:
        """The conversation's items, in order."""

    @staticmethod
    @abc.abstractmethod
    def is_model_item(item: Mapping[str, Any]) -> bool:
        """Whether the model wrote ``item``."""

    @staticmethod
    @abc.abstractmethod
    def is_tool_output(item: Mapping[str, Any]) -> bool:
        """Whether ``item`` carries a tool's output back to the model."""

    @property
    def tool_names(self) -> list[str]:
        """The names of the tools offered to the model: a Chat Completions tool names its
        ``function``, a Responses one itself."""
        names = []
        for tool in self.body.get("tools") or []:
            if isinstance(tool, dict):
                function = tool.get("function")
                named = function if isinstance(function, dict) else tool
                if named.get("name"):
                    names.append(str(named["name"]))
        return names

    def _since_last_answer(self) -> list[dict[str, Any]]:
        items = self.items
        last = max((i for i, item in enumerate(items) if self.is_model_item(item)), default=-1)
        return items[last + 1 :]

    def tool_outputs(self) -> list[dict[str, Any]]:
        """The tool outputs sent since the model's last answer."""
        return [item for item in self._since_last_answer() if self.is_tool_output(item)]

    def output_text(self, call_id: str | None = None) -> str:
        """The text of the tool outputs since the model's last answer (of one call)."""
        return "\n".join(
            "\n".join(strings(item.get(self.output_field), self.item_text))
            for item in self.tool_outputs()
            if call_id is None or item.get(self.call_id_field) == call_id
        )

    def new_text(self) -> str:
        """Every string the agent sent after the model's last answer, joined: tool
        outputs, messages a hook added, the user's prompt."""
        return "\n".join(strings(self._since_last_answer(), self.item_text))

    def text(self) -> str:
        """Every string in the conversation, joined."""
        return "\n".join(strings(self.items, self.item_text))


class OpenAIServer(ScriptedServer):
    """An OpenAI API on 127.0.0.1 answering from a script; use as ``async with``.

    ``base_url`` is the server's root: agents take ``base_url + "/v1"`` (`v1_url`).
    ``turns`` answer the conversation in order; then ``then`` (a plain "Done.") answers and
    `overran` counts how often. A wire format sets `endpoint` and implements `respond`.
    """

    endpoint: ClassVar[str] = ""
    """The path suffix of the one endpoint that answers turns (``/responses``)."""

    def __init__(self, *turns: Turn, model: str = "gpt-scripted", **options: Any) -> None:
        super().__init__(*turns, model=model, **options)

    @property
    def v1_url(self) -> str:
        """The base URL agents take (``…/v1``)."""
        return self.base_url + "/v1"

    @property
    def conversation(self) -> list[Any]:
        """The conversation's requests (one per scripted turn answered)."""
        return [r for r in self.requests if not r.side and r.path.endswith(self.endpoint)]

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
        if request.method != "POST" or not request.path.endswith(self.endpoint):
            return self.error(
                404, "not_found", f"no such endpoint: {request.method} {request.path}"
            )
        return await self.respond(request, body, self.take(side))

    @abc.abstractmethod
    async def respond(
        self, request: web.Request, body: dict[str, Any], turn: Turn
    ) -> web.StreamResponse:
        """The wire format's answer to ``body`` with ``turn``: whole, or streamed when the
        body asks for it."""


def halves(text: str) -> Sequence[str]:
    """``text`` in two pieces (none empty), as the real APIs stream arguments."""
    half = len(text) // 2
    return [part for part in (text[:half], text[half:]) if part]
