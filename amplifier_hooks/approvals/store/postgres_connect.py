"""Connecting to the shared store: a bounded connect, a one-line cause, a quiet driver.

A store that cannot be reached must say why at once: left to itself, the pool retries a
refused connection, a wrong password and a missing database alike (none of which
retrying fixes), logs each attempt with its driver text, and its final message guesses
"is it running and reachable?" for all of them. Here the first connection is made once,
directly, within `CONNECT_TIMEOUT`, and its failure is read into
one line that names the cause (`connect_failure`). The driver's loggers get a
`logging.NullHandler`, so with nothing configured their records no longer fall through to
Python's last-resort handler on stderr; a host that configures logging still sees them.
"""

from __future__ import annotations

import logging
import math
import re

from psycopg.conninfo import conninfo_to_dict, make_conninfo

__all__ = ["CONNECT_TIMEOUT", "DRIVER_LOGGERS", "connect_failure", "with_connect_timeout"]

CONNECT_TIMEOUT = 3.0
"""Seconds the first connection to the server may take (libpq's ``connect_timeout``; a
URL that sets its own keeps it). libpq does not go below 2."""

DRIVER_LOGGERS = ("psycopg", "psycopg.pool")
"""The loggers of psycopg and psycopg_pool."""

for _name in DRIVER_LOGGERS:
    _logger = logging.getLogger(_name)
    if not any(isinstance(h, logging.NullHandler) for h in _logger.handlers):
        _logger.addHandler(logging.NullHandler())

_USER = re.compile(r'for user "([^"]*)"')
_DATABASE = re.compile(r'database "([^"]*)" does not exist')
_ROLE = re.compile(r'role "([^"]*)" does not exist')
_HOST = re.compile(r'could not translate host name "([^"]*)"')
_PREFIXES = re.compile(r"^(connection failed|connection is bad): ")
_SERVER = re.compile(r"^connection to server (at|on socket) .*? failed: (FATAL:\s+)?")


def with_connect_timeout(url: str, seconds: float = CONNECT_TIMEOUT) -> str:
    """``url`` with ``connect_timeout`` set to ``seconds`` (rounded up), unless it sets
    one itself."""
    if "connect_timeout" in conninfo_to_dict(url):
        return url
    return make_conninfo(url, connect_timeout=str(max(2, math.ceil(seconds))))


def connect_failure(error: BaseException, seconds: float = CONNECT_TIMEOUT) -> str:
    """One line that names why a connection failed: refused, unreachable, authentication,
    no such database; else the driver's first line without its prefixes."""
    text = str(error).strip()
    lower = text.lower()
    if "connection refused" in lower or "no such file or directory" in lower:
        return "cannot connect: connection refused (is the server running, on that host and port?)"
    if "timeout expired" in lower:
        return f"cannot connect: server unreachable (no answer within {seconds:g} s)"
    if (host := _HOST.search(text)) is not None:
        return f'cannot connect: server unreachable (unknown host "{host.group(1)}")'
    if "authentication failed" in lower:
        user = _USER.search(text)
        who = f' for user "{user.group(1)}"' if user else ""
        return f"cannot connect: authentication failed{who} (check the user and password)"
    if "no password supplied" in lower:
        return "cannot connect: authentication failed (the server wants a password)"
    if (role := _ROLE.search(text)) is not None:
        return f'cannot connect: authentication failed (no such user "{role.group(1)}")'
    if (database := _DATABASE.search(text)) is not None:
        return f'cannot connect: no such database "{database.group(1)}"'
    first = text.splitlines()[0].strip() if text else type(error).__name__
    return "cannot connect: " + _SERVER.sub("", _PREFIXES.sub("", first))
