"""`Relay`: JSON-RPC messages between the client's transport and the server's, as they are.

The proxy runs no MCP session of its own on either side: a message the bundle has no say
in (notifications, progress, pings, prompts, completions, the server's own requests such
as sampling or elicitation, and every answer to them) passes on untouched, its id the
sender's. A request whose method has an `Intercept` (``tools/call``, ``tools/list``,
``resources/read``) runs that intercept in a task of its own, so a question waiting for a
person holds no other call; the intercept decides whether the request goes on
(`Relay.ask_server`) and what the client gets back (an `Answer`), and what is left to do
once the client has it (the event log's records).

Ids: the client's ids reach the server unchanged, so an answer is routed by id. An
intercepted request is registered the moment it arrives: an answer the server sends for
it before it was forwarded, or after the client cancelled it, is dropped, never passed to
the client unjudged. The proxy's own questions to the client (`Relay.ask_client`) carry
ids of their own (a prefix no client or server uses), and their answers stop here.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import secrets
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, NamedTuple, Protocol

import anyio
import anyio.lowlevel
import mcp_types as types
from mcp.shared.message import SessionMessage

from amplifier_hooks.engine.tasks import describe_exception
from amplifier_hooks.logs import get_logger
from amplifier_hooks.transports.mcp.upstream import Upstream

__all__ = ["After", "Answer", "Intercept", "Peer", "Relay", "Reply", "Sink", "error_reply"]

logger = get_logger()

Reply = types.JSONRPCResponse | types.JSONRPCError
After = Callable[[], Awaitable[object]]
"""Work left to do, awaited with no arguments (its result is not used): `Reply.finish`
of `amplifier_hooks.engine.reply`."""


class Answer(NamedTuple):
    """An intercept's reply to the client (None: none is sent), and the work left once it
    is sent: the observers of the events that judged the request (`Judge`'s replies)."""

    reply: Reply | None
    after: After | None = None


Intercept = Callable[[types.JSONRPCRequest, "Relay"], Awaitable[Answer | Reply | None]]
"""Handles one request of the client: its `Answer` (a reply alone: nothing left after)."""

_CLOSED = (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream)
_GONE = (*_CLOSED, OSError)
"""A side that went away: a closed stream, or a pipe the client no longer reads."""


class Sink(Protocol):
    """Where the relay sends the client's messages: its wire."""

    async def send(self, message: SessionMessage, /) -> None: ...


class Peer(NamedTuple):
    """What the client said of itself in ``initialize``: its name and whether it takes
    elicitations (the proxy's way to ask a person)."""

    title: str = "the MCP client"
    elicits: bool = False

    @classmethod
    def of(cls, params: Mapping[str, Any] | None) -> Peer:
        params = params or {}
        info, capabilities = params.get("clientInfo"), params.get("capabilities")
        name = info.get("name") if isinstance(info, dict) else None
        title = f"the MCP client {name}" if isinstance(name, str) and name else cls().title
        elicits = isinstance(capabilities, dict) and isinstance(
            capabilities.get("elicitation"), dict
        )
        return cls(title, elicits)


def error_reply(ident: types.RequestId, code: int, message: str) -> types.JSONRPCError:
    """A JSON-RPC error answering request ``ident``."""
    return types.JSONRPCError(
        jsonrpc="2.0", id=ident, error=types.ErrorData(code=code, message=message)
    )


class _Pending:
    """A request waiting for its answer: one of the client's the proxy intercepted (the
    server answers it), or one of the proxy's own (the client answers it)."""

    __slots__ = ("answer", "done", "forwarded", "scope")

    def __init__(self) -> None:
        self.scope = anyio.CancelScope()
        self.done: asyncio.Future[None] | None = None
        """Made when the answer is awaited (most requests are judged before that): the
        event loop's own future, the least a wake-up costs (the relay runs on asyncio)."""
        self.answer: Reply | None = None
        self.forwarded = False

    def settle(self, answer: Reply) -> None:
        self.answer = answer
        if self.done is not None and not self.done.done():
            self.done.set_result(None)

    async def wait(self) -> Reply:
        if self.answer is None:
            self.done = asyncio.get_running_loop().create_future()
            await self.done
        assert self.answer is not None
        return self.answer


class Relay:
    """The two directions of one proxy (see the module docstring)."""

    def __init__(
        self,
        client: Sink,
        server: Upstream,
        intercepts: Mapping[str, Intercept],
        stop: Callable[[], object],
    ) -> None:
        self.client = client
        self.server = server
        self.intercepts = intercepts
        self.stop = stop
        """Ends the proxy: called when a request's task fails (`aclose` raises it)."""
        self._running: dict[asyncio.Task[None], _Pending] = {}
        self._failure: BaseException | None = None
        self.peer = Peer()
        self._intercepted: dict[types.RequestId, _Pending] = {}
        self._asked: dict[types.RequestId, _Pending] = {}
        self._initialize: types.RequestId | None = None
        self._prefix = f"amplifier-hooks-{secrets.token_hex(6)}-"
        self._numbers = itertools.count(1)

    async def from_client(self, item: SessionMessage | Exception) -> None:
        """Route one message of the client's."""
        if isinstance(item, Exception):
            logger.warning("dropped an unreadable MCP message", error=describe_exception(item))
            return
        message = item.message
        if isinstance(message, types.JSONRPCRequest):
            if message.method == "initialize":
                self.peer = Peer.of(message.params)
                self._initialize = message.id
            intercept = self.intercepts.get(message.method)
            if intercept is None:
                await self.server.send(message)
                return
            pending = _Pending()
            self._intercepted[message.id] = pending
            # A task of the event loop's own, not a task group's: this is the one task a
            # call costs, and anyio's spawn cost several times asyncio's. `aclose` does
            # what the group did: cancels what is left, waits, raises a failure.
            task = asyncio.get_running_loop().create_task(self._run(intercept, message, pending))
            self._running[task] = pending
            task.add_done_callback(self._ended)
        elif isinstance(message, types.JSONRPCNotification):
            if message.method in self.intercepts:  # a judged request without an id
                logger.warning(
                    "dropped an MCP notification named as a request", method=message.method
                )
                return
            if message.method == "notifications/cancelled" and not self._cancel(message):
                return  # the server never saw the request
            await self.server.send(message)
        else:
            asked = self._asked.pop(message.id, None) if message.id is not None else None
            if asked is None:
                await self.server.send(message)  # an answer to the server's own request
            else:
                asked.settle(message)

    async def from_server(self, item: SessionMessage | Exception) -> None:
        """Route one message of the server's."""
        if isinstance(item, Exception):
            logger.warning("dropped an unreadable MCP message", error=describe_exception(item))
            return
        message = item.message
        if isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
            ident = message.id
            pending = self._intercepted.get(ident) if ident is not None else None
            if pending is not None:
                if pending.forwarded:
                    del self._intercepted[ident]  # type: ignore[arg-type]
                    pending.settle(message)
                else:
                    logger.warning("dropped an MCP server's answer to a request not forwarded")
                return
            if ident is not None and ident == self._initialize:
                self._initialize = None
                if isinstance(message, types.JSONRPCResponse):
                    self.server.answered(message.result)
        with contextlib.suppress(*_GONE):  # a client gone: its loop ends the proxy
            await self.client.send(SessionMessage(message))

    async def ask_server(
        self, request: types.JSONRPCRequest, meanwhile: After | None = None
    ) -> Reply:
        """Forward ``request`` (an intercepted one, its id the client's), run
        ``meanwhile`` while the server works on it, and wait for the server's answer."""
        pending = self._intercepted.get(request.id)
        if pending is None:  # cancelled since it arrived: the cancellation lands here
            await anyio.lowlevel.checkpoint()
            return error_reply(request.id, types.INTERNAL_ERROR, "the request was cancelled")
        pending.forwarded = True
        await self.server.send(request)
        if meanwhile is not None:
            await meanwhile()
        return await pending.wait()

    async def ask_client(self, method: str, params: dict[str, Any]) -> Reply:
        """Send the client a request of the proxy's own and wait for its answer; a
        cancelled wait tells the client so."""
        ident = f"{self._prefix}{next(self._numbers)}"
        pending = _Pending()
        self._asked[ident] = pending
        try:
            await self.client.send(
                SessionMessage(
                    types.JSONRPCRequest(jsonrpc="2.0", id=ident, method=method, params=params)
                )
            )
            answer = await pending.wait()
        except anyio.get_cancelled_exc_class():
            with anyio.CancelScope(shield=True), anyio.move_on_after(5):
                await self._tell_client_cancelled(ident)
            raise
        finally:
            self._asked.pop(ident, None)
        return answer

    async def _tell_client_cancelled(self, ident: str) -> None:
        cancelled = types.JSONRPCNotification(
            jsonrpc="2.0",
            method="notifications/cancelled",
            params={"requestId": ident, "reason": "no longer needed"},
        )
        with contextlib.suppress(*_GONE):
            await self.client.send(SessionMessage(cancelled))

    def _cancel(self, message: types.JSONRPCNotification) -> bool:
        """Cancel an intercepted request the client gave up on; whether the server
        should hear of it (it has the request, or the request is not ours)."""
        ident = (message.params or {}).get("requestId")
        if not isinstance(ident, int | str) or isinstance(ident, bool):
            return True
        pending = self._intercepted.get(ident)
        if pending is None:
            return True
        pending.scope.cancel()
        if not pending.forwarded:
            del self._intercepted[ident]
        return pending.forwarded

    async def aclose(self) -> None:
        """Cancel the requests still judged or answered and wait for their tasks (their
        observers finish, shielded); raise what failed in one."""
        for pending in self._running.values():
            pending.scope.cancel()
        await asyncio.gather(*self._running, return_exceptions=True)
        if self._failure is not None:
            raise self._failure

    def _ended(self, task: asyncio.Task[None]) -> None:
        self._running.pop(task, None)
        failure = None if task.cancelled() else task.exception()
        if failure is not None and self._failure is None:
            self._failure = failure
            self.stop()

    async def _run(
        self, intercept: Intercept, request: types.JSONRPCRequest, pending: _Pending
    ) -> None:
        answer = _NO_ANSWER
        try:
            with pending.scope:  # the client's cancel, or the proxy stopping (`aclose`)
                try:
                    got = await intercept(request, self)
                    answer = got if isinstance(got, Answer) else Answer(got)
                except _GONE:
                    return  # a side is gone; its loop ends the proxy
                except Exception as exc:  # never forwarded, never a crash: the client reads why
                    logger.error(
                        "mcp proxy request failed", error=describe_exception(exc), exc_info=True
                    )
                    answer = Answer(
                        error_reply(
                            request.id,
                            types.INTERNAL_ERROR,
                            f"amplifier-hooks failed on this request: {exc}",
                        )
                    )
                if not pending.forwarded and self._intercepted.get(request.id) is pending:
                    del self._intercepted[request.id]
                # A cancelled request is not answered.
                if answer.reply is not None and not pending.scope.cancel_called:
                    with contextlib.suppress(*_GONE):
                        await self.client.send(SessionMessage(answer.reply))
        finally:
            if not pending.forwarded and self._intercepted.get(request.id) is pending:
                del self._intercepted[request.id]
            if answer.after is not None:  # shielded: a proxy stopping still logs the call
                with anyio.CancelScope(shield=True):
                    await answer.after()


_NO_ANSWER = Answer(None)
