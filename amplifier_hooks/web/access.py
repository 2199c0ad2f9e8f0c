"""Who may talk to a server, where it may listen, and how much it may be sent.

Every server of the project binds loopback unless told otherwise, answers nothing without
its token, and refuses a body over its size limit before reading it.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass

from aiohttp import web

__all__ = [
    "DEFAULT_MAX_BODY",
    "BindPlan",
    "Credentials",
    "check_bind",
    "is_loopback",
    "require_token",
]

DEFAULT_MAX_BODY = 1024 * 1024
"""Bytes a request body may have (a hook payload is a few kB; a transcript is never sent)."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and the loopback ranges (127.0.0.0/8, ::1)."""
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
        if not header or not header.startswith("Bearer "):
            return False
        return hmac.compare_digest(header[7:].strip().encode(), self.token.encode())

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
        return bool(value) and hmac.compare_digest(str(value).encode(), self.token.encode())

    def allows(self, request: web.Request) -> bool:
        if self.bearer_ok(request.headers.get("Authorization")):
            return True
        return self.cookie_name is not None and self.cookie_ok(
            request.cookies.get(self.cookie_name)
        )


def require_token(
    credentials: Credentials, *, open_paths: Collection[str] = ()
) -> Callable[[web.Request, Handler], Awaitable[web.StreamResponse]]:
    """An aiohttp middleware that answers 401 to any request without the credentials.

    ``open_paths`` are served to anyone (a login page that takes ``?token=``; it checks
    the token itself).
    """

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path in open_paths or credentials.allows(request):
            return await handler(request)
        raise web.HTTPUnauthorized(
            text="missing or wrong token\n", headers={"WWW-Authenticate": "Bearer"}
        )

    return middleware
