"""The database client an MCP server's SQL is judged as (`mcptools`: the ``sql`` and
``remote-sql`` kinds), so that the pack's rules on ``psql`` and SnowSQL judge it: on a
server elsewhere (``psql -h HOST -c SQL``: its changes asked, its drops denied) or on
the project's own database (``psql -c SQL``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.mcpverbs import production_server

__all__ = ["sql_client"]


def sql_client(name: str, inputs: Mapping[str, Any], hosted: bool) -> list[str]:
    """The client words, up to the option its SQL follows, for the SQL of tool ``name``
    given ``inputs``: a hosted database's (``hosted``: its project, server or connection
    named in the call), else as the server's name says."""
    return _given_client(inputs) if hosted else _named_client(name)


_HOSTED = ("project_id", "projectId", "project_ref", "projectRef")
"""Arguments that name a hosted database's project (Supabase's, Neon's): its server is
another machine, as ``psql -h HOST`` names one."""


_SERVERS = ("server", "host")
"""Arguments that name a database server by its host name or address."""


def _given_client(inputs: Mapping[str, Any]) -> list[str]:
    """The client a SQL tool's statements are judged as, up to the option its SQL follows:
    ``psql``, with the hosted project's server or the server the call names, or SnowSQL
    with the named connection a warehouse's tool is given (``"connection": "prod"``)."""
    hosted = next((inputs[k] for k in _HOSTED if isinstance(inputs.get(k), str)), None)
    if hosted:
        return ["psql", "-h", f"{hosted}.hosted.database", "-c"]
    connection = inputs.get("connection")
    if isinstance(connection, str) and connection:
        return ["snowsql", "-c", connection, "-q"]
    server = next((inputs[k] for k in _SERVERS if isinstance(inputs.get(k), str)), None)
    return ["psql", "-h", server, "-c"] if server else ["psql", "-c"]


_SERVED_DB = re.compile(
    r"postgres|pg|sql|maria|neon|supabase|snowflake|redshift|bigquery|clickhouse|cockroach"
    r"|databricks|oracle|db|database|warehouse",
    re.IGNORECASE,
)
"""A server named for a database server: its SQL runs on the server it is set up with,
which may be shared or production, not on this machine's own database (`_named_client`)."""
_LOCAL_FILE_DB = re.compile(r"sqlite|duckdb|libsql", re.IGNORECASE)
"""A server named for a database in a local file (its own file, as ``sqlite3 F``)."""


def _named_client(name: str) -> list[str]:
    """The client a database server's SQL is judged as: ``psql``, against a host named as
    the server is when its name says production (``mcp__postgres-prod__query``: its
    statements change production's data) or names a database server (``mcp__postgres__
    query``: the server it is set up with, shared or not, so its changes are asked and
    its drops denied, as on any server elsewhere), else the project's own database (a
    local file's server, ``mcp__sqlite__write_query``)."""
    server = name.split("__")[1] if name.count("__") >= 2 else ""
    if production_server(name):
        return ["psql", "-h", server, "-c"]
    if _SERVED_DB.search(server) is not None and _LOCAL_FILE_DB.search(server) is None:
        return ["psql", "-h", f"{server}.mcp.database", "-c"]
    return ["psql", "-c"]
