"""Readers that print none of the values they read: a count (``wc -l .env``), nothing or
a count or file names for a search by a variable's name (``grep -q '^DATABASE_URL='
.env``, ``grep -c``, ``grep -l``), or only the names of ``NAME=value`` lines (``cut -d=
-f1 .env``, ``grep -o '^[A-Z_]*' .env``, ``env | cut -d= -f1``).

Checking that a ``.env`` has a key, or listing the keys it has, is everyday work that
shows no secret; reading one of its values is not. Only these exact shapes count: any
other option, field or pattern, and the reader shows text (`secrets.shows_text`). A
search for anything but a name is an oracle (``grep -q '^KEY=a'``, then ``=b``, ...), so
it is not one of them.

``git log``/``rev-list`` of a path without a patch lists which commits touched it, and
``git rm --cached`` only untracks it: neither shows its text.

Names are printed with the lines of a value spread over lines (a quoted private key):
``cut`` prints a line with no ``=`` whole unless ``-s`` is given, and ``grep -o`` prints
what such a line begins with. So those are marked `NAMES_READ`: not asked, never granted.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.table.files import CUT
from amplifier_hooks.guard.table.options import Given, read_options
from amplifier_hooks.guard.table.text import SEARCHES, searched

__all__ = ["COUNTED", "GIT_WORDS", "NAMES_READ", "READERS", "SECTIONS_READ", "VALUES_UNREAD",
           "mark_valueless", "names_only"]  # fmt: skip

VALUES_UNREAD = "@values-unread"
"""A reader that prints no text of what it reads (counts, file names, nothing)."""
COUNTED = "@counted"
"""``wc`` given count options only: it prints numbers (and the names it was given), so
no text of any file, a key's included, where a search's yes or no by a name would be an
oracle on a key's text; beside `VALUES_UNREAD`."""
NAMES_READ = "@names-read"
"""A reader that prints the names of ``NAME=value`` lines, and the lines of a value
spread over lines."""
SECTIONS_READ = "@sections-read"
"""``grep`` printing only the lines that begin with ``[``: an INI file's section headers
(``grep '^\\[profile' ~/.aws/config``: the profiles' names, no key of any of them)."""
_NAMES_WHY = "a multi-line value's lines are printed whole, or their beginnings"

_COUNTS = frozenset("cmlwL")
"""wc's short options: each prints a number."""
_LONG_COUNTS = frozenset({"--lines", "--words", "--chars", "--bytes", "--max-line-length"})
_NAME_PATTERN = re.compile(r"\^?[A-Za-z_][A-Za-z0-9_]*=?")
"""A search for one variable by its name: ``^DATABASE_URL=``, ``API_KEY``."""
_NAMES_PATTERN = re.compile(r"\^(?:\[(?:A-Z|a-z|0-9|_)+\][*+]?)+")
"""``grep -o``'s pattern for a line's leading name: ``^[A-Z_]*``, ``^[A-Za-z0-9_]+``."""
_SECTION_PATTERN = re.compile(r"\^\\\[[^|\\\n]*")
"""A pattern that matches only at a line's first ``[`` (``^\\[profile``, ``^\\[.*\\]``): no
alternation (``|``, ``\\|``) and no other escape, so it cannot match another line."""
_LINE_GREPS = frozenset({"grep", "egrep"})
_SECTION_OPTIONS = frozenset({"-E", "-G", "-i", "-w", "-x", "-n", "-H", "-h", "-o", "-s", "-m",
                              "--color", "--colour", "-c", "-l", "-L", "-q", "-e"})  # fmt: skip
"""grep's options that keep its output to the lines its pattern matches, each whole (no
context lines, no inverted match, no ``-z``: its "lines" are the whole file, no pattern
file, no recursion)."""
READERS = frozenset({"wc", "cut", "git", *SEARCHES})


def mark_valueless(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each reader that prints no value marked (`VALUES_UNREAD`), and each
    that prints names marked `NAMES_READ` (and never granted)."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if piece.program not in READERS or piece.dynamic or piece.tool != "bash":
            continue
        mark = _valueless(piece)
        if mark is not None:
            out = out or list(pieces)
            doubt = piece.doubt or (_NAMES_WHY if mark == NAMES_READ else None)
            marks = (mark, COUNTED) if piece.program == "wc" else (mark,)
            out[index] = piece._replace(wrappers=(*piece.wrappers, *marks), doubt=doubt)
    return pieces if out is None else tuple(out)


def _valueless(piece: Piece) -> str | None:
    program = piece.program or ""
    if program == "git":
        return VALUES_UNREAD if _history_names(piece.args) else None
    if program == "wc":
        counts = all(a[:1] != "-" or _counts(a) for a in piece.args)
        return VALUES_UNREAD if counts else None
    if program == "cut":
        names = names_only(piece)
        return None if names is False else (VALUES_UNREAD if names else NAMES_READ)
    patterns, read = searched(program, piece.args)
    if read.doubt is not None or read.has("invert") or not patterns:
        return None
    if read.has("silent") and all(_NAME_PATTERN.fullmatch(p) for p in patterns):
        return VALUES_UNREAD
    if program in _LINE_GREPS and _sections_only(patterns, read.given):
        return SECTIONS_READ
    only = any(g.opt.names[0] == "-o" for g in read.given)
    if only and all(_NAMES_PATTERN.fullmatch(p) for p in patterns):
        return NAMES_READ
    return None


_HISTORY = frozenset({"log", "rev-list", "shortlog"})
GIT_WORDS = _HISTORY | {"rm"}
"""The git subcommands `mark_valueless` reads (`_history_names`): a git call naming none
gets no mark here."""
_UNTRACK = frozenset({"--cached", "-q", "--quiet", "-r"})
_SHOWS_TEXT = re.compile(
    r"^-(?:[puLSGOcm]|U\d*|-(?:patch|unified|word-diff|color-words|pickaxe|ext-diff|textconv"
    r"|output|cc|diff-merges|find-object|line-prefix|function-context|binary|full-diff"
    r"|raw|exec|upload-pack|git-dir|work-tree))"
)
"""``git log``'s options that show a file's text (a patch, a line range, a search of the
text: an oracle) or reach another repository or program; any other lists commits."""


def _history_names(args: tuple[str, ...]) -> bool:
    """``git log``/``rev-list``/``shortlog`` of paths with no option that shows their
    text (``git log --oneline -- .env``: which commits touched it), and ``git rm
    --cached``: each says what a path's history or index holds, not what it says."""
    words = [a for a in args if a != "--"]
    if not words or words[0].startswith("-"):
        return False  # (global options, `-C DIR`, `-c KEY=VALUE`: read elsewhere)
    options = [w for w in words[1:] if w.startswith("-")]
    if words[0] == "rm":
        return "--cached" in options and all(o in _UNTRACK for o in options)
    return words[0] in _HISTORY and not any(_SHOWS_TEXT.match(o) for o in options)


def _sections_only(patterns: tuple[str, ...], given: tuple[Given, ...]) -> bool:
    """Whether a grep prints only lines that begin with ``[`` (`_SECTION_PATTERN`)."""
    return all(g.opt.names[0] in _SECTION_OPTIONS for g in given) and all(
        _SECTION_PATTERN.fullmatch(p) for p in patterns
    )


def _counts(flag: str) -> bool:
    """``-l``, ``-lw``, ``--lines``: options that print counts only."""
    if flag.startswith("--"):
        return flag in _LONG_COUNTS
    return _COUNTS.issuperset(flag[1:])


def names_only(piece: Piece) -> bool | None:
    """Whether ``piece`` is ``cut`` keeping only what comes before the first ``=`` of each
    line (``cut -d= -f1``, ``cut -d '=' -f 1``, ``--delimiter==`` ``--fields=1``): True
    with ``-s`` (lines with no ``=`` left out), None without it (they are printed whole),
    False for any other ``cut`` or program."""
    if piece.program != "cut" or piece.dynamic:
        return False
    read = read_options(CUT, piece.args)
    if read.doubt is not None:
        return False
    delimiter = fields = None
    delimited = False
    for given in read.given:
        name = given.opt.names[0]
        if name == "-d":
            delimiter = given.value
        elif name == "-f":
            fields = given.value
        elif name == "-s":
            delimited = True
        elif name != "-z":
            return False  # -b, -c, --complement, ...: other parts of the line
    if delimiter != "=" or fields != "1":
        return False
    return True if delimited else None
