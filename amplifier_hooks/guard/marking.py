"""One loop for the marks that read one program's call: each piece of a screened program
gains the marks its reader finds.

The set test comes first and inline because most pieces of most commands belong to no
marker's programs; only those that do pay for the call to the reader. The same tuple
comes back when no piece gains a mark, so the caller keeps its cheap path.
"""

from __future__ import annotations

from collections.abc import Callable, Container

from amplifier_hooks.guard.model import Piece

__all__ = ["MarksOf", "mark_each"]

MarksOf = Callable[[tuple[Piece, ...], int], tuple[str, ...]]
"""The marks of ``pieces[index]`` (empty for none); the whole tuple is given for the
readers that look at a neighbour (what a pipe feeds in)."""


def mark_each(
    pieces: tuple[Piece, ...], programs: Container[str | None], marks_of: MarksOf
) -> tuple[Piece, ...]:
    """``pieces`` with each piece whose program is in ``programs`` given the marks
    ``marks_of`` finds for it, after its wrappers; ``pieces`` itself when none gains one."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if piece.program not in programs:
            continue
        marks = marks_of(pieces, index)
        if marks:
            out = out or list(pieces)
            out[index] = piece._replace(wrappers=(*piece.wrappers, *marks))
    return pieces if out is None else tuple(out)
