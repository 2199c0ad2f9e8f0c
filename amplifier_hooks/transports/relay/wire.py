"""One HTTP/1.1 POST over a Unix socket, in stdlib.

`http.client` would do, but importing it (email, the header parser) costs more than the
whole exchange; this speaks only to our own server, which always sends Content-Length.
"""

from __future__ import annotations

# The C module: socket.py would import enum and selectors, more than this exchange costs.
import _socket
import os
import struct

__all__ = ["MAX_HOOK_BYTES", "Dropped", "Impostor", "NoServer", "Unreachable", "WireError", "post"]

CONNECT_TIMEOUT = 5.0
"""Seconds to wait for the server to accept; the answer itself may take as long as a
person does (an approval), so it has no limit of ours -- the host's hook timeout is it."""

MAX_HOOK_BYTES = 64 * 1024 * 1024
"""The largest hook input either transport takes (a Write of a big file, a PostToolUse of
a huge read), and the largest answer the relay reads back (it may carry the input,
rewritten). One number for the server's default, the command hook's stdin and the relay,
so a call is refused by neither transport unless by both."""


class Unreachable(OSError):
    """No server took the request (see the two kinds below)."""


class NoServer(Unreachable):
    """Nobody listens: no socket file, or a stale one (connection refused). Starting a
    server is the remedy."""


class Dropped(Unreachable):
    """A server accepted the connection and closed it before answering: it was stopping
    (idle exit, SIGTERM). Asking again is the remedy -- not starting another server, as
    it may well still be alive."""


class WireError(OSError):
    """The server took the request but its answer is unusable."""


class Impostor(WireError):
    """The process listening on the socket is another user's: nothing is sent to it."""


_CREDENTIALS = struct.Struct("3i")  # struct ucred: pid, uid, gid


def check_server(sock: _socket.socket, path: str) -> None:
    """Raise `Impostor` unless the process that listens on ``sock`` runs as this user.
    The folder's checks come first; this one holds even if a socket of another user
    was moved into it. Systems without `SO_PEERCRED` rely on the folder alone."""
    option = getattr(_socket, "SO_PEERCRED", None)
    if option is None:
        return
    _pid, uid, _gid = _CREDENTIALS.unpack(
        sock.getsockopt(_socket.SOL_SOCKET, option, _CREDENTIALS.size)
    )
    if uid != os.getuid():
        raise Impostor(
            f"the server at {path} runs as user id {uid}, not as you: nothing was sent to it"
        )


def post(path: str, target: str, body: bytes) -> tuple[int, bytes]:
    """POST ``body`` (JSON) to ``target`` on the server at socket ``path``; the status and
    the response body."""
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.settimeout(CONNECT_TIMEOUT)
        try:
            sock.connect(path)
        except (FileNotFoundError, ConnectionRefusedError) as exc:
            raise NoServer(f"no server at {path} ({exc.strerror})") from exc
        check_server(sock, path)
        sock.settimeout(None)
        head = (
            f"POST {target} HTTP/1.1\r\nHost: localhost\r\n"
            "Content-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        ).encode("ascii")
        try:
            sock.sendall(head + body)
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise Dropped(f"the server at {path} closed the connection") from exc
        raw = _read_all(sock, path)
    finally:
        sock.close()
    return _parse(raw, path)


def _read_all(sock: _socket.socket, path: str) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        try:
            data = sock.recv(65536)
        except ConnectionResetError as exc:
            if not chunks:
                raise Dropped(f"the server at {path} closed the connection") from exc
            raise WireError(f"the server at {path} broke off its answer") from exc
        if not data:
            break
        chunks.append(data)
        size += len(data)
        if size > MAX_HOOK_BYTES:
            raise WireError(f"the answer from {path} is over {MAX_HOOK_BYTES} bytes")
    if not chunks:
        raise Dropped(f"the server at {path} closed the connection without answering")
    return b"".join(chunks)


def _parse(raw: bytes, path: str) -> tuple[int, bytes]:
    head, sep, body = raw.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    parts = lines[0].split(b" ", 2)
    if not sep or len(parts) < 2 or not parts[0].startswith(b"HTTP/1.") or not parts[1].isdigit():
        raise WireError(f"the server at {path} did not answer in HTTP")
    length: int | None = None
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        key = name.strip().lower()
        if key == b"content-length" and value.strip().isdigit():
            length = int(value.strip())
        elif key == b"transfer-encoding":
            raise WireError(f"the server at {path} sent a chunked answer")
    if length is not None:
        if len(body) < length:
            raise WireError(f"the server at {path} broke off its answer")
        body = body[:length]
    return int(parts[1]), body
