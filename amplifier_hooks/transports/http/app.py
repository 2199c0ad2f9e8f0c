"""The hook server's aiohttp application: one route per host, two ways to answer.

- ``POST /claude-code`` (``/codex``): an HTTP hook. The body is the hook input; the
  response is always 200 with the answer JSON, because Claude Code lets a call through on
  any other status, or on a body that is not JSON ("a hook gave no usable answer").
  Every failure -- a body over the size limit, malformed JSON, a bundle that does not
  load, a shutdown that cannot wait for the answer -- is the adapter's fail-closed answer.
- ``POST /relay/claude-code``: a command hook relayed by its process (see
  `amplifier_hooks.transports.relay`). The answer is the whole `HostAnswer` -- exit code,
  stderr and the text to print -- in the relay's own format (`RelayAnswer.body`: the hook
  process reads it without importing `json`). ``?event=NAME`` names the event of a host
  whose input does not (`EVENT_ARGUMENT_HOSTS`).
- ``POST /trial`` (on a Unix socket, when the server was given a ``trial``): the
  ``test`` command's call to judge, relayed by `amplifier_hooks.transports.relay.trial`; the
  answer is what ``test`` prints, in the relay's format, or 409 when the server declines.
- ``GET /status``: the bundle, the pid, open sessions and calls in flight.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, TypeVar

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from amplifier_hooks.engine.reply import Reply
from amplifier_hooks.engine.tasks import describe_exception
from amplifier_hooks.host_commands import EVENT_ARGUMENT_HOSTS
from amplifier_hooks.hosts import HostAdapter, HostAnswer
from amplifier_hooks.hosts.asking import ENTRYPOINT_HEADER
from amplifier_hooks.hosts.base import HostInputError, decode_input, refuse_payload
from amplifier_hooks.logs import get_logger
from amplifier_hooks.transports.http.activity import Activity
from amplifier_hooks.transports.http.source import BundleSessions
from amplifier_hooks.transports.relay.client import RELAY_PREFIX, RelayAnswer
from amplifier_hooks.transports.relay.trial import DECLINED_STATUS, TRIAL_ROUTE, TrialDeclined
from amplifier_hooks.web.bodies import BodyRefused, arrived, read_body
from amplifier_hooks.web.limits import DEFAULT_LIMITS, Limits, trouble_of

__all__ = ["Trial", "hook_app", "http_body", "relay_body"]


logger = get_logger()

Middleware = Callable[..., Awaitable[web.StreamResponse]]
Trial = Callable[[bytes], Awaitable[RelayAnswer]]
"""What runs ``test`` for a relayed command line: the request's body -> what to print
(raises `TrialDeclined` to leave it to the caller). The command line provides it."""

RELAY_CONTENT_TYPE = "application/x-amplifier-hooks-relay"
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


def relay_body(answer: HostAnswer) -> bytes:
    """The relay route's body: everything the command hook's process needs."""
    return RelayAnswer(answer.output, answer.exit_code, answer.stderr).body()


def hook_app(
    source: BundleSessions,
    adapters: Mapping[str, HostAdapter],
    *,
    max_body: int,
    grace: float,
    middlewares: Iterable[Middleware] = (),
    activity: Activity | None = None,
    limits: Limits = DEFAULT_LIMITS,
    trial: Trial | None = None,
) -> web.Application:
    """The application answering ``adapters``' hooks from ``source`` (and ``test``'s
    calls to judge with ``trial``, when given).

    On shutdown, calls in flight get ``grace`` seconds to finish, then the fail-closed
    answer; then every session is closed (its modules' cleanups run).
    """
    app = web.Application(client_max_size=max_body, middlewares=list(middlewares))
    app[SOURCE] = source
    app[ACTIVITY] = activity = activity or Activity()

    async def answer(
        request: web.Request, adapter: HostAdapter, names_event: bool
    ) -> Reply[HostAnswer]:
        try:
            reading = read_body(request, max_body, limits.body_timeout)
            # A body still coming is read racing the shutdown; one already here is
            # read at once (a task and a race cost more than the rest of the read).
            raw = await (reading if arrived(request) else _or_abandoned(reading, activity))
        except BodyRefused as exc:
            trouble_of(request).note("hook call refused", path=request.path, cause=str(exc))
            if exc.status == 413:
                reason = (
                    f"the hook input is over the server's limit of {max_body} bytes "
                    "(amplifier-hooks serve --max-body)"
                )
            else:
                reason = f"the hook input was not received: {exc}"
            return Reply(adapter.refuse(None, reason, True))
        if raw is None:
            return Reply(adapter.refuse(None, _SHUT_DOWN, True))
        try:
            payload = await _decoded(raw, limits.max_values)
        except HostInputError as exc:
            return Reply(adapter.refuse(None, f"malformed hook input: {exc}", True))
        # The query is parsed only when there is one (an HTTP hook's URL has none).
        query = request.query if request.query_string else None
        event = query.get("event") if query is not None and names_event else None
        if event and isinstance(payload, dict):
            payload["hook_event_name"] = event
        # How Claude Code was started (interactive or -p): from the HTTP hook's header,
        # or from the command hook's environment, passed on by the relay.
        entrypoint = request.headers.get(ENTRYPOINT_HEADER) or (
            query.get("entrypoint") if query is not None else None
        )
        answering = asyncio.get_running_loop().create_task(
            source.reply(adapter, payload, entrypoint=entrypoint)
        )
        abandoning = activity.abandoning()
        await _first(answering, abandoning, limits.call_deadline)
        if answering.done():
            if answering.cancelled():  # `reply` never raises but for cancellation
                return Reply(refuse_payload(adapter, payload, _SHUT_DOWN))
            return answering.result()
        if abandoning.done():
            # The server shuts down: the work is cancelled, and waited for, so the
            # sessions are not closed under it.
            answering.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await answering
            await _finish_given_up(answering)
            return Reply(refuse_payload(adapter, payload, _SHUT_DOWN))
        # Answered now; the work is cancelled and not waited for (a handler that
        # ignores its cancellation must not hold this answer back).
        answering.cancel()
        answering.add_done_callback(_forget)
        trouble_of(request).note("hook call over its deadline", path=request.path)
        reason = f"the hook server did not answer within {limits.call_deadline:g} s"
        return Reply(refuse_payload(adapter, payload, reason))

    def route(
        adapter: HostAdapter, relay: bool, names_event: bool
    ) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def handle(request: web.Request) -> web.Response:
            activity.begin()  # in flight until finished, not only answered
            try:
                try:
                    replied = await answer(request, adapter, names_event)
                except Exception as exc:  # a 500 would let the call through: refuse instead
                    _log_failure(request, exc, limits.refused_burst)
                    replied = Reply(
                        adapter.refuse(None, f"internal error: {describe_exception(exc)}", True)
                    )
                result = replied.answer
                if relay:
                    response = web.Response(
                        body=relay_body(result), content_type=RELAY_CONTENT_TYPE
                    )
                else:
                    response = web.json_response(http_body(result))
                if replied.pending:
                    # The host waits for the answer, not for the observers (the event log's
                    # record): it is sent, in one write with its length, before they are told.
                    try:
                        await response.prepare(request)
                        await response.write_eof()
                    finally:
                        await replied.finish()
                return response
            finally:
                activity.end()

        return handle

    for name, adapter in adapters.items():
        names_event = name in EVENT_ARGUMENT_HOSTS
        app.router.add_post(f"/{name}", route(adapter, False, names_event))
        app.router.add_post(f"{RELAY_PREFIX}{name}", route(adapter, True, names_event))

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
    if trial is not None:
        app.router.add_post(TRIAL_ROUTE, _trial_route(trial, activity, max_body, limits))

    async def drain(app: web.Application) -> None:
        await activity.drain(grace)

    async def close_sessions(app: web.Application) -> None:
        await source.aclose()

    app.on_shutdown.append(drain)
    app.on_cleanup.append(close_sessions)
    return app


_SHUT_DOWN = "the hook server shut down before this call was answered"


def _trial_route(
    trial: Trial, activity: Activity, max_body: int, limits: Limits
) -> Callable[[web.Request], Awaitable[web.Response]]:
    """``POST /trial``: nothing is granted or blocked here (the caller only prints the
    answer), so every failure is a status the caller answers for itself in-process."""

    async def handle(request: web.Request) -> web.Response:
        activity.begin()  # a trial keeps the server from its idle exit, as a call does
        try:
            try:
                raw = await read_body(request, max_body, limits.body_timeout)
                answer = await trial(raw)
            except BodyRefused as exc:
                return web.Response(status=exc.status, text=str(exc))
            except TrialDeclined as exc:
                return web.Response(status=DECLINED_STATUS, text=str(exc))
            except Exception as exc:
                _log_failure(request, exc, limits.refused_burst)
                return web.Response(status=500, text=describe_exception(exc))
            return web.Response(body=answer.body(), content_type=RELAY_CONTENT_TYPE)
        finally:
            activity.end()

    return handle


_OFF_LOOP = 256 * 1024
"""Bytes of input above which it is parsed in a thread: other sessions' calls go on
meanwhile (the parse still shares the interpreter, in slices)."""


async def _decoded(raw: bytes, max_values: int) -> object:
    """The hook input of ``raw``; `HostInputError` if it is not JSON or holds more than
    ``max_values`` values. A large one is parsed and counted off the event loop."""
    if len(raw) <= _OFF_LOOP:
        return decode_input(raw)
    # Counted before parsing: `json` holds the interpreter while it parses, thread or not,
    # so an input of a million keys would stall every other call for seconds. Every key
    # ends in `":`; inside a string a quote is escaped (`\":`), so the difference never
    # counts more keys than there are.
    if raw.count(b'":') - raw.count(b'\\":') > max_values:
        raise HostInputError(f"hook input holds more than {max_values} JSON values")
    payload = await asyncio.to_thread(decode_input, raw)
    if await asyncio.to_thread(_over, payload, max_values):
        raise HostInputError(f"hook input holds more than {max_values} JSON values")
    return payload


async def _first(
    answering: asyncio.Future[Any], abandoning: asyncio.Future[Any], timeout: float
) -> None:
    """Return once ``answering`` or ``abandoning`` is done, or ``timeout`` seconds have
    passed: what `asyncio.wait` with FIRST_COMPLETED does for two, without its sets
    (every call waits this way once)."""
    loop = asyncio.get_running_loop()
    waiter: asyncio.Future[None] = loop.create_future()

    def wake(_: object = None) -> None:
        if not waiter.done():
            waiter.set_result(None)

    answering.add_done_callback(wake)
    abandoning.add_done_callback(wake)
    timer = loop.call_later(timeout, wake)
    try:
        await waiter
    finally:
        timer.cancel()
        answering.remove_done_callback(wake)
        abandoning.remove_done_callback(wake)


def _forget(task: asyncio.Future[Any]) -> None:
    """Retrieve the outcome of work given up on (so asyncio does not report it); work
    answered after all is still finished (its session released)."""
    failure = None if task.cancelled() else task.exception()
    if failure is not None:
        logger.warning("a call given up on failed", error=describe_exception(failure))
    elif not task.cancelled():
        finishing = asyncio.ensure_future(_finish_given_up(task))
        _finishing.add(finishing)
        finishing.add_done_callback(_finishing.discard)


_finishing: set[asyncio.Future[None]] = set()  # finishes of calls given up on, running


async def _finish_given_up(task: asyncio.Future[Reply[HostAnswer]]) -> None:
    """Finish a call whose answer was not used (it came too late)."""
    if task.done() and not task.cancelled() and task.exception() is None:
        await task.result().finish()


def _over(value: object, most: int) -> bool:
    """True if ``value`` holds more than ``most`` JSON values (counting stops there)."""
    count = 0
    stack = [value]
    while stack:
        item = stack.pop()
        count += 1
        if count > most:
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
            count += len(item)  # the keys
        elif isinstance(item, list):
            stack.extend(item)
    return False


T = TypeVar("T")


async def _or_abandoned(work: Awaitable[T], activity: Activity) -> T | None:
    """What ``work`` returns, or None if the server abandons the call first (its
    shutdown could not wait any longer); ``work`` is cancelled then."""
    doing = asyncio.ensure_future(work)
    racing: set[asyncio.Future[Any]] = {doing, activity.abandoning()}
    try:
        await asyncio.wait(racing, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not doing.done():
            doing.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await doing
    if doing.cancelled():
        return None
    return doing.result()  # `read_body` raises BodyRefused


def _log_failure(request: web.Request, exc: Exception, burst: int) -> None:
    """A failed call, logged at the rate refused calls are (a flood of clients that send
    half a body and hang up is a few lines a minute, not a traceback each). A client that
    went away gets one line without a traceback: nothing of ours broke."""
    kind = f"hook request failed: {type(exc).__name__}"
    extra = trouble_of(request).allow(kind, burst)
    if extra is None:
        return
    gone = isinstance(exc, ConnectionError | asyncio.IncompleteReadError | HttpProcessingError)
    logger.error("hook request failed", error=describe_exception(exc), exc_info=not gone, **extra)
