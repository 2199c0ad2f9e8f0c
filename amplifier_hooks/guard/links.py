"""Links made earlier in the same command, followed: after ``ln -s ~/.claude cc``,
``echo x > cc/settings.json`` writes ``~/.claude/settings.json``.

The file system resolves a link that already exists (`paths`); one the command makes
itself does not exist yet when the guard judges it, so each later piece's paths are
rewritten through the links the pieces before it make.
"""

from __future__ import annotations

import os

from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.paths import locate
from amplifier_hooks.guard.table import read_program

__all__ = ["LINKERS", "follow"]

LINKERS = frozenset({"ln", "cp"})
"""Programs that make links (``cp -s``, ``cp -l`` too)."""
_REMOVERS = frozenset({"rm", "rmdir"})
"""Programs whose operands are gone for the pieces after them: ``rm -rf dist && ln -s
src dist`` makes the link ``dist`` itself, not ``dist/src`` in the folder on disk."""


def follow(pieces: tuple[Piece, ...], places: Places) -> tuple[Piece, ...]:
    """``pieces`` with every path under a link an earlier piece makes rewritten to where
    the link points."""
    links: dict[str, str] = {}
    gone: set[str] = set()
    out: list[Piece] = []
    last = len(pieces) - 1
    for index, piece in enumerate(pieces):
        if links:
            piece = _through(piece, links, places)
        out.append(piece)
        # (the links of the last piece are on no later piece's way)
        if piece.program in LINKERS and piece.tool == "bash" and index < last:
            links.update(_made(piece, places, gone))
        elif piece.program in _REMOVERS and piece.tool == "bash" and index < last:
            gone.update(_removed(piece, places))
    return tuple(out)


def _removed(piece: Piece, places: Places) -> list[str]:
    """The paths ``rm``/``rmdir`` is given (its operands; every word after ``--``)."""
    found: list[str] = []
    ended = False
    for word in piece.args:
        if not ended and word == "--":
            ended = True
        elif ended or not word.startswith("-"):
            try:
                found.append(locate(word, piece.cwd, places).path)
            except (OSError, ValueError):
                continue
    return found


def _made(piece: Piece, places: Places, gone: set[str]) -> dict[str, str]:
    """The links ``piece`` makes: {link path: the path it points to}, both absolute."""
    read = read_program(piece.program or "", piece.args)  # ln and cp: the table reads them
    if read is None:
        return {}
    flags = read.flags()
    if piece.program == "cp" and not ({"-s", "-l"} & flags):
        return {}
    symbolic = "-s" in flags
    relative = piece.program == "ln" and "-r" in flags  # (cp's -r is --recursive)
    into_values = read.values("into")
    folder = into_values[-1] if into_values else None
    operands = read.operands
    if not operands:
        return {}
    if folder is None and len(operands) >= 2:
        *targets, last = operands
        into = "-T" not in flags and (  # -T: the last operand is the link, even a folder
            len(targets) > 1 or last.endswith("/") or _is_folder(last, piece, places, gone)
        )
        folder = last if into else None
        names = [last] if not into else [os.path.join(last, _name(t)) for t in targets]
    else:
        targets = list(operands)
        base = folder or "."
        names = [os.path.join(base, _name(t)) for t in targets]
    found: dict[str, str] = {}
    for target, name in zip(targets, names, strict=False):
        link = locate(name, piece.cwd, places).path
        if symbolic and not target.startswith(("/", "~")) and not relative:
            pointed = os.path.normpath(os.path.join(os.path.dirname(link), target))
            found[link] = locate(pointed, ".", places).path
        else:
            found[link] = locate(target, piece.cwd, places).path
    return found


def _name(target: str) -> str:
    return target.rstrip("/").rsplit("/", 1)[-1] or target


def _is_folder(raw: str, piece: Piece, places: Places, gone: set[str]) -> bool:
    """Whether ``raw`` is a folder when ``piece`` runs: on disk, and not removed by an
    earlier piece (`_REMOVERS`)."""
    try:
        path = locate(raw, piece.cwd, places).path
    except (OSError, ValueError):
        return False
    if gone and any(path == g or path.startswith(g.rstrip("/") + "/") for g in gone):
        return False
    return os.path.isdir(path)


def _through(piece: Piece, links: dict[str, str], places: Places) -> Piece:
    def mapped(words: tuple[str, ...]) -> tuple[str, ...]:
        out: list[str] = []
        for word in words:
            head, equals, value = word.rpartition("=")  # `of=F`, `--output=F`
            if "://" in value or (not equals and word.startswith("-")) or not value:
                out.append(word)
                continue
            path = locate(value, piece.cwd, places).path
            for link, target in links.items():
                if path == link or path.startswith(link + "/"):
                    word = head + equals + target + path[len(link) :]
                    break
            out.append(word)
        return tuple(out)

    args, writes, reads = mapped(piece.args), mapped(piece.writes), mapped(piece.reads)
    if (args, writes, reads) == (piece.args, piece.writes, piece.reads):
        return piece
    return piece._replace(args=args, writes=writes, reads=reads)
