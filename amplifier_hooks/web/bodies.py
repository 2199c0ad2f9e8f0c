"""Reading a request's body within a size and a time.

aiohttp's own size limit reads up to the limit before refusing; a declared
Content-Length over it is refused here before a byte is read, and a body that trickles
in is given up on after ``body_timeout`` seconds, so a client holding the token cannot
keep a call -- or the server's shutdown -- waiting forever.
"""

from __future__ import annotations

import asyncio

from aiohttp import web

__all__ = ["BodyRefused", "arrived", "read_body"]


class BodyRefused(Exception):
    """The body was not read; the message says why (for the client)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


async def read_body(request: web.Request, max_body: int, timeout: float) -> bytes:
    """The whole body of ``request``; `BodyRefused` when it is declared or found to be
    over ``max_body`` bytes, or does not arrive within ``timeout`` seconds. (What is left
    of a refused body is read and dropped for at most the runner's ``lingering_time``,
    then the connection is closed.)"""
    declared = request.content_length
    if declared is not None and declared > max_body:
        raise BodyRefused(f"the body is {declared} bytes, over the limit of {max_body}", 413)
    try:
        if arrived(request):  # nothing left to wait for, so no deadline to keep
            return await request.read()
        async with asyncio.timeout(timeout):  # no task of its own, unlike wait_for
            return await request.read()
    except web.HTTPRequestEntityTooLarge as exc:
        raise BodyRefused(f"the body is over the limit of {max_body} bytes", 413) from exc
    except TimeoutError as exc:
        raise BodyRefused(f"the body did not arrive within {timeout:g} s", 408) from exc


def arrived(request: web.Request) -> bool:
    """True when the whole body of ``request`` has been received (a hook input usually
    comes in the same packet as its headers): reading it then never waits."""
    return request.content.is_eof()
