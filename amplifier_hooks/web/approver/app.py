"""The browser approver as an aiohttp application: the page, its files, the live feed of
the queue (Server-Sent Events) and the answers.

    GET  /?token=TOKEN   log this browser in (a cookie), then 303 to / (token gone from
                         the address bar and the history)
    GET  /               the page (401 without the login cookie)
    GET  /static/NAME    the page's script and style
    GET  /api/session    who answers, the store, the CSRF token the page sends back
    GET  /api/state      the queue now (JSON)
    GET  /api/events     the queue, pushed on every change (text/event-stream)
    POST /api/answer     {"id": N, "choice": OPTION, "name": WHO}: one answer
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Literal

from aiohttp import web

from amplifier_hooks.approvals.models import clean_text
from amplifier_hooks.approvals.store import ApprovalBackend, ApprovalStoreError
from amplifier_hooks.approvals.store.orphans import withdraw_at_open
from amplifier_hooks.web.access import Credentials, loopback_host_only, require_token
from amplifier_hooks.web.approver.feed import QueueFeed
from amplifier_hooks.web.approver.guard import csrf_token, refuse_cross_site, security_headers
from amplifier_hooks.web.approver.views import request_view
from amplifier_hooks.web.bodies import BodyRefused, read_body

__all__ = ["COOKIE", "FEED", "ApproverSettings", "make_approver_app"]

COOKIE = "amplifier_hooks_approver"
FEED = web.AppKey("approver_feed", QueueFeed)
HEARTBEAT = 15.0
"""Seconds between two keep-alive comments on a quiet event stream (proxies close idle
connections; the browser reconnects by itself if one is lost anyway)."""
FIRST_READ = 10.0
"""Seconds ``/api/state`` waits for the first read of the queue before answering anyway."""
MAX_BODY = 16 * 1024
"""Bytes an answer may have: an id, an option and a name."""
MAX_NAME = 60
BODY_TIMEOUT = 10.0
"""Seconds an answer's body may take to arrive."""

_STATIC = {
    "approver.js": "text/javascript",
    "approver.css": "text/css",
    "favicon.svg": "image/svg+xml",
}

_NOT_LOGGED_IN = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>amplifier-hooks approver: not logged in</title></head>
<body><h1>Not logged in</h1>
<p>Open the address that <code>amplifier-hooks approve --web</code> printed
(it ends with <code>/?token=…</code>) to log this browser in.</p></body></html>
"""


@dataclass(frozen=True)
class ApproverSettings:
    """What the approver's page needs besides the store and the token."""

    approver: str
    """Who answers, as recorded when a browser gives no name of its own."""
    order: Literal["newest", "deadline"] = "newest"
    """The page's first order (each browser then keeps its own choice)."""
    tls: bool = False
    """Served over HTTPS: the login cookie is then marked Secure."""
    loopback: bool = True
    """Listening on loopback only: a request must then name loopback in its Host header
    (a page of a rebound DNS name is refused before it can use the login cookie)."""


def _asset(name: str) -> bytes:
    return resources.files("amplifier_hooks.web.approver").joinpath("static", name).read_bytes()


def make_approver_app(
    backend: ApprovalBackend, token: str, settings: ApproverSettings
) -> web.Application:
    """The approver over ``backend``, open to browsers logged in with ``token``. The
    backend stays the caller's to close; the app stops its feed on shutdown."""
    credentials = Credentials(token, cookie_name=COOKIE)
    app = web.Application(
        middlewares=[
            security_headers,
            *([loopback_host_only] if settings.loopback else []),
            require_token(credentials, open_paths={"/"}),
            refuse_cross_site(token),
        ],
        client_max_size=MAX_BODY,
    )
    feed = QueueFeed(backend)
    app[FEED] = feed

    async def withdraw_orphans(app: web.Application) -> None:
        # Before the first page is served: a question whose asker is gone is never shown.
        await withdraw_at_open(backend)

    app.on_startup.append(withdraw_orphans)
    page = _asset("index.html")

    async def index(request: web.Request) -> web.StreamResponse:
        given = request.query.get("token")
        if given is not None:
            if not credentials.token_ok(given):
                raise web.HTTPUnauthorized(text=_NOT_LOGGED_IN, content_type="text/html")
            response = web.Response(status=303, headers={"Location": "/"})
            response.set_cookie(
                COOKIE,
                credentials.cookie_value(),
                httponly=True,
                samesite="Strict",
                secure=settings.tls,
                path="/",
            )
            return response
        if not credentials.allows(request):
            raise web.HTTPUnauthorized(text=_NOT_LOGGED_IN, content_type="text/html")
        return web.Response(body=page, content_type="text/html", charset="utf-8")

    async def static(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in _STATIC:
            raise web.HTTPNotFound()
        return web.Response(body=_asset(name), content_type=_STATIC[name])

    async def session(request: web.Request) -> web.Response:
        return web.json_response(
            {
                "store": backend.name,
                "approver": settings.approver,
                "order": settings.order,
                "csrf": csrf_token(token),
            }
        )

    async def state(request: web.Request) -> web.Response:
        # The first read of the queue, not a "loading" placeholder, when it comes in time.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(feed.ready.wait(), FIRST_READ)
        return web.Response(text=feed.stamped(feed.text), content_type="application/json")

    async def events(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-store",
                "X-Content-Type-Options": "nosniff",
            }
        )
        await response.prepare(request)
        seen = -1
        try:
            await response.write(b"retry: 1000\n\n")
            while not feed.closed:
                update = await feed.next_state(seen, HEARTBEAT)
                if update is None:
                    await response.write(b": still here\n\n")
                    continue
                seen, text = update
                await response.write(f"event: state\ndata: {feed.stamped(text)}\n\n".encode())
        except (ConnectionResetError, ConnectionError):
            pass  # the browser went away
        return response

    async def answer(request: web.Request) -> web.Response:
        try:
            raw = await read_body(request, MAX_BODY, BODY_TIMEOUT)
        except BodyRefused as exc:
            return _refused(exc.status, f"not answered: {exc}")
        try:
            body = json.loads(raw)
        except (ValueError, RecursionError):  # 5,000 nested lists is not an answer either
            return _refused(400, "the body is not JSON")
        if not isinstance(body, dict):
            return _refused(400, "the body must be a JSON object")
        ident, choice, name = body.get("id"), body.get("choice"), body.get("name")
        if not isinstance(ident, int) or isinstance(ident, bool) or not 0 < ident < 2**63:
            return _refused(400, "id must be the number of a request")
        if not isinstance(choice, str):
            return _refused(400, "choice must be one of the request's options")
        if name is not None and not isinstance(name, str):
            return _refused(400, "name must be text")
        who = _who(name, settings.approver)
        try:
            row = await backend.pending(ident)
            if row is None:
                return _refused(404, f"no queued request {ident} in {backend.name}")
            if choice not in row.options:
                return _refused(400, f"that is not one of the options of request {ident}")
            result = await backend.answer(ident, choice, who)
        except ApprovalStoreError as exc:
            return _refused(503, f"not answered: {exc}")
        feed.wake()
        return web.json_response(
            {
                "won": result.won,
                "message": clean_text(result.explain(), 400),
                "request": None if result.request is None else request_view(result.request),
            }
        )

    async def start_feed(app: web.Application) -> None:
        feed.start()

    async def stop_feed(app: web.Application) -> None:
        await feed.close()

    app.router.add_get("/", index)
    app.router.add_get("/static/{name}", static)
    app.router.add_get("/api/session", session)
    app.router.add_get("/api/state", state)
    app.router.add_get("/api/events", events)
    app.router.add_post("/api/answer", answer)
    app.on_startup.append(start_feed)
    app.on_shutdown.append(stop_feed)
    return app


_NAME_JUNK = re.compile(r"\s+")


def _who(name: str | None, default: str) -> str:
    """The name recorded as ``answered_by``: the browser's own, else the server's, marked
    as answered in a browser."""
    given = _NAME_JUNK.sub(" ", clean_text(name or "", MAX_NAME)).strip()
    return f"{given or default} (web)"


def _refused(status: int, message: str) -> web.Response:
    return web.Response(
        status=status,
        text=json.dumps({"won": False, "message": message}),
        content_type="application/json",
    )
