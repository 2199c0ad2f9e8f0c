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
"""

from __future__ import annotations

from collections.abc import Callable

from amplifier_hooks.guard.earlier import echoed_text
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.table import commands_run

__all__ = ["SQL_STDIN", "read_piped_sql"]

SQL_STDIN = frozenset({"sqlite3", "duckdb"})
"""Clients that read statements from their input when none is given."""
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
        head = piece.args if _names_database(piece.args) else (*piece.args, ":memory:")
        out = out or list(pieces)
        out[index] = read = piece._replace(args=(*head, text))
        for command in commands_run(read.program or "", read.args):
            wrappers = (*piece.wrappers, read.program or "")
            ran.extend(p._replace(wrappers=(*wrappers, *p.wrappers)) for p in reparse(command))
    return pieces if out is None else (*out, *ran)


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
