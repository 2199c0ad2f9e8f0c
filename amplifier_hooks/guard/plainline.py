"""A command line of plain commands read without the syntax tree: the parse's one shortcut
around tree-sitter.

Most commands an agent runs are a few plain commands joined by ``&&``, ``||`` or ``;``
(``git status && pytest -q tests/``): words of letters, digits and ``./:@%+,~*?-``, no quote,
escape, expansion, brace, bracket, redirection, pipe, comment or newline. bash splits such a
line at its operators and each part into its words at blanks, so its pieces are those of
the walk's own shortcut for a command of plain words (`unwrap.literal_piece`), in order,
with nothing flowing between them. Anything else -- a first word the grammar reads as
syntax (``if``, ``export``, ...) or ``cd`` (it changes where the later ones run), a program
`unwrap` looks into, an empty part -- is left to the tree (None). The tree costs about a
fifth of a fresh decision (`benchmarks.bench_guard`; docs/performance.md), and
tests/guard/test_plainline.py checks that this reading and the tree's agree.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.unwrap import literal_piece
from amplifier_hooks.guard.walk import CD

__all__ = ["MAX_PLAIN_COMMANDS", "plain_line"]

MAX_PLAIN_COMMANDS = 8
"""Longer lines are left to the tree (which keeps the command budget)."""

_COMMAND = re.compile(r"[\w./+-]+(?:[ \t]+[\w./:@%+,~*?-][\w./:@%+,=~*?-]*)*", re.ASCII)
"""One command of plain words: the characters of the walk's `parser._PLAIN_TEXT`, and
fewer where the grammar reads them otherwise: in the first word only ``./+-`` (``a%``
and ``a@`` are not one word to it; an ``=`` makes an assignment), and no word starting
with ``=`` (``==``)."""
_OPERATOR = re.compile(r"[ \t]*(?:&&|\|\||;)[ \t]*")
_SYNTAX = frozenset(
    {"if", "then", "elif", "else", "fi", "case", "esac", "for", "select", "while", "until",
     "do", "done", "in", "function", "time", "coproc", "declare", "typeset", "export",
     "readonly", "local", "unset", "unsetenv", *CD}
)  # fmt: skip
"""First words the grammar reads as syntax, not as a program (and ``cd``, ``pushd``)."""


def plain_line(text: str) -> tuple[Piece, ...] | None:
    """The pieces of ``text`` when it is a line of plain commands (None: read the tree)."""
    if not text.isascii():
        return None
    parts = _OPERATOR.split(text)
    if len(parts) > MAX_PLAIN_COMMANDS:
        return None
    pieces = []
    for part in parts:
        if _COMMAND.fullmatch(part) is None:
            return None
        words = part.split()
        if words[0] in _SYNTAX:
            return None
        piece = literal_piece(part, words, (), (), ".")
        if piece is None:
            return None
        pieces.append(piece)
    return tuple(pieces)
