"""`run_proxy`: the client's transport and the server's, a `Relay` between, a judge in it.

The proxy is no MCP session: the client negotiates with the server itself, through the
relay, and the proxy reads only what it must judge (`intercepts`). Two loops move the
messages, one per direction; a loop that ends ends the proxy: the client's when it
disconnects (exit 0), the server's when the server goes away (reported, exit 1).
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from typing import Any, NamedTuple, TextIO

import anyio

from amplifier_hooks.transports.mcp.intercepts import intercepts
from amplifier_hooks.transports.mcp.judge import Judge
from amplifier_hooks.transports.mcp.limits import DEFAULT_LIMITS, Limits
from amplifier_hooks.transports.mcp.relay import Relay
from amplifier_hooks.transports.mcp.upstream import UpstreamTarget, connect

__all__ = ["ProxyConfig", "ProxyFailed", "loop_options", "run_proxy", "serve"]

_CLOSED = (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream)


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


async def serve(
    config: ProxyConfig,
    client: Callable[[], Any],
    *,
    errlog: TextIO = sys.stderr,
    judge: Judge | None = None,
) -> None:
    """Serve one client (``client()`` gives its `ClientWire` as an async context) until it
    disconnects; `ProxyFailed` when the server cannot start or goes away first."""
    own = judge is None
    if judge is None:
        judge = await Judge.open(config.bundle, config.server, config.workspace)
    gone = False
    lost = ""
    try:
        try:
            connecting = connect(config.target, errlog, config.limits)
            upstream = await connecting.__aenter__()
        except Exception as exc:
            raise ProxyFailed(
                f"cannot start the MCP server {config.server} ({config.target.describe()}): "
                f"{_describe(exc)}"
            ) from None
        try:
            async with client() as wire:
                group = anyio.create_task_group()
                relay = Relay(
                    wire, upstream, intercepts(judge, config.limits), group.cancel_scope.cancel
                )

                async def from_client() -> None:
                    nonlocal gone
                    try:
                        async for item in wire.messages():
                            await relay.from_client(item)
                    except _CLOSED:
                        gone = True  # the server's end closed under a send
                    group.cancel_scope.cancel()

                async def from_server() -> None:
                    nonlocal gone
                    try:
                        async for item in upstream.read:
                            await relay.from_server(item)
                    except _CLOSED:
                        pass
                    gone = True
                    group.cancel_scope.cancel()

                try:
                    async with group:
                        group.start_soon(from_client)
                        group.start_soon(from_server)
                finally:
                    with anyio.CancelScope(shield=True):
                        await relay.aclose()
        finally:
            try:
                await connecting.__aexit__(None, None, None)
            except Exception as exc:  # the transport failed under the relay: reported
                lost = _describe(exc)
    finally:
        if own:
            await judge.aclose()
    if lost:
        raise ProxyFailed(f"the connection to the MCP server {config.server} failed: {lost}")
    if gone:
        raise ProxyFailed(f"the MCP server {config.server} closed its connection (it exited)")


def loop_options() -> dict[str, Any]:
    """anyio's options for the proxy's event loop: uvloop's where it is installed. A
    proxy is all event-loop work (pipes read and written, a task and a few callbacks a
    call), which costs less CPU on it."""
    return {"use_uvloop": True} if importlib.util.find_spec("uvloop") is not None else {}


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
