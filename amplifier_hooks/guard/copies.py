"""A file copied earlier in the same command and then sent: ``cp .env /tmp/r.env && gh
gist create /tmp/r.env`` sends ``.env``.

The copy does not exist yet when the guard judges the command, and its name says nothing
of what it holds; so a later piece that reaches the network and names the copy (as an
operand, ``@FILE``, ``key=@FILE``) is given the original as a file it reads, and the rules
on sending secrets (`env-file-send`, `credential-send`, ...) see it. Only a plain ``cp
SRC DST`` is followed (into a folder, ``DST/`` names ``DST/NAME``); a later piece that
does not reach the network is judged as before (the copy itself already read SRC).
"""

from __future__ import annotations

import posixpath

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.programs import NETWORK

__all__ = ["carry_copies"]

_PLAIN_FLAGS = frozenset({"-f", "-p", "-v", "--force", "--preserve", "--verbose"})
"""Options of cp that leave one file copied to one place."""


def carry_copies(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each network piece that names an earlier copy given the original
    as a file it reads; the same tuple when none does."""
    copied: dict[str, str] = {}
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if copied and (piece.program in NETWORK or "://" in "\x00".join(piece.args)):
            sources = [copied[n] for n in map(_named, piece.args) if n in copied]
            if sources:
                out = out or list(pieces)
                out[index] = piece._replace(reads=(*piece.reads, *sources))
        if piece.program == "cp" and piece.tool == "bash":
            copied.update(_copy(piece))
    return pieces if out is None else tuple(out)


def _copy(piece: Piece) -> dict[str, str]:
    """{the copy's name: the original} of a plain ``cp SRC DST``; empty for any other."""
    operands = [a for a in piece.args if not a.startswith("-")]
    flags = [a for a in piece.args if a.startswith("-")]
    if len(operands) != 2 or not _PLAIN_FLAGS.issuperset(flags) or "$" in "".join(operands):
        return {}
    source, target = operands
    found = {_named(target): source}
    if target.endswith("/") or target in (".", "..", "~", "/tmp"):
        found[_named(posixpath.join(target, posixpath.basename(source)))] = source
    return found


def _named(word: str) -> str:
    """The file a word names: ``@F`` and ``key=@F`` name F; ``./F`` is F."""
    if "=@" in word:
        word = word.partition("=@")[2]
    word = word.removeprefix("@")
    while word.startswith("./"):
        word = word[2:]
    return word.rstrip("/") or word
