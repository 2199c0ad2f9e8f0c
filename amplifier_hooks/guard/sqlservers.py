"""The server a SQL client's call reaches, read from its options as the client reads them.

``psql -h db.prod.internal``, ``mysql --host=10.0.4.2``, ``cqlsh cassandra.prod.internal``,
``psql postgres://u@host/db`` and ``PGHOST=... psql`` each name the server the statements
go to. Its data is this machine's developer's when it is this machine (``localhost``, a
socket path) or a one-label name (a compose service: ``db``); a host with a domain or an
address, or a name that says production, is another machine's, whose users lose what a
statement drops. A host held in a variable is unknown, unless its name says production
(``$PROD_DATABASE_URL``).
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["CLIENTS", "Reached", "reached"]


class Client(NamedTuple):
    """Where one client takes its statements and its server from."""

    sql: tuple[str, ...]
    """Options whose value is SQL (``-c``, ``--command``)."""
    host: tuple[str, ...]
    """Options whose value is the server (``-h``, ``--host``)."""
    valued: tuple[str, ...]
    """Other options that take the next word as their value."""
    env: tuple[str, ...]
    """Variables that name the server."""
    positional_host: bool = False
    """The first operand is the server (cqlsh's ``HOST``), not a database."""


CLIENTS = {
    "psql": Client(("-c", "--command"), ("-h", "--host"),
                   ("-d", "--dbname", "-p", "--port", "-U", "--username", "-v", "--set",
                    "--variable", "-P", "--pset", "-f", "--file", "-o", "--output", "-F",
                    "-R", "-L", "--log-file", "-T"),
                   ("PGHOST", "PGHOSTADDR", "PGSERVICE", "PGDATABASE")),
    "mysql": Client(("-e", "--execute"), ("-h", "--host"),
                    ("-u", "--user", "-P", "--port", "-D", "--database", "-S", "--socket"),
                    ("MYSQL_HOST",)),
    "clickhouse-client": Client(("-q", "--query"), ("-h", "--host"),
                                ("-u", "--user", "--port", "-d", "--database", "--password"),
                                ("CLICKHOUSE_HOST",)),
    "cqlsh": Client(("-e", "--execute"), (), ("-u", "--username", "-p", "--password", "-k",
                                              "--keyspace", "-f", "--file"),
                    ("CQLSH_HOST",), positional_host=True),
    "sqlcmd": Client(("-Q", "-q"), ("-S",), ("-U", "-P", "-d", "-i", "-o"), ("SQLCMDSERVER",)),
}  # fmt: skip
CLIENTS["mariadb"] = CLIENTS["mysql"]


class Reached(NamedTuple):
    """A client's call: its statements, and whether its server is elsewhere."""

    sql: tuple[str, ...]
    elsewhere: bool
    """The server is another machine's, or named production."""
    production: bool = False
    """The server, its database or the variable naming it says production."""
    unread: bool = False
    """It runs statements the call does not show: a file's (``-f``), or its input's."""


_FILES = frozenset({"-f", "--file", "-i"})
"""Options whose value is a file of statements (psql's, cqlsh's ``-f``, sqlcmd's ``-i``)."""
_LOOKS = frozenset({"-l", "--list", "-V", "--version", "--help", "-?"})
"""Options that run no statement (a list of the databases, the version)."""
_PROD = re.compile(r"(?:^|[-_./:@=$])prod(?:[-_./:]|$)|production", re.I)
_URL_HOST = re.compile(r"://(?:[^/@\s]*@)?(?P<host>\[[^\]]*\]|[^/:?\s]*)")
_CONNINFO_HOST = re.compile(r"(?:^|\s)host(?:addr)?\s*=\s*'?(?P<host>[^\s']+)")
_LOCAL = frozenset({"", "localhost", "::1", "[::1]", "0.0.0.0"})


def reached(program: str, args: tuple[str, ...], env: tuple[str, ...]) -> Reached | None:
    """The statements ``program`` (a key of `CLIENTS`) runs and where; None for another
    program."""
    client = CLIENTS.get(program)
    if client is None:
        return None
    sql: list[str] = []
    places: list[str] = []
    operands, unread, looks = 0, False, False
    i = 0
    while i < len(args):
        arg = args[i]
        name, eq, attached = arg.partition("=") if arg.startswith("--") else (arg[:2], "", arg[2:])
        if arg.startswith("--") and not eq:
            name, attached = arg, ""
        value = attached if (eq or attached) else (args[i + 1] if i + 1 < len(args) else "")
        step = 1 if (eq or attached) else 2
        if name in client.sql:
            sql.append(value)
        elif name in client.host:
            places.append(value)
        elif name in client.valued:
            if name in ("-d", "--dbname", "-D", "--database"):
                places.append(value)  # psql -d takes a URL or conninfo too
            unread = unread or name in _FILES
        elif arg.startswith("-"):
            step = 1
            looks = looks or arg in _LOOKS
        else:
            step = 1
            if client.positional_host and operands == 0:
                places.append(arg)
            elif "://" in arg or "=" in arg or "$" in arg:
                places.append(
                    arg
                )  # psql's URL or conninfo string (or a variable's) as its database
            operands += 1
        i += step
    for assigned in env:
        key, _, value = assigned.partition("=")
        if key in client.env:
            places.append(value)
    production = any(_PROD.search(place) for place in places)
    unread = unread or not (sql or looks)  # no statement given: it reads its input's
    return Reached(tuple(sql), production or any(_elsewhere(p) for p in places), production,
                   unread)  # fmt: skip


def _elsewhere(place: str) -> bool:
    """Whether ``place`` (a host, a URL, a conninfo string) names another machine's server
    or production."""
    if _PROD.search(place):
        return True
    if "$" in place:  # a variable's value: unknown (production only by its name, above)
        return False
    found = _URL_HOST.search(place) or _CONNINFO_HOST.search(place)
    host = found.group("host") if found else place
    host = host.strip("'\"").lower()
    if host in _LOCAL or host.startswith(("/", "127.", "@")):
        return False
    return "." in host or ":" in host  # a domain or an address; one label is a compose name
