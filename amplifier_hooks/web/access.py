"""Who may talk to a server, where it may listen, and how much it may be sent.

Every server of the project binds loopback unless told otherwise, answers nothing without
its token, and refuses a body over its size limit before reading it.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import ipaddress
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass

from aiohttp import web
from aiohttp.typedefs import Middleware

from amplifier_hooks.web.limits import trouble_of

__all__ = [
    "DEFAULT_MAX_BODY",
    "BindPlan",
    "Credentials",
    "check_bind",
    "is_loopback",
    "loopback_host_only",
    "refused",
    "require_token",
]

DEFAULT_MAX_BODY = 1024 * 1024
"""Bytes a request body may have (a hook payload is a few kB; a transcript is never sent)."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@functools.lru_cache(maxsize=256)
def is_loopback(host: str) -> bool:
    """True for ``localhost`` and the loopback ranges (127.0.0.0/8, ::1). Asked twice per
    request (the address a server listens on, the Host it is sent); a Host header is the
    client's choice, so the memo is bounded."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class BindPlan:
    """Where a server listens, and what the user must be told about it."""

    host: str
    remote: bool  # reachable from other machines
    warning: str | None  # said before listening; None when there is nothing to say


def check_bind(host: str, *, allow_remote: bool, tls: bool) -> BindPlan:
    """The plan for listening on ``host``.

    Raises `ValueError` for an address beyond loopback without ``allow_remote``: a token
    sent in the clear over a network is a token given away, so it must be asked for.
    """
    if is_loopback(host):
        return BindPlan(host, remote=False, warning=None)
    if not allow_remote:
        raise ValueError(
            f"{host} is reachable from other machines; this server listens on loopback "
            "(127.0.0.1) unless you pass --allow-remote"
        )
    warning = None
    if not tls:
        warning = (
            f"listening on {host} WITHOUT TLS: the token and every request cross the network "
            "in the clear; give a certificate (--certfile, --keyfile) or put a TLS proxy in front"
        )
    return BindPlan(host, remote=True, warning=warning)


@dataclass(frozen=True)
class Credentials:
    """What a client shows: the bearer token, or a browser's login cookie made from it."""

    token: str
    cookie_name: str | None = None  # None: the server takes no cookie (API only)

    def bearer_ok(self, header: str | None) -> bool:
        """True if ``header`` is exactly ``Bearer <token>``: one constant-time comparison
        of the whole header (asked on every call; `refusal` says why not)."""
        given = (header or "").encode("utf-8", "surrogateescape")
        return hmac.compare_digest(given, self._bearer)

    @functools.cached_property
    def _bearer(self) -> bytes:
        return b"Bearer " + self.token.encode()

    def refusal(self, header: str | None) -> str | None:
        """Why the ``Authorization`` header ``header`` is refused (never quoting it);
        None if it holds exactly the token."""
        if not header:
            return "no Authorization header"
        if not header.startswith("Bearer "):
            return "the Authorization header is not 'Bearer <token>'"
        # The exact bytes: a token with a space or a newline more is another token.
        given = header[7:].encode("utf-8", "surrogateescape")
        if not hmac.compare_digest(given, self.token.encode()):
            return "wrong token"
        return None

    def cookie_value(self) -> str:
        """The cookie a logged-in browser holds: derived from the token, never the token,
        so a leaked cookie does not give the bearer token away."""
        digest = hmac.new(self.token.encode(), b"amplifier-hooks browser login", hashlib.sha256)
        return digest.hexdigest()

    def cookie_ok(self, value: str | None) -> bool:
        if self.cookie_name is None or not value:
            return False
        return hmac.compare_digest(value.encode(), self.cookie_value().encode())

    def token_ok(self, value: str | None) -> bool:
        given = str(value or "").encode("utf-8", "surrogateescape")
        return bool(value) and hmac.compare_digest(given, self.token.encode())

    def allows(self, request: web.Request) -> bool:
        if self.bearer_ok(request.headers.get("Authorization")):
            return True
        return self.cookie_name is not None and self.cookie_ok(
            request.cookies.get(self.cookie_name)
        )


def require_token(credentials: Credentials, *, open_paths: Collection[str] = ()) -> Middleware:
    """An aiohttp middleware that answers 401 to any request without the credentials.

    ``open_paths`` are served to anyone (a login page that takes ``?token=``; it checks
    the token itself).
    """

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if credentials.allows(request) or (open_paths and request.path in open_paths):
            return await handler(request)
        cause = credentials.refusal(request.headers.get("Authorization"))
        refused(request, 401, cause or "wrong login cookie")
        raise web.HTTPUnauthorized(
            text="missing or wrong token\n", headers={"WWW-Authenticate": "Bearer"}
        )

    return middleware


def refused(request: web.Request, status: int, cause: str) -> None:
    """Log one refused call: the status, the cause and where it came from -- never a
    credential (at `Trouble`'s rate, so a flood is counted, not written out)."""
    peer = request.remote or "unix socket"
    trouble = trouble_of(request)
    trouble.note(
        f"call refused ({status})",
        trouble.limits.refused_burst,
        cause=cause,
        method=request.method,
        path=request.path,
        peer=peer,
    )


@functools.lru_cache(maxsize=256)
def same_host_only(request_host: str | None, local: tuple[str, int] | None) -> str | None:
    """Why a request naming ``request_host`` (its Host header) is refused by a server
    listening on loopback at ``local``; None if it names a loopback address at our port.
    A web page on an attacker's name that resolves to 127.0.0.1 (DNS rebinding) sends its
    own name here, so it never reaches the token check with a browser's cookie. Asked on
    every call, with a Host header of the client's choice: the memo is bounded."""
    if local is None:
        return None
    if not request_host:
        return "no Host header"
    host = request_host.lower()
    if host.startswith("["):  # [::1]:8419
        name, _, rest = host[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else rest
    elif host.count(":") == 1:
        name, port = host.split(":")
    else:
        name, port = host, ""
    if not is_loopback(name):
        return f"Host {request_host[:80]!r} is not this loopback server"
    if port and port != str(local[1]):
        return f"Host {request_host[:80]!r} names another port"
    return None


@web.middleware
async def loopback_host_only(request: web.Request, handler: Handler) -> web.StreamResponse:
    """421 to a request to a loopback server whose Host names anything but loopback."""
    transport = request.transport
    local = transport.get_extra_info("sockname") if transport is not None else None
    if isinstance(local, tuple) and len(local) >= 2 and is_loopback(str(local[0])):
        cause = same_host_only(request.headers.get("Host"), (str(local[0]), int(local[1])))
        if cause is not None:
            refused(request, 421, cause)
            raise web.HTTPMisdirectedRequest(text="this server answers its loopback address only\n")
    return await handler(request)
