"""The shell commands a database client runs for its meta-commands.

``psql -c '\\! cat ~/.pgpass'`` runs ``cat ~/.pgpass`` in a shell on this machine, as do
psql's ``\\o |CMD`` and ``\\g |CMD`` (its output piped into CMD), mysql's and mariadb's
``system CMD`` / ``\\! CMD`` given with ``-e``, and sqlite3's and DuckDB's ``.shell
CMD`` / ``.system CMD`` given as an argument (DuckDB's shell is SQLite's): the guard
judges each such command like any other (`table.commands_run`), rather than reading the
SQL as only SQL. So is the command PostgreSQL's ``COPY ... TO PROGRAM 'cmd'`` runs (on the
server, as its user): read from the statement's tokens (`sqltokens`), never its text; and
MySQL's ``INTO OUTFILE 'path'`` as the redirection that writes the same file.
"""

from __future__ import annotations

import re
import shlex

from amplifier_hooks.guard.sqltokens import statements

__all__ = ["CLIENTS", "meta_commands"]

CLIENTS = frozenset({"psql", "mysql", "mariadb", "sqlite3", "duckdb"})
"""The clients whose meta-commands run a shell command."""

_PSQL = re.compile(r"\\(?:!|[og]\s*\|)\s*(.*?)(?=\\\\|\n|$)", re.S)
_MYSQL = re.compile(r"(?:^|[;\n])\s*(?:\\!|system\b)\s*([^;\n]*)", re.I)
_SQLITE = re.compile(r"(?:^|\n)\s*\.(?:shell|system)\b\s*([^\n]*)")

_PSQL_SQL = ("-c", "--command")
_MYSQL_SQL = ("-e", "--execute")


def meta_commands(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    """The shell commands ``program`` (one of `CLIENTS`) runs because of ``args``."""
    if program in ("sqlite3", "duckdb"):
        texts: tuple[str, ...] = args  # its SQL and dot-commands follow the database
        pattern = _SQLITE
    elif program == "psql":
        texts, pattern = _values(args, _PSQL_SQL), _PSQL
    else:
        texts, pattern = _values(args, _MYSQL_SQL), _MYSQL
    found = [m.group(1).strip() for text in texts for m in pattern.finditer(text)]
    if program == "psql":  # COPY's PROGRAM runs on the server: this machine's, or another's
        found.extend(program for text in texts for program in copy_programs(text))
        found.extend(command for text in texts for command in function_bodies(text))
    elif program in ("mysql", "mariadb"):  # and INTO OUTFILE writes a file there
        found.extend(command for text in texts for command in outfile_writes(text))
    return tuple(command for command in found if command)


_ROWS = "psql -c 'COPY rows TO STDOUT'"
"""The rows ``COPY ... TO PROGRAM`` feeds its command, as a pipe from psql gives them (so
the pack's rules on a database's rows sent over the network read them the same)."""


def copy_programs(sql: str) -> tuple[str, ...]:
    """The shell commands PostgreSQL's ``COPY ... TO|FROM PROGRAM 'cmd'`` runs (as the
    server's user, with its rights: its data files, its network), read from the statements'
    tokens; a program not given as a literal (psql's ``:'var'``) is the variable's
    unknown value. ``TO PROGRAM`` feeds it the rows."""
    if "program" not in sql.lower():  # the cheap screen: no statement names one
        return ()
    found: list[str] = []
    for statement in statements(sql):
        if statement[0] != ("word", "COPY"):
            continue
        for i, token in enumerate(statement[:-1]):
            if token == ("word", "PROGRAM") and statement[i - 1][1] in ("TO", "FROM"):
                after, fed = statement[i + 1], statement[i - 1][1] == "TO"
                command = after.text if after.kind == "literal" else '"$COPY_PROGRAM"'
                found.append(f"{_ROWS} | {{\n{command}\n}}" if fed else command)
    return tuple(found)


_UNTRUSTED = {
    "PLPYTHON3U": "python3",
    "PLPYTHONU": "python3",
    "PLPYTHON2U": "python3",
    "PLPERLU": "perl",
    "PLSH": "sh",
    "PLTCLU": "tclsh",
}
"""PostgreSQL's untrusted languages, whose functions run as the server's user with its
rights (files, processes, network), and the interpreter that reads the same code."""
_FLAG = {"python3": "-c", "perl": "-e", "sh": "-c", "tclsh": "-c"}


def function_bodies(sql: str) -> tuple[str, ...]:
    """The code of functions (and ``DO`` blocks) in an untrusted language (``LANGUAGE
    plpython3u``), as the interpreter's command that runs the same: each time a trigger
    or a call runs it, later, on the server."""
    if "language" not in sql.lower():  # the cheap screen: no function names its language
        return ()
    found: list[str] = []
    for statement in statements(sql):
        if statement[0] not in (("word", "CREATE"), ("word", "DO")):
            continue
        interpreter = next((_UNTRUSTED[t.text] for t in statement
                            if t.kind == "word" and t.text in _UNTRUSTED), None)  # fmt: skip
        if interpreter is None:
            continue
        after = {"CREATE": "AS", "DO": "DO"}[statement[0].text]  # the body follows
        for i, token in enumerate(statement[:-1]):
            body = statement[i + 1]
            if token == ("word", after) and body.kind == "literal":
                found.append(shlex.join([interpreter, _FLAG[interpreter], body.text]))
    return tuple(found)


def outfile_writes(sql: str) -> tuple[str, ...]:
    """MySQL's ``SELECT .. INTO OUTFILE|DUMPFILE 'path'``, which the server writes (on
    this machine, for a local one) with the rows or the value it selects, as the command
    that writes the same: ``mysql -e 'SELECT rows' > path``."""
    if "outfile" not in sql.lower() and "dumpfile" not in sql.lower():  # the cheap screen
        return ()
    found: list[str] = []
    for statement in statements(sql):
        for i, token in enumerate(statement[:-2]):
            if token == ("word", "INTO") and statement[i + 1].text in ("OUTFILE", "DUMPFILE"):
                after = statement[i + 2]
                path = shlex.quote(after.text) if after.kind == "literal" else '"$OUTFILE"'
                found.append(f"mysql -e 'SELECT rows' > {path}")
    return tuple(found)


def _values(args: tuple[str, ...], options: tuple[str, str]) -> tuple[str, ...]:
    """The values of the short option ``options[0]`` (``-c SQL``, ``-cSQL``) and the long
    one ``options[1]`` (``--command SQL``, ``--command=SQL``)."""
    short, long = options
    found: list[str] = []
    for i, arg in enumerate(args):
        if arg in (short, long):
            if i + 1 < len(args):
                found.append(args[i + 1])
        elif arg.startswith(long + "="):
            found.append(arg[len(long) + 1 :])
        elif arg.startswith(short) and not arg.startswith("--"):
            found.append(arg[len(short) :])
    return tuple(found)
