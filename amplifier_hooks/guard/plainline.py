"""A command line of plain words, read without its syntax tree.

Most commands an agent runs are plain words joined by ``&&``, ``||``, ``;`` and ``|``
(``git status && pytest -q tests/``): no quote, escape, expansion, brace, bracket,
redirection, comment or keyword. For such a line the walk over tree-sitter's tree
(`parser`) makes each command's piece from its words split at blanks (`unwrap.literal_piece`),
and only a pipe says more: where each command's output flows (`flow.assemble`). This
module gives the same pieces from the text alone, and None for any line it does not
cover, which is parsed as before: the tree and its walk are most of a fresh decision's
parse (`benchmarks.bench_guard`, the fresh row; docs/performance.md). The property in
tests/guard/test_plainline.py checks that both readings are the same piece for piece.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.flow import assemble
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.unwrap import literal_piece
from amplifier_hooks.guard.walk import CD

__all__ = ["MAX_PLAIN_COMMANDS", "plain_pieces"]

_HEAD = r"[\w./~][\w./~+-]*"
"""A program's word: no ``=`` (an assignment), and not begun by a sign the grammar may
read otherwise (``-``, ``%``, ``+``)."""
_ARGUMENT = r"[\w./:@%+,~*?-][\w./:@%+,=~*?-]*"
"""An argument's word: not begun by ``=``."""
_COMMAND = rf"{_HEAD}(?:[ \t]+{_ARGUMENT})*"
_SEPARATOR = r"[ \t]*(?:&&|\|\||;|\|)[ \t]*"
_LINE = re.compile(rf"{_COMMAND}(?:{_SEPARATOR}{_COMMAND})*", re.ASCII)
_SPLIT = re.compile(r"[ \t]*(&&|\|\||;|\|)[ \t]*")
MAX_PLAIN_COMMANDS = 32
"""Longer lines take the walk, whose budgets say when a command is too large."""
_RESERVED = frozenset(
    {"if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until",
     "do", "done", "in", "function", "time", "coproc", "declare", "typeset", "export",
     "readonly", "local", "unset", "unsetenv", "test"}
)  # fmt: skip
"""Words the grammar may read as a keyword or a command of its own kind where a command
begins (elsewhere they are words): a line with a command so begun takes the walk."""


def plain_pieces(text: str) -> tuple[Piece, ...] | None:
    """The pieces of ``text`` when it is plain commands joined by ``&&``, ``||``, ``;`` or
    ``|`` and each is a piece as written (none that `unwrap` sees through, nor ``cd``);
    None for any other line."""
    if not text.isascii() or _LINE.fullmatch(text) is None:
        return None
    parts = _SPLIT.split(text)
    if len(parts) > 2 * MAX_PLAIN_COMMANDS:
        return None
    found: list[tuple[int, list[Piece], int | None]] = []
    flows = False
    for index in range(0, len(parts), 2):
        command = parts[index]
        words = command.split()
        if words[0] in CD or words[0] in _RESERVED:
            return None
        piece = literal_piece(command, words, (), (), ".")
        if piece is None:
            return None
        piped = index + 1 < len(parts) and parts[index + 1] == "|"
        flows = flows or piped
        found.append((index, [piece], index + 2 if piped else None))
    if flows:
        return assemble(found, set())
    return tuple([pieces[0] for _, pieces, _ in found])
