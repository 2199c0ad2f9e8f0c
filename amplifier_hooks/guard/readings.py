"""Each piece's reading -- what `facts.Facts` reads of it before any path is resolved --
kept across calls: a pure function of the piece (its program, words, wrappers, ...: an
equal piece reads the same, in any places), and a call's pieces recur (`git status`), so
a piece already read is not read again (``benchmarks/guardprobe.py``'s `judge_pieces`
row: 52 -> 41 µs right after another call, 175 -> 145 µs swept). Not kept where what the
piece changes is read from the file system (`places.asks_files`: whether a copy's
destination is a folder, what a patch names): that holds for one call only. The paths are
resolved at every call (`Facts.paths`), never kept here.

A reading is kept from the piece's second call on (`recurring`: a one-off such as
``pytest -q tests/test_7.py`` would only give the garbage collector more to walk); the
first call keeps it in its own memo (`memo`), for the call's later looks (ah-guard's
`losses.asks_of` reads a deleting piece before the rules do).
"""

from __future__ import annotations

from amplifier_hooks.guard.memo import resolved
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.places import Changed, asks_files
from amplifier_hooks.guard.recurring import Sightings

__all__ = ["KEPT_TEXT", "READINGS", "READINGS_KEPT", "Reading", "forget_readings", "keep", "kept"]

Reading = tuple[frozenset[str], tuple[str, ...], str | None, bool, bool, bool,
                tuple[str, str] | None, tuple[str, ...], tuple[str, ...], Changed,
                tuple[str, ...], tuple[bool, ...], tuple[object, ...]]  # fmt: skip
"""`Facts`' fields but its piece, places and paths, in the order `Facts._read` gives them."""

READINGS_KEPT = 1024
"""Pieces whose reading is kept (all forgotten when full, as the parse cache bounds its own)."""
KEPT_TEXT = 2048
"""The longest piece (its text and what it is fed) whose reading is kept."""

READINGS: dict[Piece, Reading] = {}
_SIGHTED = Sightings(READINGS_KEPT)


def kept(piece: Piece) -> Reading | None:
    """``piece``'s reading, kept by an earlier call or earlier in this one (None: none)."""
    found = READINGS.get(piece)
    if found is None:
        memo = resolved()  # (a piece is a key of its own there: no path's key is a Piece)
        if memo is not None:
            found = memo.get(piece)
    return found


def keep(piece: Piece, reading: Reading) -> None:
    """Keep ``piece``'s ``reading`` unless it holds for this call only (or is too long):
    across calls from the piece's second call on, in this call's memo before that."""
    if len(piece.text) + len(piece.fed or "") <= KEPT_TEXT and not asks_files(piece):
        if _SIGHTED.again(piece.text):
            if len(READINGS) >= READINGS_KEPT:
                READINGS.clear()
            READINGS[piece] = reading
            return
        memo = resolved()
        if memo is not None:
            memo[piece] = reading


def forget_readings() -> None:
    """Forget every reading (a benchmark that times them; a test that changes them)."""
    READINGS.clear()
    _SIGHTED.forget()
