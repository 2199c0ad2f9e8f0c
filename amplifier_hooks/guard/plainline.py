"""The everyday command line read without the parser: ``git status && pytest -q tests/``.

This is the guard's one speed trick. Most commands an agent runs are a few plain words
joined by ``&&``, ``||`` or ``;``. For such a line tree-sitter's tree holds nothing but
those words, and the walk (`parser`) makes each command's `unwrap.plain_piece` from them;
reading the words with one regex gives the same pieces in a fifth of the time (a fresh
decision spends a third of its time parsing). Anything else is left to the parser: a
quote, an escape, an expansion, a glob, a redirect, a pipe, a comment, a keyword or a
declaration (bash reads their words differently), a ``cd`` (it moves the later
commands), or a program `unwrap` sees through. tests/guard/test_plainline.py checks that
both readings give the same pieces.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.unwrap import plain_piece
from amplifier_hooks.guard.walk import CD

__all__ = ["MAX_PLAIN", "plain_line"]

MAX_PLAIN = 512
"""Longer lines go to the parser (far from its limits on nodes and commands)."""

_WORD = r"[A-Za-z0-9_./:,@%+-][A-Za-z0-9_./:,@%+=-]*"
"""A word bash reads as itself: no quote, escape, expansion, glob, brace, tilde, comment or
operator character (an ``=`` not first: ``--tb=short``)."""
_COMMAND = f"{_WORD}(?: +{_WORD})*"
_SEPARATOR = re.compile(r" *(?:&&|\|\||;) *")
_LINE = re.compile(f" *{_COMMAND}(?:{_SEPARATOR.pattern}{_COMMAND})* *")

_NOT_PLAIN = frozenset(
    {"if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until",
     "do", "done", "in", "function", "time", "coproc", "declare", "typeset", "export",
     "readonly", "local", "unset", *CD}
)  # fmt: skip
"""First words that make bash (and tree-sitter) read the words after them otherwise."""


def plain_line(text: str) -> tuple[Piece, ...] | None:
    """The pieces of ``text`` when it is a line of plain commands (None: parse it)."""
    if len(text) > MAX_PLAIN or _LINE.fullmatch(text) is None:
        return None
    pieces = []
    for command in _SEPARATOR.split(text.strip(" ")):
        words = command.split()
        if words[0] in _NOT_PLAIN:
            return None
        piece = plain_piece(command, words, (), (), ".")
        if piece is None:
            return None
        pieces.append(piece)
    return tuple(pieces)
