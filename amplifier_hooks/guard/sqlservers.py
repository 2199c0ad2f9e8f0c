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

__all__ = ["CLIENTS", "Reached", "elsewhere", "reached", "sql_given"]


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
    service: bool = False
    """A hosted warehouse's client (SnowSQL, bq): its server is always another machine, so
    a domain says nothing of whose data it is; its connection, account, project or
    database named production does, and a dev connection is the person's own work."""
    sql_command: str = ""
    """The subcommand whose operands are the SQL (``bq query 'SELECT ..'``); a call of any
    other (``bq ls``) runs no statement and is not read here."""


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
# The warehouses' and query engines' clients: SnowSQL's named connection (``-c prod``), a
# Trino or Hive server's URL, Spark's local metastore, BigQuery's project
CLIENTS.update({
    "snowsql": Client(("-q", "--query"), ("-c", "--connection", "-a", "--accountname", "-h",
                                          "--host"),
                      ("-u", "--username", "-d", "--dbname", "-s", "--schemaname", "-r",
                       "--rolename", "-w", "--warehouse", "-f", "--filename", "-o", "--option",
                       "-D", "--variable", "--config", "-p", "--port", "--region",
                       "--authenticator", "--private-key-path"),
                      ("SNOWSQL_ACCOUNT", "SNOWSQL_DATABASE"), service=True),
    "trino": Client(("--execute",), ("--server",),
                    ("--catalog", "--schema", "--user", "-f", "--file", "--output-format",
                     "--session", "--source", "--client-tags", "--access-token",
                     "--truststore-path", "--keystore-path", "--extra-credential",
                     "--resource-estimate", "--client-info", "--krb5-principal"),
                    ("TRINO_SERVER",)),
    "spark-sql": Client(("-e",), (),
                        ("-f", "-i", "--database", "--master", "--deploy-mode", "--conf",
                         "--name", "--jars", "--packages", "--driver-memory",
                         "--executor-memory", "--num-executors", "--queue", "--hiveconf",
                         "--hivevar", "--properties-file", "-d", "--define"), ()),
    "beeline": Client(("-e",), ("-u",),
                      ("-n", "-p", "-d", "-f", "-i", "--hivevar", "--hiveconf",
                       "--outputformat"), ()),
    "bq": Client((), ("--project_id", "--dataset_id"), ("--location", "--format",
                          "--destination_table", "--parameter", "--max_rows", "-n",
                          "--job_id", "--api", "--flagfile"),
                 ("CLOUDSDK_CORE_PROJECT",), service=True, sql_command="query"),
})  # fmt: skip
CLIENTS["presto"] = CLIENTS["trino"]


class Reached(NamedTuple):
    """A client's call: its statements, and whether its server is elsewhere."""

    sql: tuple[str, ...]
    elsewhere: bool
    """The server is another machine's, or named production."""
    production: bool = False
    """The server, its database or the variable naming it says production."""
    unread: bool = False
    """It runs statements the call does not show: a file's (``-f``), or its input's."""
    service: bool = False
    """The server is a hosted warehouse's (`Client.service`): a role granted there is the
    whole account's, whatever connection grants it."""
    named: tuple[str, ...] = ()
    """The words that name a server, a database, a user or a password: no file."""


_FILES = frozenset({"-f", "--file", "-i", "--filename"})
"""Options whose value is a file of statements (psql's, cqlsh's ``-f``, sqlcmd's ``-i``)."""
_OUTPUTS = frozenset({"-o", "--output", "-L", "--log-file", "--destination_table"})
"""Options whose value is a file the client writes (its results, its log)."""
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
    named: list[str] = []
    operands, unread, looks = 0, False, False
    command = not client.sql_command  # the SQL's subcommand met (or none needed)
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
            named.append(value)
        elif name in client.valued:
            if name in ("-d", "--dbname", "-D", "--database"):
                places.append(value)  # psql -d takes a URL or conninfo too
            unread = unread or name in _FILES
            if name not in _FILES and name not in _OUTPUTS:
                named.append(value)
        elif arg.startswith("-"):
            step = 1
            looks = looks or arg in _LOOKS
        else:
            step = 1
            if not command:
                if arg != client.sql_command:  # another subcommand: no statement
                    return None
                command = True
                i += step
                continue
            if client.sql_command:
                sql.append(arg)
            elif client.positional_host and operands == 0:
                places.append(arg)
            elif "://" in arg or "=" in arg or "$" in arg:
                places.append(arg)  # psql's URL or conninfo string (or a variable's)
                named.append(arg)  # as its database
            operands += 1
        i += step
    for assigned in env:
        key, _, value = assigned.partition("=")
        if key in client.env:
            places.append(value)
    if not command:
        return None
    production = any(_PROD.search(place) for place in places)
    unread = unread or not (sql or looks)  # no statement given: it reads its input's
    away = production or (not client.service and any(elsewhere(p) for p in places))
    return Reached(tuple(sql), away, production, unread, client.service, tuple(named))


def sql_given(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    """The words a client (a key of `CLIENTS`) is given that are no paths: its SQL texts
    (``bq query 'SELECT .. FROM `p.d.t`'``, ``mysql -e 'SELECT `id` ..'``), but one the
    shell expands ("$SQL": what it holds is unknown), and the server, database, user and
    password it is told (``-S localhost,1433``, ``-P "$SA_PASSWORD"``, ``psql
    "$DATABASE_URL"``)."""
    found = reached(program, args, ())
    if found is None:
        return ()
    return (*(sql for sql in found.sql if "$" not in sql), *found.named)


def elsewhere(place: str) -> bool:
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
