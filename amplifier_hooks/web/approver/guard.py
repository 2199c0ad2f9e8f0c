"""What keeps other web pages away from the approver: headers on every response, and a
check that an answer really comes from the approver's own page.

A browser that is logged in sends its cookie with any request to the approver, including
one a hostile page makes it send. So an answer (a POST) counts only when all of these
hold, each of which such a page cannot arrange:

- the cookie is ``SameSite=Strict`` (a browser does not send it with a request started by
  another site; other ports of the same host are the *same site*, hence the next checks);
- ``Origin`` (always sent with a POST by current browsers), when present, is exactly this
  server's origin (scheme, host and port), and ``Sec-Fetch-Site``, when present, is
  ``same-origin``;
- the request carries the ``X-Approver-CSRF`` header with the CSRF token of the login,
  which only the approver's own page can read (from ``/api/session``, a same-origin
  read); an HTML form cannot set a header, and a script on another origin that tries is
  stopped by the browser's CORS preflight, which this server never approves;
- the body is JSON (``application/json``), which a form cannot send either.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.typedefs import Middleware

from amplifier_hooks.web.access import Credentials

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "CSRF_HEADER",
    "csrf_token",
    "refuse_cross_site",
    "security_headers",
]

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

CSRF_HEADER = "X-Approver-CSRF"

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""Only the approver's own files run or style the page: no inline script, no inline
style, nothing from elsewhere, no forms posted anywhere, never framed."""

_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cache-Control": "no-store",
}


def csrf_token(token: str) -> str:
    """The CSRF token of a login: derived from the access token (never the token itself),
    so it is the same for every page of this server and useless anywhere else."""
    return hmac.new(token.encode(), b"amplifier-hooks approver csrf", hashlib.sha256).hexdigest()


@web.middleware
async def security_headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Add `_HEADERS` to every response, refusals included."""
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        for name, value in _HEADERS.items():
            exc.headers.setdefault(name, value)
        raise
    if not response.prepared:  # a stream (the event feed) set its headers itself
        for name, value in _HEADERS.items():
            response.headers.setdefault(name, value)
    return response


def _own_origin(request: web.Request) -> str:
    return f"{request.scheme}://{request.host}"


def cross_site_reason(request: web.Request, token: str) -> str | None:
    """Why ``request`` (a POST) may come from another site; None when it is the page's."""
    origin = request.headers.get("Origin")
    if origin is not None and origin != _own_origin(request):
        return f"origin {origin!r} is not this server"
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None and fetch_site != "same-origin":
        return f"the request comes from another site (Sec-Fetch-Site: {fetch_site})"
    given = request.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(given.encode(), csrf_token(token).encode()):
        return f"missing or wrong {CSRF_HEADER} header"
    if request.content_type != "application/json":
        return "the body must be JSON"
    return None


def refuse_cross_site(token: str) -> Middleware:
    """A middleware answering 403 to any request that changes something (not GET/HEAD),
    is not sent with the bearer token, and fails `cross_site_reason`."""

    bearer = Credentials(token)

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        # A script showing the bearer token is no browser riding on a cookie: a page on
        # another site cannot set that header (the CORS preflight stops it).
        if request.method not in ("GET", "HEAD") and not bearer.bearer_ok(
            request.headers.get("Authorization")
        ):
            reason = cross_site_reason(request, token)
            if reason is not None:
                raise web.HTTPForbidden(text=f"refused: {reason}\n")
        return await handler(request)

    return middleware
