"""What every scripted model API stand-in shares: a loopback server, its key, the script.

`ScriptedServer` binds 127.0.0.1 (a free port unless one is given), refuses a request
without its key, caps the request size, records every readable request and hands out the
script's turns in order (``then`` once they are used up, counted in `overran`). Each API
(`messages_api`, `responses_api`, `gemini_api`, `chat_completions`) adds its endpoints,
its answer shapes and its error body. `serve_script` is the command-line entry they share.
"""

from __future__ import annotations

import abc
import argparse
import asyncio
import contextlib
import itertools
import json
import secrets
import signal
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, ClassVar, Final

from aiohttp import web

from amplifier_hooks.testing.turns import Turn, load_script

__all__ = ["MAX_REQUEST_BYTES", "RecordedRequest", "ScriptedServer", "serve_script", "strings"]

MAX_REQUEST_BYTES: Final = 64 * 1024 * 1024
"""A long agent conversation is resent whole on every turn; 64 MiB leaves room for it."""


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the model received it."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: Mapping[str, Any]
    side: bool
    """True for a side query (answered without consuming the script)."""
    query: Mapping[str, str] = field(default_factory=dict)
    """The URL's query parameters."""


def strings(value: Any, keys: Collection[str] | None = None) -> Iterator[str]:
    """Every string in a request body's ``value``, in order: in an object, those under
    ``keys`` (all when None) and everything in nested lists and objects."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from strings(item, keys)
    elif isinstance(value, dict):
        for key, item in value.items():
            if keys is None or key in keys or isinstance(item, list | dict):
                yield from strings(item, keys)


class ScriptedServer(abc.ABC):
    """An HTTP API on 127.0.0.1 answering from a script; use as ``async with``.

    Subclasses set `name` and implement `answer` (and `error`); `side_query` tells the
    agent's own side queries (titles, summaries, routing) from its conversation.
    """

    name: ClassVar[str] = "model API"
    usage: ClassVar[str] = ""
    """How agents take the stand-in's URL and key (its command line's help says it)."""
    record_type: ClassVar[type[RecordedRequest]] = RecordedRequest

    def __init__(
        self,
        *turns: Turn,
        then: Turn | None = None,
        side_answer: str = "OK",
        side_query: Callable[[Mapping[str, Any]], bool] | None = None,
        model: str = "scripted",
        max_request_bytes: int = MAX_REQUEST_BYTES,
        api_key: str | None = None,
        port: int = 0,
    ) -> None:
        self.turns: list[Turn] = list(turns)
        self.then = then if then is not None else Turn("Done.")
        self.side_answer = side_answer
        self.side_query = side_query or type(self).is_side_query
        self.model = model
        self.max_request_bytes = max_request_bytes
        self.api_key = api_key or secrets.token_urlsafe(24)
        """The key the agent must send."""
        self.requests: list[Any] = []
        """Every request with a readable body, side queries included, in arrival order."""
        self.overran = 0
        self._next = 0
        self._ids = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self._port = port
        self.on_request: Callable[[RecordedRequest], None] | None = None
        """Called with each request as it is recorded (the command line writes them out)."""

    @staticmethod
    def is_side_query(body: Mapping[str, Any]) -> bool:
        """Whether a request is not part of the conversation: by default, one offering
        no tools."""
        return not body.get("tools")

    # -- lifecycle ---------------------------------------------------------------------

    async def start(self) -> str:
        """Start serving; returns the base URL."""
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

    async def __aenter__(self) -> Any:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    @property
    def answered(self) -> int:
        """How many scripted turns were used."""
        return self._next

    def rescript(self, *turns: Turn) -> None:
        """Answer from ``turns`` from now on, nothing recorded yet: one server (one address
        in an agent's config) for runs that each bring a script of their own."""
        self.turns = list(turns)
        self.requests = []
        self.overran = 0
        self._next = 0

    # -- serving -----------------------------------------------------------------------

    def keys_given(self, request: web.Request) -> list[str]:
        """The keys a request carries (a bearer token or ``x-api-key`` here)."""
        bearer = request.headers.get("Authorization", "")
        given = [request.headers.get("x-api-key", "")]
        if bearer.startswith("Bearer "):
            given.append(bearer[len("Bearer ") :])
        return given

    def _authorised(self, request: web.Request) -> bool:
        expected = self.api_key.encode()
        return any(secrets.compare_digest(k.encode(), expected) for k in self.keys_given(request))

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        if not self._authorised(request):
            return self.error(401, "authentication_error", "invalid API key")
        try:
            raw = await request.read()
        except web.HTTPRequestEntityTooLarge:
            return self.error(413, "request_too_large", f"over {self.max_request_bytes} bytes")
        try:
            body = json.loads(raw) if raw else {}
        except ValueError as exc:
            return self.error(400, "invalid_request_error", f"unreadable body: {exc}")
        if not isinstance(body, dict):
            return self.error(400, "invalid_request_error", "body must be a JSON object")
        side = request.method == "POST" and self.side_query(body)
        recorded = self.record_type(
            request.method, request.path, dict(request.headers), body, side, dict(request.query)
        )
        self.requests.append(recorded)
        if self.on_request is not None:
            self.on_request(recorded)
        return await self.answer(request, body, side)

    @abc.abstractmethod
    async def answer(
        self, request: web.Request, body: dict[str, Any], side: bool
    ) -> web.StreamResponse:
        """The API's answer to one recorded request."""

    def error(self, status: int, kind: str, message: str) -> web.Response:
        """An error in the API's own shape."""
        return web.json_response({"error": {"type": kind, "message": message}}, status=status)

    def take(self, side: bool) -> Turn:
        """The next turn: the side answer for a side query, else the script's next turn
        (``then`` once it is used up)."""
        if side:
            return Turn(self.side_answer)
        if self._next < len(self.turns):
            turn = self.turns[self._next]
            self._next += 1
            return turn
        self.overran += 1
        return self.then

    def new_id(self, prefix: str) -> str:
        return f"{prefix}_scripted_{next(self._ids):04d}"

    def model_of(self, body: Mapping[str, Any]) -> str:
        """The model a request names (ours when it names none)."""
        return str(body.get("model") or self.model)

    async def reply(
        self,
        request: web.Request,
        body: Mapping[str, Any],
        whole: Mapping[str, Any],
        events: Sequence[tuple[str | None, Mapping[str, Any]]],
        *,
        last: bytes = b"",
    ) -> web.StreamResponse:
        """``whole`` as one JSON answer, or `stream` ``events`` when ``body`` asks for a
        stream (``"stream": true``)."""
        if body.get("stream"):
            return await self.stream(request, events, last=last)
        return web.json_response(whole)

    async def stream(
        self,
        request: web.Request,
        events: Sequence[tuple[str | None, Mapping[str, Any]]],
        *,
        last: bytes = b"",
    ) -> web.StreamResponse:
        """Server-sent events: ``(name, data)`` pairs, ``name`` None for an unnamed one;
        then ``last`` as it is (Chat Completions' ``data: [DONE]``)."""
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        for name, data in events:
            head = f"event: {name}\n" if name else ""
            await response.write(f"{head}data: {json.dumps(data)}\n\n".encode())
        if last:
            await response.write(last)
        await response.write_eof()
        return response


def serve_script(
    server_type: type[ScriptedServer],
    argv: Sequence[str] | None = None,
    *,
    out: IO[str],
) -> int:
    """The command-line entry of a stand-in: serve a script file until interrupted
    (``--script FILE [--port N] [--api-key KEY] [--record FILE]``; the script's format is
    in `amplifier_hooks.testing.turns`).

    Writes the base URL and the key (one ``NAME=value`` line each) to ``out`` once it
    listens -- the program's ``main`` passes its stdout; a caller embedding a stand-in
    passes its own stream, so nothing here picks stdout for it -- and with ``--record
    FILE`` appends every request it receives to FILE as a JSON line.
    """
    parser = argparse.ArgumentParser(
        prog=f"python -m {server_type.__module__}",
        description=f"Serve a scripted {server_type.name} on 127.0.0.1. {server_type.usage}",
    )
    parser.add_argument("--script", required=True, type=Path, help="the script (JSON)")
    parser.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    parser.add_argument("--api-key", help="the key clients must send (default: generated)")
    parser.add_argument("--record", type=Path, help="append each request to FILE as JSON")
    args = parser.parse_args(argv)
    try:
        script = load_script(args.script)
    except ValueError as exc:
        parser.error(str(exc))
    extra: dict[str, Any] = {}
    if script.side_answer is not None:
        extra["side_answer"] = script.side_answer
    server = server_type(
        *script.turns, then=script.then, api_key=args.api_key, port=args.port, **extra
    )
    record = args.record.open("a", encoding="utf-8") if args.record else None

    def write(request: RecordedRequest) -> None:
        assert record is not None
        line = {
            "method": request.method,
            "path": request.path,
            "query": dict(request.query),
            "side": request.side,
            "body": request.body,
        }
        record.write(json.dumps(line) + "\n")
        record.flush()

    if record is not None:
        server.on_request = write

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        async with server:
            out.write(f"BASE_URL={server.base_url}\nAPI_KEY={server.api_key}\n")
            out.flush()
            await stop.wait()

    try:
        asyncio.run(main())
    finally:
        if record is not None:
            with contextlib.suppress(OSError):
                record.close()
    return 0
