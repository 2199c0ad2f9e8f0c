"""Only the socket owner's own processes may talk to a server on a Unix socket.

The socket's directory (mode 0700) already keeps other users out; the peer's user id,
which the kernel reports (`SO_PEERCRED`), is checked as well, so a directory made too
open by mistake does not open the server.
"""

from __future__ import annotations

import os
import socket
import struct
from collections.abc import Awaitable, Callable

from aiohttp import web

__all__ = ["peer_uid", "same_user_only"]

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

_CREDENTIALS = struct.Struct("3i")  # struct ucred: pid, uid, gid


def peer_uid(request: web.Request) -> int | None:
    """The user id of the process at the other end of the request's Unix socket; None
    where the system does not say (no `SO_PEERCRED`, not a Unix socket)."""
    option = getattr(socket, "SO_PEERCRED", None)
    transport = request.transport
    sock = transport.get_extra_info("socket") if transport is not None else None
    if option is None or sock is None or sock.family != socket.AF_UNIX:
        return None
    raw = sock.getsockopt(socket.SOL_SOCKET, option, _CREDENTIALS.size)
    _pid, uid, _gid = _CREDENTIALS.unpack(raw)
    return int(uid)


@web.middleware
async def same_user_only(request: web.Request, handler: Handler) -> web.StreamResponse:
    """403 to a peer that is another user (root included: it has no need to)."""
    uid = peer_uid(request)
    if uid is not None and uid != os.getuid():
        raise web.HTTPForbidden(text="this hook server answers its owner only\n")
    return await handler(request)
