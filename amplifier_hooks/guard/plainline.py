"""A command line of plain words, read without its syntax tree.

Most commands an agent runs are plain words joined by ``&&``, ``||``, ``;`` and ``|``
(``git status && pytest -q tests/``, ``git commit -m "fix: x"``): no escape, expansion,
brace, bracket, redirection, comment or keyword, and quotes only around text the shell
passes as written. The walk over tree-sitter's tree (`parser`) records each command of
such a line as its words (split at blanks, quotes taken off), in the folder ``cd`` before
it left, feeding the next command when a pipe follows it; then each is its piece as
written (`unwrap.literal_piece`) or is seen through (`unwrap.unwrap`), and the pipes say
where output flows (`flow.assemble`). This module reads the same commands from the text
alone and hands them on the same way; any line it does not cover (None) is parsed as
before. Only commands of unquoted words are seen through here, and the scripts they run
(``sh -c WORD``, ``eval WORDS``) are parsed as the walk parses them, on its budgets: each
is one plain command (a plain word holds no separator), so those budgets, of which the
line itself would take a few nodes in the walk, are never near. The tree and its walk
are most of a fresh decision's parse (`benchmarks.bench_guard`, the fresh row;
docs/performance.md). The properties in tests/guard/test_plainline.py check that both
readings are the same.
"""

from __future__ import annotations

import re
from typing import NamedTuple, cast

from amplifier_hooks.guard.commandpieces import Command, Reparse
from amplifier_hooks.guard.flow import assemble
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.recurring import Sightings
from amplifier_hooks.guard.unwrap import literal_piece, unwrap
from amplifier_hooks.guard.walk import CD, cd
from amplifier_hooks.guard.words import Word

__all__ = ["MAX_PLAIN_COMMANDS", "PlainLine", "forget_commands", "line_pieces", "read_plain"]

_HEAD = r"[\w./~][\w./~+-]*"
"""A program's word: no ``=`` (an assignment), and none of the signs the grammar reads
its own way after a name or at the start (``-``, ``%``, ``@``: ``- a=b``, ``c%x``)."""
_QUOTED = r"""'[^'{}\n]*'|"(?:[^"$`\\!{}\n]*[^"$`\\!{}\n \t][^"$`\\!{}\n]*)?["]"""
"""A quoted part of a word whose text is as written inside the quotes: single quotes, or
double quotes around no expansion, escape or history sign; with no brace (the walk reads
``'{'a,b'}'`` as a brace expansion) nor a line's end, and not blanks alone in double
quotes (the walk reads ``" "`` as empty)."""
_ARGUMENT = rf"(?:[\w./:@%+,~*?-]|{_QUOTED})(?:[\w./:@%+,=~*?-]++|{_QUOTED})*+"
"""An argument's word: a ``*`` or ``?`` pattern and a ``~`` are words as written (read
so either way); not begun by ``=`` (``==``). Its runs are possessive: nothing after a
word but blanks and separators, which no run takes, so giving back is never needed, and
none is tried (no input makes the match slow)."""
_UNQUOTED = r"[\w./:@%+,~*?-][\w./:@%+,=~*?-]*"
"""An argument's word with no quote: the same words, matched faster."""
_END = r"(?:[ \t]*(&&|\|\||;|\|)[ \t]*|\Z)"
_STEP = re.compile(rf"({_HEAD}(?:[ \t]+{_ARGUMENT})*){_END}", re.ASCII)
_STEP_UNQUOTED = re.compile(rf"({_HEAD}(?:[ \t]+{_UNQUOTED})*){_END}", re.ASCII)
"""A command, and the separator after it (None at the end of the line)."""
MAX_PLAIN_COMMANDS = 32
"""Longer lines take the walk, whose budgets say when a command is too large."""
_RESERVED = frozenset(
    {"if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until",
     "do", "done", "in", "function", "time", "coproc", "declare", "typeset", "export",
     "readonly", "local", "unset", "unsetenv", "test"}
)  # fmt: skip
"""Words the grammar may read as a keyword or a command of its own kind where a command
begins (elsewhere they are words): a line with a command so begun takes the walk."""


def _no_script(script: str, depth: int) -> tuple[Piece, ...]:
    raise AssertionError("a line of pieces as written runs no script")  # (`read_plain`)


class PlainLine(NamedTuple):
    """A plain line some of whose commands `unwrap` is to see through."""

    parts: list[str]
    """Its commands' texts and the separators between them, in turn."""
    pieces: list[Piece | None]
    """Each command's piece as written; None where `unwrap` is to see through it."""
    cwds: list[str | None]
    """The folder each command runs in, as far as ``cd`` before it says."""


COMMANDS_KEPT = 1024
"""Commands of plain lines whose piece is kept (all forgotten when full)."""
_KEPT: dict[tuple[str, str | None], Piece] = {}
_SIGHTED = Sightings(COMMANDS_KEPT)


def forget_commands() -> None:
    """Forget the kept commands' pieces (`parser.forget_parsed`)."""
    _KEPT.clear()
    _SIGHTED.forget()


def _literal(command: str, words: list[str], cwd: str | None, kept: bool) -> Piece | None:
    """`unwrap.literal_piece` of ``command`` run in ``cwd``, kept from its second sight on
    (`recurring`): a line is new at every call (``git status && pytest -q tests/test_7.py``)
    while its commands recur (``git status``), and the piece is a pure function of the
    command's text and folder (``bench_guard``'s fresh decision row)."""
    if not kept:
        return literal_piece(command, words, (), (), cwd)
    key = (command, cwd)
    piece = _KEPT.get(key)
    if piece is None:
        piece = literal_piece(command, words, (), (), cwd)
        if piece is not None and _SIGHTED.again(key):
            if len(_KEPT) >= COMMANDS_KEPT:
                _KEPT.clear()
            _KEPT[key] = piece
    return piece


def read_plain(text: str, kept: bool = True) -> tuple[Piece, ...] | PlainLine | None:
    """``text``'s pieces when it is plain commands joined by ``&&``, ``||``, ``;`` or
    ``|``, each its piece as written; the line (for `line_pieces`) when some command is
    to be seen through (a script it runs parsed); None for any other line. ``kept``: a
    recurring command's piece is kept (`_literal`; False: each is read afresh)."""
    quotes = "'" in text or '"' in text
    parts = _split(text, _STEP if quotes else _STEP_UNQUOTED)
    if parts is None:
        return None
    cwd: str | None = "."
    cwds: list[str | None] = []
    pieces: list[Piece | None] = []
    for command in parts[::2]:
        quoted = quotes and ("'" in command or '"' in command)
        words = _unquoted(command) if quoted else command.split()
        head = words[0]
        if head in _RESERVED or (
            head in ("builtin", "command") and words[1:2] in (["cd"], ["pushd"])
        ):
            return None  # (`builtin cd ..` moves as `cd ..` does: the full reading follows it)
        cwds.append(cwd)
        if head in CD:
            if quoted:
                return None
            pieces.append(None)
            cwd = cd(cwd, [Word(w) for w in words[1:]])
        else:
            piece = _literal(command, words, cwd, kept)
            if piece is None and quoted:
                return None  # (`line_pieces` sees through commands of unquoted words)
            pieces.append(piece)
    if "|" not in parts and None not in pieces:
        return cast("tuple[Piece, ...]", tuple(pieces))  # (no None among them)
    line = PlainLine(parts, pieces, cwds)
    return line if None in pieces else line_pieces(line)


_WORD = re.compile(r"""(?:[^ \t'"]|'[^']*'|"[^"]*")+""")
_PART = re.compile(r"""'([^']*)'|"([^"]*)"|([^'"]+)""")


def _unquoted(command: str) -> list[str]:
    """The words of a plain command with quotes, as the shell passes them."""
    return ["".join([a or b or c for a, b, c in _PART.findall(word)])
            for word in _WORD.findall(command)]  # fmt: skip


def _split(text: str, pattern: re.Pattern[str]) -> list[str] | None:
    """The commands of a plain line and the separators between them, in turn (None: not
    a plain line of at most `MAX_PLAIN_COMMANDS`)."""
    parts: list[str] = []
    at = 0
    while len(parts) < 2 * MAX_PLAIN_COMMANDS:
        step = pattern.match(text, at)
        if step is None:
            return None
        command, separator = step.groups()
        parts.append(command)
        at = step.end()
        if separator is None:
            return parts if at == len(text) else None
        parts.append(separator)
    return None


def line_pieces(line: PlainLine, reparse: Reparse = _no_script,
                functions: set[str] | None = None) -> tuple[Piece, ...]:  # fmt: skip
    """The pieces of ``line``, as the walk gives them (``reparse``: the scripts its
    commands run, parsed as the walk parses them; ``functions``: the functions those
    define, which the walk's assembly marks)."""
    parts = line.parts
    found: list[tuple[int, list[Piece], int | None]] = []
    flat: list[Piece] = []
    flows = False
    for index, piece in enumerate(line.pieces):
        if piece is None:
            text = parts[2 * index]
            given = tuple([Word(w) for w in text.split()])
            pieces = unwrap(Command(text, given, (), (), line.cwds[index], None), 0, reparse)
        else:
            pieces = [piece]
        piped = 2 * index + 1 < len(parts) and parts[2 * index + 1] == "|"
        flows = flows or piped
        found.append((index, pieces, index + 1 if piped else None))
        flat += pieces
    return assemble(found, set() if functions is None else functions) if flows else tuple(flat)
