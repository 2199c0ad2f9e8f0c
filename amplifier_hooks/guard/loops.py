"""Loops over project files, read as what they run on: ``for f in src/*.py; do sed -i
.. "$f"; done`` edits ``src/*.py``; ``find . -name '*.py' | xargs sed -i ..`` edits what
that ``find`` finds. Without this, the loop variable and xargs's input are unknown paths,
and everyday edits are asked.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.table import patterned
from amplifier_hooks.guard.table.finding import find_start

__all__ = ["bind_for_loops", "bind_xargs"]

_FOR = re.compile(r"\bfor\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\s+([^;\n]*?)\s*[;\n]\s*do\b")
MAX_VALUES = 64


def bind_for_loops(text: str, pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``$NAME`` of a ``for NAME in WORDS`` loop replaced by its words, where they are
    plain (no expansion or substitution the guard cannot read); ``${NAME%SUFFIX}`` by
    them with the suffix taken off (`_trimmed`)."""
    bound: dict[str, tuple[str, ...]] = {}
    for found in _FOR.finditer(text):
        values = tuple(v.strip("'\"") for v in found.group(2).split())
        if values and len(values) <= MAX_VALUES and not any("$" in v or "`" in v for v in values):
            bound[f"${found.group(1)}"] = values
            bound[f"${{{found.group(1)}}}"] = values
    if not bound:
        return pieces
    out: list[Piece] = []
    for piece in pieces:
        trimmed = False
        args: list[str] = []
        for arg in piece.args:
            words = bound.get(arg)
            if words is None and "%" in arg:
                words = _trimmed(arg, bound)
                trimmed = trimmed or words is not None
            args.extend((arg,) if words is None else words)
        if args == list(piece.args):
            out.append(piece)
            continue
        dynamic = any("$" in a or "`" in a for a in args)
        doubt = piece.doubt or (_TRIMMED if trimmed else None)
        out.append(piece._replace(args=tuple(args), dynamic=dynamic, doubt=doubt))
    return tuple(out)


_TRIM = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)%%?([^/$`*?\[\]{}\\]+)\}([^$`]*)")
_TRIMMED = "a loop's value with its end taken off (${f%.md}) is read as a pattern"


def _trimmed(arg: str, bound: dict[str, tuple[str, ...]]) -> tuple[str, ...] | None:
    """``${f%.markdown}.md`` of ``f`` bound to ``docs/*.markdown``: ``docs/*.md``. A
    suffix with no ``/`` or pattern in it takes off the end of the last name only, so
    each value stays in its folder (never granted: `_TRIMMED`)."""
    found = _TRIM.fullmatch(arg)
    if found is None:
        return None
    values = bound.get("$" + found.group(1))
    if values is None:
        return None
    suffix, rest = found.group(2), found.group(3)
    return tuple((v[: -len(suffix)] if v.endswith(suffix) else v) + rest for v in values)


_LISTERS = frozenset({"find", "fd", "fdfind", "git", "grep", "rg", "ls", "echo", "printf"})


def bind_xargs(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """A piece run by ``xargs`` whose input comes from ``find``, ``fd``, ``git ls-files``,
    ``grep -l`` or ``ls`` over named folders: given those folders, as paths below them
    (``found``, when the lister filters what it lists) instead of unknown input."""
    out: list[Piece] = []
    for index, piece in enumerate(pieces):
        source = _lister(pieces, index) if "xargs" in piece.wrappers else None
        if source is None:
            out.append(piece)
            continue
        roots, filtered = source
        wrappers = tuple(w for w in piece.wrappers if w != "xargs")
        out.append(piece._replace(args=(*piece.args, *roots), wrappers=wrappers, found=filtered,
                          dynamic=False))  # fmt: skip
    return tuple(out)


_FIND_TESTS = frozenset({"-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-newer",
                         "-mtime", "-mmin", "-size", "-empty", "-perm", "-wholename"})  # fmt: skip


def _lister(pieces: tuple[Piece, ...], index: int) -> tuple[tuple[str, ...], bool] | None:
    """(folders, whether filtered) of the lister whose output feeds ``pieces[index]``."""
    program = pieces[index].program
    feeding = [p for p in pieces[:index] if p.pipes_to[:1] == (program,)]
    if len(feeding) != 1 or feeding[0].program not in _LISTERS or feeding[0].dynamic:
        return None
    lister = feeding[0]
    args = lister.args
    if lister.program == "find":
        roots = find_start(args)[0]  # after -H, -L, -P, ...
        return roots or (".",), any(a in _FIND_TESTS for a in args)
    if lister.program in ("fd", "fdfind"):
        return (".",), bool([a for a in args if not a.startswith("-")])
    if lister.program == "git":
        if not args or args[0] != "ls-files":
            return None
        paths = tuple(a for a in args[1:] if not a.startswith("-"))
        return paths or (".",), bool(paths)
    if lister.program in ("grep", "rg"):  # as they read their options (`table.text`)
        _, read = patterned(lister.program, args)
        if "--files-with-matches" not in read.flags():
            return None
        return read.operands or (".",), True
    if lister.program in ("echo", "printf"):  # literal words: xargs is given exactly them
        words = [a for a in args if not a.startswith("-")]
        if lister.program == "printf" and words and "%" in words[0]:
            words = words[1:]  # the format: its `%s` prints the words that follow
        if any(c in w for w in words for c in "'\"\\"):
            return None  # xargs reads quotes and backslashes itself
        split = tuple(part for w in words for part in w.split())  # as xargs splits them
        return (split, False) if split else None
    operands = [a for a in args if not a.startswith("-")]  # ls
    return tuple(operands) or (".",), False
