"""Files sourced while the shell traces: ``set -x; . ./.env`` prints each assignment of
``.env``, its values included, where the model reads them.

With ``xtrace`` on (``set -x``, ``set -ex``, ``set -o xtrace``), bash prints every command
it runs with its words expanded, so sourcing a file shows each line of it. The pieces that
source a file after xtrace is turned on (and before ``set +x``) are marked `TRACED`;
`secrets.shows_text` then counts them as showing the file (a `.env`: `env-file-print`).
"""

from __future__ import annotations

from amplifier_hooks.guard.model import Piece

__all__ = ["TRACED", "mark_traced"]

TRACED = "@traced"
"""A piece that sources a file while the shell prints each command it runs."""

_SOURCES = frozenset({"source", "."})


def mark_traced(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each ``source``/``.`` run while xtrace is on marked `TRACED`; the
    same tuple when none is."""
    tracing = False
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if piece.program == "set":
            tracing = _traces(piece.args, tracing)
        elif tracing and piece.program in _SOURCES:
            out = out or list(pieces)
            out[index] = piece._replace(wrappers=(*piece.wrappers, TRACED))
    return pieces if out is None else tuple(out)


def _traces(args: tuple[str, ...], tracing: bool) -> bool:
    """Whether xtrace is on after ``set args`` (it was ``tracing`` before)."""
    for index, arg in enumerate(args):
        if arg in ("-o", "+o") and args[index + 1 : index + 2] == ("xtrace",):
            tracing = arg == "-o"
        elif arg[:1] in "-+" and arg[1:].isalpha() and "x" in arg[1:]:
            tracing = arg[0] == "-"
    return tracing
