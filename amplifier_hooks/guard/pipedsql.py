"""SQL a command gives sqlite3 or DuckDB on their input, read as the statements it is.

``echo '.shell CMD' | duckdb``, ``printf 'DROP TABLE t;' | sqlite3 app.db`` and
``duckdb <<EOF ... EOF`` run that text as if it followed the database on the command line
(``sqlite3 app.db 'DROP TABLE t;'``), which is where the pack's rules and the table's
meta-commands (`table.sqlshell`: ``.shell``, ``.system``) read statements. So the text is
put there: after the database, or after ``:memory:`` (the in-memory database both open
when none is named), so that it is never taken for a database file; the shell commands
its meta-commands run are judged as commands of their own, as on the command line. Text
the guard cannot know (``echo "$SQL"``) is left out: the client's piece is judged as
before.

The server clients read their input the same way when no statement is given on the
command line: ``echo 'DROP TABLE t;' | psql -h HOST app`` is ``psql -h HOST app -c 'DROP
TABLE t;'`` (mysql's and mariadb's ``-e``), and ``printf 'FLUSHDB' | redis-cli -h HOST``
runs each line as a command, as if its words followed the options (unless ``-x`` makes
the input the last argument's value).
"""

from __future__ import annotations

from collections.abc import Callable

from amplifier_hooks.guard.fedcode import echoed_text
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.table import commands_run

__all__ = ["SQL_STDIN", "read_piped_sql"]

SQL_STDIN = frozenset({"sqlite3", "duckdb", "psql", "mysql", "mariadb", "redis-cli",
                       "valkey-cli", "keydb-cli"})  # fmt: skip
"""Clients that read statements from their input when none is given."""
_STATEMENT_OPTIONS = {"psql": ("-c", "--command", "-f", "--file"),
                      "mysql": ("-e", "--execute"), "mariadb": ("-e", "--execute")}  # fmt: skip
"""The option a server client is given a statement with on its command line (and those
that make it read none from its input)."""
_REDIS = frozenset({"redis-cli", "valkey-cli", "keydb-cli"})
_VALUED = frozenset({"-c", "-cmd", "-s", "-init", "-separator", "-nullvalue", "-newline"})
"""Their options that take the next word as a value (not a database)."""


def read_piped_sql(
    pieces: tuple[Piece, ...], reparse: Callable[[str], tuple[Piece, ...]]
) -> tuple[Piece, ...]:
    """``pieces`` with the literal text each SQL client reads on its input given as a
    statement argument, and the pieces of the commands it runs (the same tuple when there
    is none)."""
    out: list[Piece] | None = None
    ran: list[Piece] = []
    for index, piece in enumerate(pieces):
        if piece.program not in SQL_STDIN:
            continue
        text = piece.fed
        if text is None and index > 0 and piece.program in pieces[index - 1].pipes_to:
            text = echoed_text(pieces[index - 1])
        if not text:
            continue
        args = _given(piece.program or "", piece.args, text)
        if args is None:
            continue
        out = out or list(pieces)
        out[index] = read = piece._replace(args=args)
        for command in commands_run(read.program or "", read.args):
            wrappers = (*piece.wrappers, read.program or "")
            ran.extend(p._replace(wrappers=(*wrappers, *p.wrappers)) for p in reparse(command))
    return pieces if out is None else (*out, *ran)


def _given(program: str, args: tuple[str, ...], text: str) -> tuple[str, ...] | None:
    """``args`` with the input's ``text`` given as the client reads it (None: the client
    reads no statement from its input)."""
    options = _STATEMENT_OPTIONS.get(program)
    if options is not None:
        if any(a in options or a.startswith(options) for a in args):
            return None  # (a statement on the command line: the input is not read)
        return (*args, options[0], text)
    if program in _REDIS:
        return None if {"-x", "-X"}.intersection(args) else (*args, *text.split())
    return (*args, text) if _names_database(args) else (*args, ":memory:", text)


def _names_database(args: tuple[str, ...]) -> bool:
    """Whether ``args`` name a database (a word that is no option nor an option's value)."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in _VALUED:
            skip = True
        elif arg == "--" or not arg.startswith("-"):
            return True
    return False
