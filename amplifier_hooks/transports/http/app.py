"""The hook server's aiohttp application: one route per host, two ways to answer.

- ``POST /claude-code`` (``/codex``): an HTTP hook. The body is the hook input; the
  response is always 200 with the answer JSON, because Claude Code lets a call through on
  any other status, or on a body that is not JSON ("a hook gave no usable answer").
  Every failure -- a body over the size limit, malformed JSON, a bundle that does not
  load, a shutdown that cannot wait for the answer -- is the adapter's fail-closed answer.
- ``POST /relay/claude-code``: a command hook relayed by its process (see
  `amplifier_hooks.transports.relay`). The answer is the whole `HostAnswer`: ``{"output",
  "exit_code", "stderr"}``, which the process prints and exits with.
- ``GET /status``: the bundle, the pid, open sessions and calls in flight.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from aiohttp import web

from amplifier_hooks.engine.tasks import describe_exception
from amplifier_hooks.hosts import HostAdapter, HostAnswer
from amplifier_hooks.hosts.base import HostInputError, decode_input
from amplifier_hooks.logs import get_logger
from amplifier_hooks.transports.http.activity import Activity
from amplifier_hooks.transports.http.source import BundleSessions, refuse_payload
from amplifier_hooks.transports.relay.client import RELAY_PREFIX

__all__ = ["hook_app", "http_body", "relay_body"]


logger = get_logger()

Middleware = Callable[..., Awaitable[web.StreamResponse]]

SOURCE = web.AppKey("source", BundleSessions)
ACTIVITY = web.AppKey("activity", Activity)


def http_body(answer: HostAnswer) -> dict[str, Any]:
    """The JSON body of an HTTP hook's answer. An HTTP hook has no exit code: an answer
    that blocks by exit code 2 (no JSON can say it for that event) becomes the
    ``decision: "block"`` that Claude Code reads on every event that can be blocked."""
    if answer.output is not None:
        return answer.output
    if answer.exit_code != 0:
        return {"decision": "block", "reason": answer.stderr or "blocked by amplifier-hooks"}
    return {}


def relay_body(answer: HostAnswer) -> dict[str, Any]:
    """The relay route's body: everything the command hook's process needs."""
    return {"output": answer.output, "exit_code": answer.exit_code, "stderr": answer.stderr}


def hook_app(
    source: BundleSessions,
    adapters: Mapping[str, HostAdapter],
    *,
    max_body: int,
    grace: float,
    middlewares: Iterable[Middleware] = (),
    activity: Activity | None = None,
) -> web.Application:
    """The application answering ``adapters``' hooks from ``source``.

    On shutdown, calls in flight get ``grace`` seconds to finish, then the fail-closed
    answer; then every session is closed (its modules' cleanups run).
    """
    app = web.Application(client_max_size=max_body, middlewares=list(middlewares))
    app[SOURCE] = source
    app[ACTIVITY] = activity = activity or Activity()

    async def answer(request: web.Request, adapter: HostAdapter) -> HostAnswer:
        with activity.call():
            try:
                raw = await request.read()
            except web.HTTPRequestEntityTooLarge:
                reason = (
                    f"the hook input is over the server's limit of {max_body} bytes "
                    "(amplifier-hooks serve --max-body)"
                )
                return adapter.refuse(None, reason, True)
            try:
                payload = decode_input(raw)
            except HostInputError as exc:
                return adapter.refuse(None, f"malformed hook input: {exc}", True)
            return await _unless_abandoned(source, activity, adapter, payload)

    def route(
        adapter: HostAdapter, relay: bool
    ) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def handle(request: web.Request) -> web.Response:
            try:
                result = await answer(request, adapter)
            except Exception as exc:  # a 500 would let the call through: refuse instead
                logger.error("hook request failed", error=describe_exception(exc), exc_info=True)
                result = adapter.refuse(None, f"internal error: {describe_exception(exc)}", True)
            return web.json_response(relay_body(result) if relay else http_body(result))

        return handle

    for name, adapter in adapters.items():
        app.router.add_post(f"/{name}", route(adapter, relay=False))
        app.router.add_post(f"{RELAY_PREFIX}{name}", route(adapter, relay=True))

    async def status(request: web.Request) -> web.Response:
        sessions = source.sessions
        return web.json_response(
            {
                "bundle": source.path,
                "pid": os.getpid(),
                "sessions": 0 if sessions is None else len(sessions),
                "in_flight": activity.in_flight,
                "hosts": sorted(adapters),
            }
        )

    app.router.add_get("/status", status)

    async def drain(app: web.Application) -> None:
        await activity.drain(grace)

    async def close_sessions(app: web.Application) -> None:
        await source.aclose()

    app.on_shutdown.append(drain)
    app.on_cleanup.append(close_sessions)
    return app


async def _unless_abandoned(
    source: BundleSessions, activity: Activity, adapter: HostAdapter, payload: object
) -> HostAnswer:
    """The source's answer, or the fail-closed one if the server abandons the call (its
    shutdown could not wait any longer)."""
    answering = asyncio.ensure_future(source.answer(adapter, payload))
    abandoning = asyncio.ensure_future(activity.abandoned.wait())
    try:
        await asyncio.wait({answering, abandoning}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        abandoning.cancel()
        if not answering.done():
            answering.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await answering
    if answering.cancelled():
        return refuse_payload(
            adapter, payload, "the hook server shut down before this call was answered"
        )
    failure = answering.exception()
    if failure is not None:  # `answer` never raises; should it, the call is still refused
        logger.error("hook answer failed", error=describe_exception(failure))
        return refuse_payload(adapter, payload, f"internal error: {describe_exception(failure)}")
    return answering.result()
