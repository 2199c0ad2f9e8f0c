"""Marks on a SQL client's piece from what its statements do and where (the pack decides).

The client's options say the server (`sqlservers`); its statements' tokens say what they
do (`sqleffects`). A wipe or a privilege given away on another machine's or production's
server is that server's users' loss, a database opened to every address or a row sent to
a URL is everyone's reach: the pack denies those, and asks a wipe of this machine's, and
statements the call does not show (a file's, its input's: a dump restored) run on
production.
"""

from __future__ import annotations

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.sqlchanges import statements_change, statements_safety_off
from amplifier_hooks.guard.sqleffects import (
    ACCESS,
    OPENS,
    PRIVILEGE,
    SENDS,
    WIPE,
    WIPE_PRODUCTION,
    statement_effects,
)
from amplifier_hooks.guard.sqlservers import CLIENTS, reached
from amplifier_hooks.guard.sqltokens import statements
from amplifier_hooks.guard.sqlwarehouse import safety_off as warehouse_safety_off
from amplifier_hooks.guard.sqlwarehouse import spends

__all__ = [
    "CLIENTS",
    "PROGRAMS",
    "SCRATCH_CLIENTS",
    "SQL_ACCESS_ELSEWHERE",
    "SQL_CHANGE_ELSEWHERE",
    "SQL_LOOKS",
    "SQL_OPENS",
    "SQL_PRIVILEGE_ELSEWHERE",
    "SQL_SAFETY_OFF_ELSEWHERE",
    "SQL_SCRATCH",
    "SQL_SENDS",
    "SQL_SPENDS",
    "SQL_UNREAD_PRODUCTION",
    "SQL_WIPE",
    "SQL_WIPE_ELSEWHERE",
    "mark_sql",
]

SQL_WIPE = "@sql-wipe"
SQL_WIPE_ELSEWHERE = "@sql-wipe-elsewhere"
SQL_PRIVILEGE_ELSEWHERE = "@sql-privilege-elsewhere"
SQL_ACCESS_ELSEWHERE = "@sql-access-elsewhere"
"""A GRANT or REVOKE on another machine's server, production's or a warehouse's: who may
reach its users' data changes (the pack asks)."""
SQL_CHANGE_ELSEWHERE = "@sql-change-elsewhere"
"""Any other statement that does more than look (`sqlchanges`) on another machine's server
or production's: a session killed, replication stopped, a table locked (the pack asks)."""
SQL_SAFETY_OFF_ELSEWHERE = "@sql-safety-off-elsewhere"
"""Durability or transport security switched off there (``fsync``, ``ssl``): denied."""
SQL_SPENDS = "@sql-spends"
"""A hosted warehouse's compute made, resized, kept running or uncapped
(`sqlwarehouse.spends`): the account's bill (the pack asks)."""
SQL_OPENS = "@sql-opens"
SQL_SENDS = "@sql-sends"
SQL_UNREAD_PRODUCTION = "@sql-unread-production"


SQL_LOOKS = "@sql-looks"
"""Statements the call shows that only look (``SELECT``, ``SHOW``, ``EXPLAIN`` without
``ANALYZE``: `sqlchanges`): a word such as ``drop table`` in their text is in a literal,
a search for it, not a statement."""
SQL_SCRATCH = "@sql-scratch"
"""An in-memory database's statements that reach no file: what they drop is made and lost
with the call (``sqlite3 :memory: 'create table t(x); drop table t'``)."""
SCRATCH_CLIENTS = frozenset({"sqlite3", "duckdb"})
_SCRATCH_VALUED = frozenset({"-cmd", "-c", "-s", "-init", "-separator", "-nullvalue",
                             "-newline"})  # fmt: skip
_REACHES_FILES = frozenset({"ATTACH", "COPY", "EXPORT", "IMPORT", "INSTALL", "LOAD", "VACUUM",
                            "BACKUP", "RESTORE", "SAVE", "OPEN", "OUTPUT", "ONCE", "READ",
                            "SHELL", "SYSTEM"})  # fmt: skip
"""Words of a statement or a dot-command that reach a file or a program."""


PROGRAMS = frozenset(CLIENTS) | SCRATCH_CLIENTS
"""Every program `mark_sql` reads."""


def mark_sql(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each SQL client's piece marked for what its statements do."""
    return tuple(_marked(piece) if piece.program in CLIENTS
                 else _scratch(piece) if piece.program in SCRATCH_CLIENTS
                 else piece for piece in pieces)  # fmt: skip


def _scratch(piece: Piece) -> Piece:
    """The piece marked `SQL_SCRATCH` when its database is in memory (``:memory:``, or
    DuckDB's with none named) and no statement reaches a file."""
    operands: list[str] = []
    sql: list[str] = []
    args = piece.args
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "-init":  # a file of statements: reaches a file
            return piece
        if arg in _SCRATCH_VALUED:
            if arg in ("-cmd", "-c") and i + 1 < len(args):
                sql.append(args[i + 1])
            i += 2
            continue
        if not arg.startswith("-"):
            operands.append(arg)
        i += 1
    database, sql = (operands[0] if operands else None), [*sql, *operands[1:]]
    in_memory = database == ":memory:" or (database is None and piece.program == "duckdb")
    if not in_memory or not sql or piece.writes or piece.reads:
        return piece
    for text in sql:
        for statement in statements(text):
            words = {t.text for t in statement if t.kind == "word"}
            if words & _REACHES_FILES or statement[0] == ("mark", "."):
                return piece
    return piece._replace(wrappers=(*piece.wrappers, SQL_SCRATCH))


def _marked(piece: Piece) -> Piece:
    found = reached(piece.program or "", piece.args, piece.env)
    if found is None:
        return piece
    if found.unread and found.production:  # a file's or its input's statements there
        return piece._replace(wrappers=(*piece.wrappers, SQL_UNREAD_PRODUCTION))
    read = [statements(sql) for sql in found.sql]  # (each read once, for every test below)
    kinds: set[str] = set()
    for statements_read in read:
        kinds |= statement_effects(statements_read)
    changes = any(statements_change(r) for r in read)  # (once: both tests below ask)
    marks: list[str] = []
    if WIPE in kinds:  # (a name that says production is production's, on any server)
        elsewhere = found.elsewhere or WIPE_PRODUCTION in kinds
        marks.append(SQL_WIPE_ELSEWHERE if elsewhere else SQL_WIPE)
    reaching = found.elsewhere or found.service  # a warehouse's roles are the account's
    if PRIVILEGE in kinds and reaching:
        marks.append(SQL_PRIVILEGE_ELSEWHERE)
    elif ACCESS in kinds and reaching:
        marks.append(SQL_ACCESS_ELSEWHERE)
    if OPENS in kinds:
        marks.append(SQL_OPENS)
    if SENDS in kinds:
        marks.append(SQL_SENDS)
    if found.service and any(warehouse_safety_off(r, found.production) for r in read):
        marks.append(SQL_SAFETY_OFF_ELSEWHERE)  # the account's: any connection's
    elif found.service and any(spends(r) for r in read):
        marks.append(SQL_SPENDS)
    elif found.elsewhere:  # (a warehouse's: its connection says production)
        if any(statements_safety_off(r) for r in read):
            marks.append(SQL_SAFETY_OFF_ELSEWHERE)
        elif not marks and changes:
            marks.append(SQL_CHANGE_ELSEWHERE)
    if read and not found.unread and not changes:
        marks.append(SQL_LOOKS)
    return piece._replace(wrappers=(*piece.wrappers, *marks)) if marks else piece
