"""The files a SQL client's call reads and writes, read from its options and its SQL.

A client the guard does not read has every word taken as a file it may write: ``duckdb -c
"SELECT count(*) FROM 'data/x.parquet'"`` would be a write of a file named like the whole
statement. DuckDB, SQLite and psql take their statements as words, and name files in
three ways only:

- **the database file** (``duckdb DB``, ``sqlite3 DB``): written, unless ``-readonly``;
- **options with a file** (``-init F``, psql's ``-f F`` read; psql's ``-o F``, ``-L F``
  written);
- **quoted names in the SQL**: a literal after ``TO`` (``COPY (..) TO 'out.parquet'``,
  psql's ``\\copy .. to 'f.csv'``) is written, and so is the name after a dot-command or
  backslash-command that writes (``.output F``, ``.once F``, ``.save F``, ``.backup F``,
  ``\\o F``, ``\\w F``); every other quoted literal that looks like a file
  (``read_parquet('data/*.parquet')``, ``FROM 'x.csv'``, ``ATTACH 'x.db'``) is taken as
  read, and an ``ATTACH``ed database as written too.

Anything the reader does not know (an option not listed, a statement that installs or
loads an extension, ``EXPORT DATABASE``, a ``COPY`` whose target is not a literal) keeps
the old reading: None, every word a file that may be written. The statements' other
effects (dropping tables, a production host) are the pack's rules', as before.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["SQL_CALLS", "SQL_CLIENTS", "SqlFiles", "code_sql_files", "sql_files"]

SQL_CLIENTS = frozenset({"duckdb", "sqlite3", "psql"})
SQL_CALLS = frozenset({"duckdb.sql", "duckdb.query"})
"""Inline Python's calls that run a DuckDB statement (read as ``duckdb -c``)."""


class SqlFiles(NamedTuple):
    """What a SQL client's call reads and writes here (paths as written)."""

    reads: tuple[str, ...]
    writes: tuple[str, ...]


_FLAGS = {
    "duckdb": frozenset({"-readonly", "-json", "-csv", "-line", "-list", "-box", "-table",
                         "-markdown", "-column", "-header", "-noheader", "-echo", "-bail",
                         "-batch", "-no-stdin", "-ascii", "-html", "-quote", "-jsonlines"}),
    "sqlite3": frozenset({"-readonly", "-json", "-csv", "-line", "-list", "-box", "-table",
                          "-markdown", "-column", "-header", "-noheader", "-echo", "-bail",
                          "-batch", "-ascii", "-html", "-quote", "-safe", "-stats"}),
    "psql": frozenset({"-A", "-t", "-X", "-q", "-e", "-E", "-a", "-b", "-n", "-s", "-S",
                       "-x", "-w", "-W", "-1", "--csv", "--no-align", "--tuples-only",
                       "--no-psqlrc", "--quiet", "--expanded", "--html", "--echo-all",
                       "--echo-queries", "--single-transaction", "--no-password"}),
}  # fmt: skip
"""Options that take no value and touch no file."""
_VALUED = {
    "duckdb": frozenset({"-separator", "-nullvalue"}),
    "sqlite3": frozenset({"-separator", "-nullvalue", "-newline", "-cmd"}),
    "psql": frozenset({"-d", "--dbname", "-h", "--host", "-p", "--port", "-U", "--username",
                       "-v", "--set", "--variable", "-P", "--pset", "-F", "-R",
                       "--field-separator", "--record-separator"}),
}  # fmt: skip
"""Options whose value is a name, a setting or a statement (no file)."""
_SQL = {"duckdb": ("-c", "-cmd", "-s"), "sqlite3": ("-cmd",), "psql": ("-c", "--command")}
_READ = {"duckdb": ("-init",), "sqlite3": ("-init",), "psql": ("-f", "--file")}
_WRITTEN = {"duckdb": (), "sqlite3": (), "psql": ("-o", "--output", "-L", "--log-file")}

_UNREAD = re.compile(
    r"\b(install|load|export\s+database|import\s+database|into\s+outfile|program)\b"
    r"|\b(writefile|edit|lo_export|lo_import|pg_file_write|load_extension|dblink\w*)\s*\(",
    re.I,
)
"""Statements whose files or effects the reader does not name (an extension loaded, a
database exported, a file written by a function, a program run): read as before."""
_META = re.compile(r"(?:^|[\s;])([.\\][^\s;'\"()]*)")
_KNOWN_META = frozenset(
    {".tables", ".schema", ".headers", ".header", ".mode", ".dump", ".indexes", ".indices",
     ".databases", ".timer", ".width", ".nullvalue", ".separator", ".show", ".help", ".quit",
     ".exit", ".print", ".stats", ".eqp", ".changes", ".bail", ".echo", ".fullschema",
     ".dbinfo", ".maxrows", ".rows", ".columns", ".output", ".once", ".save", ".backup",
     "\\dt", "\\d", "\\d+", "\\dt+", "\\l", "\\l+", "\\dn", "\\du", "\\df",
     "\\dv", "\\di", "\\ds", "\\dx", "\\x", "\\timing", "\\pset", "\\conninfo",
     "\\copy", "\\o", "\\w", "\\q", "\\echo", "\\encoding", "\\a", "\\t", "\\H"}
)  # fmt: skip
"""DuckDB's and SQLite's dot-commands, psql's backslash commands, that the reader knows:
they show, set a display option, or write the file named after them (`_WRITING_META`);
any other (``.read``, ``.shell``, ``.import``, ``\\i``, ``\\!``, ``\\g``) is not read."""
_TO = re.compile(r"\bto\s+'([^']*)'", re.I)
_WRITING_META = re.compile(r"(?:^|\s|;)(?:\.(?:output|once|save|backup)|\\[ow])\s+'?([^'\s;]+)")
_ATTACH = re.compile(r"\battach\s+(?:database\s+)?'([^']*)'", re.I)
_QUOTED = re.compile(r"'([^']*)'|\"([^\"]*)\"")
_FILE_LIKE = re.compile(r"[/~]|\.\w{1,8}$")
"""A quoted literal that names a file (a folder in it, or an extension): others are values."""


def sql_files(program: str, args: tuple[str, ...]) -> SqlFiles | None:
    """What ``program args`` (a client in `SQL_CLIENTS`) reads and writes here; None when
    the reader does not know a word of it."""
    flags, valued = _FLAGS[program], _VALUED[program]
    sql: list[str] = []
    reads: list[str] = []
    writes: list[str] = []
    operands: list[str] = []
    readonly = False
    index = 0
    while index < len(args):
        arg = args[index]
        option, equals, glued = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        takes = (
            option in _SQL[program]
            or option in _READ[program]
            or (option in _WRITTEN[program] or option in valued)
        )
        if takes:
            value = glued if equals else (args[index + 1] if index + 1 < len(args) else None)
            if value is None:
                return None
            index += 1 if equals else 2
            if option in _SQL[program]:
                sql.append(value)
            elif option in _READ[program]:
                reads.append(value)
            elif option in _WRITTEN[program]:
                writes.append(value)
            continue
        if arg in flags:
            readonly = readonly or arg == "-readonly"
        elif arg == "--":
            operands.extend(args[index + 1 :])
            break
        elif arg.startswith("-") or "$" in arg or "`" in arg:
            return None  # an option not listed; a database named at run time
        else:
            operands.append(arg)
        index += 1
    if program == "psql":  # its operands are a database's and a user's names
        if len(operands) > 2:
            return None
    elif operands:  # the database file, then statements
        database, *statements = operands
        sql.extend(statements)
        (reads if readonly else writes).append(database)
    for text in sql:
        if _UNREAD.search(text) or any(m.group(1) not in _KNOWN_META for m in _META.finditer(text)):
            return None
        written = _TO.findall(text) + _WRITING_META.findall(text) + _ATTACH.findall(text)
        if any(name.startswith("|") for name in written):
            return None  # `\\o |cmd`, `.once |cmd`: output piped into a command
        writes.extend(written)
        reads.extend(
            name for pair in _QUOTED.findall(text) for name in pair
            if name and name not in written and _FILE_LIKE.search(name)
        )  # fmt: skip
    return SqlFiles(tuple(reads), tuple(writes))


def code_sql_files(text: str | None) -> SqlFiles | None:
    """What a statement inline code gives DuckDB (``duckdb.sql(text)``) reads and writes;
    None when it is not a literal the reader knows in full."""
    return None if text is None else sql_files("duckdb", ("-c", text))
