"""A file copied earlier in the same command and then sent or shown: ``cp .env /tmp/r.env
&& gh gist create /tmp/r.env`` sends ``.env``; ``cp .env /tmp/e.txt && cat /tmp/e.txt``
prints it.

The copy does not exist yet when the guard judges the command, and its name says nothing
of what it holds; so a later piece that names the copy (as an operand, ``@FILE``,
``key=@FILE``, or its input) is given the original as a file it reads, and the rules on
sending and printing secrets (`env-file-send`, `credential-send`, `env-file-print`, ...)
see it, as they see the original named. Only a plain ``cp SRC DST`` or ``mv SRC DST`` is
followed (into a folder, ``DST/`` names ``DST/NAME``).
"""

from __future__ import annotations

import posixpath

from amplifier_hooks.guard.model import Piece

__all__ = ["carry_copies"]

_PLAIN_FLAGS = frozenset({"-f", "-p", "-v", "--force", "--preserve", "--verbose"})
"""Options of cp that leave one file copied to one place."""


def carry_copies(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each piece that names an earlier copy given the original as a file
    it reads; the same tuple when none does."""
    copied: dict[str, str] = {}
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if copied:
            named = map(_named, (*piece.args, *piece.reads))
            sources = [copied[n] for n in named if n in copied]
            if sources:
                out = out or list(pieces)
                out[index] = piece._replace(reads=(*piece.reads, *sources))
        if piece.program in ("cp", "mv") and piece.tool == "bash":
            copied.update(_copy(piece))
    return pieces if out is None else tuple(out)


def _copy(piece: Piece) -> dict[str, str]:
    """{the copy's name: the original} of a plain ``cp SRC DST`` (or ``mv``); empty for any
    other."""
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
