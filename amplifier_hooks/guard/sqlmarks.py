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
from amplifier_hooks.guard.sqleffects import OPENS, PRIVILEGE, SENDS, WIPE, effects
from amplifier_hooks.guard.sqlservers import CLIENTS, reached

__all__ = [
    "CLIENTS",
    "SQL_OPENS",
    "SQL_PRIVILEGE_ELSEWHERE",
    "SQL_SENDS",
    "SQL_UNREAD_PRODUCTION",
    "SQL_WIPE",
    "SQL_WIPE_ELSEWHERE",
    "mark_sql",
]

SQL_WIPE = "@sql-wipe"
SQL_WIPE_ELSEWHERE = "@sql-wipe-elsewhere"
SQL_PRIVILEGE_ELSEWHERE = "@sql-privilege-elsewhere"
SQL_OPENS = "@sql-opens"
SQL_SENDS = "@sql-sends"
SQL_UNREAD_PRODUCTION = "@sql-unread-production"


def mark_sql(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each SQL client's piece marked for what its statements do."""
    return tuple(_marked(piece) if piece.program in CLIENTS else piece for piece in pieces)


def _marked(piece: Piece) -> Piece:
    found = reached(piece.program or "", piece.args, piece.env)
    if found is None:
        return piece
    if found.unread and found.production:  # a file's or its input's statements there
        return piece._replace(wrappers=(*piece.wrappers, SQL_UNREAD_PRODUCTION))
    kinds: set[str] = set()
    for sql in found.sql:
        kinds |= effects(sql)
    marks: list[str] = []
    if WIPE in kinds:
        marks.append(SQL_WIPE_ELSEWHERE if found.elsewhere else SQL_WIPE)
    if PRIVILEGE in kinds and found.elsewhere:
        marks.append(SQL_PRIVILEGE_ELSEWHERE)
    if OPENS in kinds:
        marks.append(SQL_OPENS)
    if SENDS in kinds:
        marks.append(SQL_SENDS)
    return piece._replace(wrappers=(*piece.wrappers, *marks)) if marks else piece
