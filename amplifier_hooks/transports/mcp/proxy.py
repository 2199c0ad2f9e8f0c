"""`run_proxy`: an MCP server to the client, the real server's client, a judge between.

Each request the client sends is handled in its own task by the SDK's server, so calls run
concurrently and a question waiting for a person holds no other call. What is forwarded:

- ``tools/call``: judged first (`Judge.call`); a refusal is a tool error whose text is the
  reason, so the model can act on it; the server's result passes `Judge.result`;
- ``tools/list``: the tools the bundle hides are left out (`Judge.hidden`);
- ``resources/read``: judged as a Read; refused with a JSON-RPC error carrying the reason;
- prompts, resource lists and completions pass through as they are.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple, TextIO

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from amplifier_hooks.approvals.auto import HostAsking
from amplifier_hooks.transports.mcp.asking import ElicitingAsker, client_asking
from amplifier_hooks.transports.mcp.judge import Judge
from amplifier_hooks.transports.mcp.limits import DEFAULT_LIMITS, Limits, too_deep
from amplifier_hooks.transports.mcp.upstream import Upstream, UpstreamTarget, connect

__all__ = ["ProxyConfig", "ProxyFailed", "build_server", "run_proxy"]

Streams = tuple[
    anyio.abc.ObjectReceiveStream[SessionMessage | Exception],
    anyio.abc.ObjectSendStream[SessionMessage],
]


class ProxyConfig(NamedTuple):
    """What one ``amplifier-hooks mcp`` runs."""

    bundle: str
    server: str
    """The server's name in tool names (``mcp__<server>__<tool>``)."""
    target: UpstreamTarget
    workspace: str
    limits: Limits = DEFAULT_LIMITS


class ProxyFailed(Exception):
    """The proxy stopped because its server could not start or went away."""


class _SessionElicits:
    """`Elicits` over the client's session, tied to the request that raised the question."""

    def __init__(self, ctx: ServerRequestContext[Any, Any]) -> None:
        self.ctx = ctx

    async def elicit(self, message: str, requested_schema: dict[str, Any]) -> tuple[str, Any]:
        answer = await self.ctx.session.elicit_form(
            message, requested_schema, related_request_id=self.ctx.request_id
        )
        return answer.action, answer.content


def _asking(ctx: ServerRequestContext[Any, Any]) -> HostAsking:
    session = ctx.session
    params = session.client_params
    title = f"the MCP client {params.client_info.name}" if params is not None else "the MCP client"
    capabilities = session.client_capabilities
    elicits = capabilities is not None and capabilities.elicitation is not None
    if elicits and session.can_send_request:
        return client_asking(title, ElicitingAsker(_SessionElicits(ctx), title))
    return client_asking(title, None)


def _error(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)


def build_server(upstream: Upstream, judge: Judge, limits: Limits) -> Server[Any]:
    """The client-facing server: the upstream's capabilities, each request judged."""
    session = upstream.session
    offered = upstream.info.capabilities
    info = upstream.info.server_info

    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        listed = await session.list_tools(params=params)
        hidden = await judge.hidden([(t.name, t.description or "") for t in listed.tools])
        if not hidden:
            return listed
        return listed.model_copy(
            update={"tools": [t for t in listed.tools if t.name not in hidden]}
        )

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        arguments = dict(params.arguments or {})
        if too_deep(arguments, limits.max_depth):
            return _error(
                f"refused by amplifier-hooks: the arguments nest deeper than {limits.max_depth} "
                "levels"
            )
        judged = await judge.call(params.name, arguments, _asking(ctx))
        if not judged.allowed:
            return _error(judged.reason or "denied by amplifier-hooks")
        # As a plain request, not `call_tool`: that checks the result against the tool's
        # output schema (a jsonschema run per call, and a `tools/list` of its own for a
        # tool not listed yet), which the client does anyway with the schema it was given.
        result = await session.send_request(
            types.CallToolRequest(
                params=types.CallToolRequestParams(name=params.name, arguments=judged.arguments)
            ),
            types.CallToolResult,
        )
        if not isinstance(result, types.CallToolResult):
            return _error("refused by amplifier-hooks: the server answered with no tool result")
        shown = result.model_dump(by_alias=True, exclude_none=True, mode="json")
        if len(result.model_dump_json(by_alias=True, exclude_none=True)) > limits.max_message:
            return _error(
                f"withheld by amplifier-hooks: the result is larger than {limits.max_message} bytes"
            )
        done = await judge.result(judge.tool_data(params.name, judged.arguments), shown)
        if not done.allowed:
            return _error(done.reason or "withheld by amplifier-hooks")
        if done.result is shown and not done.notes:
            return result  # as the server sent it: nothing scrubbed, changed or added
        try:
            final = types.CallToolResult.model_validate(done.result)
        except ValidationError:
            return _error("withheld by amplifier-hooks: a hook made the result unreadable")
        notes = [types.TextContent(type="text", text=note) for note in done.notes]
        if notes:
            final = final.model_copy(update={"content": [*final.content, *notes]})
        return final

    async def read_resource(
        ctx: ServerRequestContext[Any, Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        judged = await judge.read(uri, _asking(ctx))
        if not judged.allowed:
            raise MCPError(types.INVALID_REQUEST, judged.reason or "denied by amplifier-hooks")
        result = await session.read_resource(uri)
        if len(result.model_dump_json(by_alias=True, exclude_none=True)) > limits.max_message:
            raise MCPError(
                types.INVALID_REQUEST,
                f"withheld by amplifier-hooks: the resource is larger than {limits.max_message} "
                "bytes",
            )
        shown = result.model_dump(by_alias=True, exclude_none=True, mode="json")
        done = await judge.result(judge.read_data(uri), shown)
        if not done.allowed:
            raise MCPError(types.INVALID_REQUEST, done.reason or "withheld by amplifier-hooks")
        return types.ReadResourceResult.model_validate(done.result)

    def passing(
        request: Callable[[Any], Any], result: type[Any]
    ) -> Callable[[ServerRequestContext[Any, Any], Any], Awaitable[Any]]:
        async def forward(ctx: ServerRequestContext[Any, Any], params: Any) -> Any:
            return await session.send_request(request(params), result)

        return forward

    handlers: dict[str, Any] = {}
    if offered.tools is not None:
        handlers |= {"on_list_tools": list_tools, "on_call_tool": call_tool}
    if offered.resources is not None:
        handlers |= {
            "on_list_resources": passing(
                lambda p: types.ListResourcesRequest(params=p), types.ListResourcesResult
            ),
            "on_list_resource_templates": passing(
                lambda p: types.ListResourceTemplatesRequest(params=p),
                types.ListResourceTemplatesResult,
            ),
            "on_read_resource": read_resource,
        }
    if offered.prompts is not None:
        handlers |= {
            "on_list_prompts": passing(
                lambda p: types.ListPromptsRequest(params=p), types.ListPromptsResult
            ),
            "on_get_prompt": passing(
                lambda p: types.GetPromptRequest(params=p), types.GetPromptResult
            ),
        }
    if offered.completions is not None:
        handlers["on_completion"] = passing(
            lambda p: types.CompleteRequest(params=p), types.CompleteResult
        )
    return Server(
        info.name,
        version=info.version,
        title=info.title,
        instructions=upstream.info.instructions,
        **handlers,
    )


async def serve(
    config: ProxyConfig,
    client: Callable[[], Any],
    *,
    errlog: TextIO = sys.stderr,
    judge: Judge | None = None,
) -> None:
    """Serve one client (``client()`` gives its stream pair as an async context) until it
    disconnects; `ProxyFailed` when the server cannot start or goes away first."""
    own = judge is None
    if judge is None:
        judge = await Judge.open(config.bundle, config.server, config.workspace)
    gone = False
    try:
        try:
            connecting = connect(config.target, errlog)
            upstream = await connecting.__aenter__()
        except Exception as exc:
            raise ProxyFailed(
                f"cannot start the MCP server {config.server} ({config.target.describe()}): "
                f"{_describe(exc)}"
            ) from None
        try:
            server = build_server(upstream, judge, config.limits)
            options = server.create_initialization_options(NotificationOptions())
            async with client() as (read, write), anyio.create_task_group() as group:

                async def run() -> None:
                    await server.run(read, write, options)
                    group.cancel_scope.cancel()  # the client disconnected

                async def watch() -> None:
                    nonlocal gone
                    await upstream.gone.wait()
                    gone = True
                    group.cancel_scope.cancel()

                group.start_soon(run)
                group.start_soon(watch)
        finally:
            await connecting.__aexit__(None, None, None)
    finally:
        if own:
            await judge.aclose()
    if gone:
        raise ProxyFailed(f"the MCP server {config.server} closed its connection (it exited)")


async def run_proxy(config: ProxyConfig, *, errlog: TextIO = sys.stderr) -> int:
    """Proxy ``config``'s server for the client on this process's stdio; the exit code."""
    from amplifier_hooks.transports.mcp.client_stdio import client_stdio

    try:
        await serve(config, lambda: client_stdio(config.limits), errlog=errlog)
    except ProxyFailed as exc:
        errlog.write(f"amplifier-hooks mcp: {exc}\n")
        return 1
    return 0


def _describe(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_describe(e) for e in exc.exceptions)
    return str(exc) or type(exc).__name__
