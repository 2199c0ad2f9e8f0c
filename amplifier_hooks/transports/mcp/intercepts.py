"""`intercepts`: the requests the bundle judges, each an `Intercept` of the `Relay`.

- ``tools/call``: judged first (`Judge.call`); a refusal is a tool error whose text is the
  reason, so the model can act on it; the server's result passes `Judge.result`;
- ``tools/list``: the tools the bundle hides are left out (`Judge.hidden`);
- ``resources/read``: judged as a Read; refused with a JSON-RPC error carrying the reason.

A request goes on with every field the client sent (``_meta``, a progress token), only
the arguments a hook rewrote replaced. A result nothing changed reaches the client as the
server sent it: the proxy parses no result into models, except one a hook changed, which
must still be a result the client can read. A result read from the proxy's own stdio wire
is not measured again: the wire took no message over the bound.

The events' observers (the event log) are finished off the client's path: ``tool:pre``'s
while the server works on the call, ``tool:post``'s once the client has its answer.
"""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
import pydantic_core
from pydantic import BaseModel, ValidationError

from amplifier_hooks.approvals.auto import HostAsking
from amplifier_hooks.approvals.models import ApprovalDismissed
from amplifier_hooks.engine.reply import Reply as Replied
from amplifier_hooks.transports.mcp.asking import ElicitingAsker, client_asking
from amplifier_hooks.transports.mcp.judge import Judge, Judged, Processed
from amplifier_hooks.transports.mcp.limits import Limits, too_deep
from amplifier_hooks.transports.mcp.relay import (
    After,
    Answer,
    Intercept,
    Relay,
    Reply,
    error_reply,
)
from amplifier_hooks.transports.mcp.server_stdio import SERVER_OVERSIZED

__all__ = ["intercepts"]


class _RelayElicits:
    """`Elicits` over the relay: a form-mode ``elicitation/create`` of the proxy's own."""

    def __init__(self, relay: Relay) -> None:
        self.relay = relay

    async def elicit(self, message: str, requested_schema: dict[str, Any]) -> tuple[str, Any]:
        params = types.ElicitRequestFormParams(message=message, requested_schema=requested_schema)
        answer = await self.relay.ask_client(
            "elicitation/create", params.model_dump(by_alias=True, exclude_none=True, mode="json")
        )
        title = self.relay.peer.title
        if isinstance(answer, types.JSONRPCError):
            raise ApprovalDismissed(f"{title} could not ask: {answer.error.message}")
        try:
            result = types.ElicitResult.model_validate(answer.result)
        except ValidationError:
            raise ApprovalDismissed(f"{title} answered with no readable form") from None
        return result.action, result.content


def _asking(relay: Relay) -> HostAsking:
    peer = relay.peer
    if peer.elicits:
        return client_asking(peer.title, ElicitingAsker(_RelayElicits(relay), peer.title))
    return client_asking(peer.title, None)


def _answer(request: types.JSONRPCRequest, result: dict[str, Any]) -> types.JSONRPCResponse:
    return types.JSONRPCResponse(jsonrpc="2.0", id=request.id, result=result)


def _tool_error(request: types.JSONRPCRequest, text: str) -> types.JSONRPCResponse:
    return _answer(request, {"content": [{"type": "text", "text": text}], "isError": True})


def _dump(model: BaseModel) -> dict[str, Any]:
    return model.model_dump(by_alias=True, exclude_none=True, mode="json")


def _left(replied: Replied[Any]) -> After | None:
    """What is left of ``replied`` once the client has its answer: None when nothing is,
    so that the relay opens no shielded scope to run nothing."""
    return replied.finish if replied.pending else None


def _too_large(relay: Relay, result: dict[str, Any], limits: Limits) -> bool:
    if relay.server.bounded:
        return False  # its wire refused every message over the bound
    return len(pydantic_core.to_json(result)) > limits.max_message


async def _forward(relay: Relay, request: types.JSONRPCRequest, verdict: Replied[Judged]) -> Reply:
    """The server's answer to ``request``; ``verdict``'s observers run while it works, or
    once the wait ends any other way (shielded: a call cancelled, or a proxy stopping,
    still has its record)."""

    async def observed() -> None:
        with anyio.CancelScope(shield=True):
            await verdict.finish()

    try:
        return await relay.ask_server(request, observed if verdict.pending else None)
    finally:
        if verdict.pending:
            await observed()


def _call_result(
    request: types.JSONRPCRequest, reply: types.JSONRPCResponse, done: Processed
) -> Reply:
    """The client's answer to a ``tools/call`` whose result passed ``tool:post``."""
    if not done.allowed:
        return _tool_error(request, done.reason or "withheld by amplifier-hooks")
    if done.result is reply.result and not done.notes:
        return reply  # as the server sent it: nothing scrubbed, changed or added
    try:
        final = _dump(types.CallToolResult.model_validate(done.result))
    except ValidationError:
        return _tool_error(
            request, "withheld by amplifier-hooks: a hook made the result unreadable"
        )
    notes = [{"type": "text", "text": note} for note in done.notes]
    if notes:
        final["content"] = [*final.get("content", []), *notes]
    return _answer(request, final)


def _read_result(
    request: types.JSONRPCRequest, reply: types.JSONRPCResponse, done: Processed
) -> Reply:
    """The client's answer to a ``resources/read`` whose result passed ``tool:post``."""
    if not done.allowed:
        why = done.reason or "withheld by amplifier-hooks"
        return error_reply(request.id, types.INVALID_REQUEST, why)
    if done.result is reply.result:
        return reply
    try:
        return _answer(request, _dump(types.ReadResourceResult.model_validate(done.result)))
    except ValidationError:
        return error_reply(
            request.id,
            types.INVALID_REQUEST,
            "withheld by amplifier-hooks: a hook made the resource unreadable",
        )


def intercepts(judge: Judge, limits: Limits) -> dict[str, Intercept]:
    """The relay's intercepts, judged by ``judge`` within ``limits``."""

    async def call_tool(request: types.JSONRPCRequest, relay: Relay) -> Answer | Reply:
        params = request.params or {}
        name, arguments = params.get("name"), params.get("arguments")
        if arguments is None:
            arguments = {}
        if not isinstance(name, str) or not isinstance(arguments, dict):
            return error_reply(
                request.id, types.INVALID_PARAMS, "tools/call needs a name and object arguments"
            )
        if too_deep(arguments, limits.max_depth):
            return _tool_error(
                request,
                f"refused by amplifier-hooks: the arguments nest deeper than {limits.max_depth} "
                "levels",
            )
        verdict = await judge.call(name, arguments, _asking(relay))
        judged = verdict.answer
        if not judged.allowed:
            why = judged.reason or "denied by amplifier-hooks"
            return Answer(_tool_error(request, why), _left(verdict))
        forwarded = request
        # Compared as JSON, where 1, 1.0 and true differ: a hook that rewrote them.
        if pydantic_core.to_json(judged.arguments) != pydantic_core.to_json(arguments):
            forwarded = request.model_copy(
                update={"params": {**params, "arguments": judged.arguments}}
            )
        reply = await _forward(relay, forwarded, verdict)
        too_large = _tool_error(
            request,
            f"withheld by amplifier-hooks: the result is larger than {limits.max_message} bytes",
        )
        if isinstance(reply, types.JSONRPCError):
            return too_large if reply.error.message == SERVER_OVERSIZED else reply
        result = reply.result
        if _too_large(relay, result, limits):
            return too_large
        processed = await judge.result(judge.tool_data(name, judged.arguments), result)
        return Answer(_call_result(request, reply, processed.answer), _left(processed))

    async def list_tools(request: types.JSONRPCRequest, relay: Relay) -> Reply:
        reply = await relay.ask_server(request)
        if isinstance(reply, types.JSONRPCError):
            return reply
        tools = reply.result.get("tools")
        if not isinstance(tools, list):
            return reply
        # A tool without a name cannot be judged, so it is not shown.
        named = [t for t in tools if isinstance(t, dict) and isinstance(t.get("name"), str)]
        described = [
            (t["name"], d if isinstance(d := t.get("description"), str) else "") for t in named
        ]
        hidden = await judge.hidden(described)
        if not hidden and len(named) == len(tools):
            return reply
        shown = [t for t in named if t["name"] not in hidden]
        return _answer(request, {**reply.result, "tools": shown})

    async def read_resource(request: types.JSONRPCRequest, relay: Relay) -> Answer | Reply:
        uri = (request.params or {}).get("uri")
        if not isinstance(uri, str):
            return error_reply(request.id, types.INVALID_PARAMS, "resources/read needs a uri")
        verdict = await judge.read(uri, _asking(relay))
        judged = verdict.answer
        if not judged.allowed:
            why = judged.reason or "denied by amplifier-hooks"
            return Answer(error_reply(request.id, types.INVALID_REQUEST, why), _left(verdict))
        reply = await _forward(relay, request, verdict)
        if isinstance(reply, types.JSONRPCError):
            return reply
        result = reply.result
        if _too_large(relay, result, limits):
            return error_reply(
                request.id,
                types.INVALID_REQUEST,
                f"withheld by amplifier-hooks: the resource is larger than {limits.max_message} "
                "bytes",
            )
        processed = await judge.result(judge.read_data(uri), result)
        return Answer(_read_result(request, reply, processed.answer), _left(processed))

    return {"tools/call": call_tool, "tools/list": list_tools, "resources/read": read_resource}
