"""Project paths a lister prints, handed on as words rather than through ``xargs``:
``perl -pi -e CODE $(git ls-files 'src/*.java')`` and ``git diff --name-only | while read
-r f; do ruff format "$f"; done`` run on what ``git ls-files`` or ``git diff`` lists, as
``git ls-files | xargs ..`` does (`loops.bind_xargs`). Without this, the substitution and
the loop's variable are unknown paths, and everyday edits of project files are asked as
writes outside the workspace.

The word takes the folders the lister lists below (``src/*.java``, ``.``), marked as a
loop over a listing (`loops.LISTED`: never granted), exactly as a ``for`` loop over the
same substitution is read (`loops.bind_for_loops`).
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.inline import code_flags
from amplifier_hooks.guard.literals import only_plain_reads, sets_unseen
from amplifier_hooks.guard.loops import LISTED, fed_lister, inside_word
from amplifier_hooks.guard.model import Piece

__all__ = ["bind_listed_words"]

_CARRIED = frozenset({"cp", "mv", "ln", "install", "ditto", "rsync", "scp"})
"""Programs that take a listed path somewhere else: its own name there (``cp "$f" /etc/``
writes ``/etc/$f``) is what the copy rules read, so the word stays as written."""

Bound = dict[str, tuple[str, ...]]
"""``$NAME`` and ``${NAME}`` to the folders a lister lists below."""

_WHILE_READ = re.compile(
    r"\|\s*while\s+(?:IFS=\S*\s+)?read\s+(?:-r\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*;\s*do\b"
)
"""``| while read -r NAME; do``: a loop over the lines piped into it, one path a line."""


def bind_listed_words(text: str, pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with a whole-word ``$(LISTER)`` and a ``while read`` loop's variable
    fed by a lister given the folders it lists below (`loops.fed_lister`)."""
    out = list(pieces)
    for index, piece in enumerate(pieces):
        if piece.dynamic and piece.program is not None and piece.program not in _CARRIED:
            out[index] = _substituted(pieces, index) or piece
    found = _loop(text, pieces)
    if found is not None:
        start, bound, filtered = found
        for index in range(start, len(out)):
            out[index] = _bound(out[index], bound, filtered) or out[index]
    return tuple(out)


def _substituted(pieces: tuple[Piece, ...], index: int) -> Piece | None:
    """The piece with each ``$(LISTER)`` word (the whole word) replaced by what the lister
    lists below, where the one command feeding it is that substitution's."""
    piece = pieces[index]
    words = [a for a in piece.args if a.startswith("$(") and a.endswith(")")]
    if len(words) != 1:
        return None
    inner = words[0][2:-1].strip()
    others = (*pieces[:index], *pieces[index + 1 :])  # (a substitution's pieces follow)
    feeding = [p for p in others if p.pipes_to[:1] == (piece.program,)]
    if len(feeding) != 1 or not inner.endswith(feeding[0].text.strip()):
        return None  # (`cmd $(< f)` fed by a pipe: the pipe is not the substitution)
    listed = fed_lister((*others, piece), len(others))
    if listed is None:
        return None
    args: list[str] = []
    for arg in piece.args:
        args.extend(listed[0] if arg == words[0] else (arg,))
    dynamic = any("$" in a or "`" in a for a in args)
    return piece._replace(args=tuple(args), dynamic=dynamic, found=piece.found or listed[1],
                          doubt=piece.doubt or _doubt(piece, listed[0]))  # fmt: skip


def _loop(text: str, pieces: tuple[Piece, ...]) -> tuple[int, Bound, bool] | None:
    """(index of the first piece after the ``read``, ``$NAME`` bound to the folders,
    whether the lister filters what it lists) of one
    ``LISTER | while read -r NAME; do`` loop whose NAME nothing else sets; None otherwise."""
    if "while" not in text:
        return None
    loops = list(_WHILE_READ.finditer(text))
    if len(loops) != 1:
        return None
    rest = text[: loops[0].start()] + text[loops[0].end() :]  # (its own `read` sets NAME)
    if sets_unseen(rest.encode()):
        return None
    name = loops[0].group(1)
    reads = [n for n, p in enumerate(pieces) if p.program == "read"]
    if len(reads) != 1 or pieces[reads[0]].args not in (("-r", name), (name,)):
        return None
    start, end = (len(text[:at].encode()) for at in (loops[0].start(1), loops[0].end(1)))
    if not only_plain_reads(name, text.encode(), start, end):
        return None
    listed = fed_lister(pieces, reads[0])
    if listed is None:
        return None
    return reads[0] + 1, {f"${name}": listed[0], f"${{{name}}}": listed[0]}, listed[1]


def _bound(piece: Piece, bound: Bound, filtered: bool) -> Piece | None:
    """The piece with the loop's variable in each word that reads it, as its folders."""
    if piece.program in _CARRIED:
        return None
    args: list[str] = []
    for arg in piece.args:
        words = bound.get(arg) or (inside_word(arg, bound) if "$" in arg else None)
        args.extend((arg,) if words is None else words)
    if args == list(piece.args):
        return None
    dynamic = any("$" in a or "`" in a for a in args)
    roots = next(iter(bound.values()))
    return piece._replace(args=tuple(args), dynamic=dynamic, found=piece.found or filtered,
                          doubt=piece.doubt or _doubt(piece, roots))  # fmt: skip


_FOLDER_HEAD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*(?:/.*)?", re.S)
"""A root that starts with a folder named in full (``src/*.java``, ``src``): every path
listed below it starts with that name, never with ``-``."""


def _doubt(piece: Piece, roots: tuple[str, ...]) -> str | None:
    """`loops.LISTED` (never granted), but for an interpreter's inline code given listed
    paths that all start with a folder's name: it stops reading options at the first (perl
    and ruby do not read options after a file), and its code is never granted anyway
    (`inline.QUIET_CODE`), so the code is read (`codereaders.quietly_run`)."""
    if piece.program is None or code_flags(piece.program) is None:
        return LISTED
    return None if all(_FOLDER_HEAD.fullmatch(r) for r in roots) else LISTED
