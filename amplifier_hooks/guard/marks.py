"""The marks a shell command's pieces get once read in order, applied in one place.

Each mark reads a few programs (a metadata request, a notebook run by URL, a hub upload,
a reader printing no value, a tightening ``chmod``) or a piece that writes a file; every
other piece it returns as it is. Most commands an agent runs touch none of them
(``git status && pytest -q tests/``): one look at the pieces' programs then tells that
no mark applies, instead of one pass per mark (``bench_guard``'s fresh decision row).
"""

from __future__ import annotations

from amplifier_hooks.guard.destinations import EXAMINED, mark_destinations
from amplifier_hooks.guard.hubsends import UPLOADERS, mark_uploads
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.modes import mark_tightened
from amplifier_hooks.guard.notebookruns import RUNNERS, mark_remote_notebooks
from amplifier_hooks.guard.owninput import mark_own_input
from amplifier_hooks.guard.valueless import READERS, mark_valueless

__all__ = ["MARKED_PROGRAMS", "marked"]

MARKED_PROGRAMS = EXAMINED | RUNNERS | UPLOADERS | READERS | {"chmod"}
"""Every shell program a mark below reads (`mark_own_input` reads a piece's writes;
`mark_destinations`, a piece of another tool)."""


def marked(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with every mark applied (the same tuple when none applies)."""
    for piece in pieces:
        if piece.program in MARKED_PROGRAMS or piece.writes or piece.tool != "bash":
            break
    else:
        return pieces  # no piece any mark reads
    pieces = mark_uploads(mark_remote_notebooks(mark_destinations(pieces)))
    return mark_own_input(mark_tightened(mark_valueless(pieces)))
