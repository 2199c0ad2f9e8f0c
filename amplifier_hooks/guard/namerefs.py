"""bash's namerefs read as the variables they name: after ``declare -n ref=GITHUB_TOKEN``
(or ``local -n``, ``typeset -n``, or ``declare -n ref; ref=GITHUB_TOKEN``), ``$ref`` is
``$GITHUB_TOKEN``: ``echo "$ref"`` prints the token though no word names it.

The rules on printing or sending a variable read the words' text (``*$TOKEN*``), so each
later piece's words are written with the named variable in place of the reference, as
the shell reads them; the pieces' text is left as it was (what the person sees).
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece

__all__ = ["DECLARERS", "follow_namerefs"]

DECLARERS = frozenset({"declare", "local", "typeset"})
"""The builtins whose ``-n`` makes a name another name for a variable."""
_NAME = re.compile(r"[A-Za-z_]\w*")


def follow_namerefs(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each reference to a nameref written as the variable it names
    (``pieces`` itself when none is declared)."""
    pending: set[str] = set()
    refs: dict[str, str] = {}
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if refs and piece.args:
            args = tuple(_renamed(arg, refs) for arg in piece.args)
            if args != piece.args:
                out = out or list(pieces)
                out[index] = piece._replace(args=args)
        if piece.program in DECLARERS and _sets_nameref(piece.args):
            pending.update(a for a in piece.args if _NAME.fullmatch(a))
        elif piece.program is None and pending:
            for pair in piece.env:
                name, _, target = pair.partition("=")
                if name in pending and _NAME.fullmatch(target):
                    refs[name] = refs.get(target, target)
                    pending.discard(name)
    return pieces if out is None else tuple(out)


def _sets_nameref(args: tuple[str, ...]) -> bool:
    return any(a.startswith("-") and "n" in a[1:] and a[1:].isalpha() for a in args)


def _renamed(word: str, refs: dict[str, str]) -> str:
    if "$" not in word:
        return word
    for name, target in refs.items():
        word = re.sub(r"\$(\{?)" + name + r"(?!\w)", r"$\g<1>" + target, word)
    return word
