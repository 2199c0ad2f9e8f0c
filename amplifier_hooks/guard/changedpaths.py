"""`Changed`: the words of the paths a piece changes (their content, or them as a whole),
and what each program's reader of it needs: its options as the table reads them, its
operands with braces expanded, where a source lands in a folder, whether a path is one.
The readers are `places`' (and, by family, `copychanges`, `archivechanges`, `gitchanges`).
"""

from __future__ import annotations

import os
from typing import NamedTuple

from amplifier_hooks.guard.braces import expand_braces
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.paths import locate
from amplifier_hooks.guard.table import Read, read_program

__all__ = ["NOTHING", "Changed", "into_folder", "is_folder", "last_of", "operand_words",
           "table_read"]  # fmt: skip


class Changed(NamedTuple):
    """The words of the paths a piece changes: their content, or them as a whole."""

    content: tuple[str, ...] = ()
    whole: tuple[str, ...] = ()


NOTHING = Changed()


def table_read(program: str, args: tuple[str, ...]) -> Read:
    """``args`` as ``program`` (one the table reads the options of) reads them."""
    read = read_program(program, args)
    if read is None:
        raise ValueError(f"{program}: not a program the table reads the options of")
    return read


def operand_words(operands: tuple[str, ...]) -> tuple[str, ...]:
    """The operands as the shell hands them over: ``{a,b}`` is two paths."""
    return tuple(w for o in operands for w in (expand_braces(o) if "{" in o else (o,)))


def last_of(values: tuple[str, ...], default: str | None = None) -> str | None:
    """The last of an option's values: given twice, the last one counts."""
    return values[-1] if values else default


def into_folder(folder: str, source: str) -> str:
    """Where ``source`` lands when copied or moved into ``folder``."""
    name = source.rstrip("/").rsplit("/", 1)[-1]
    return folder.rstrip("/") + "/" + name if name not in ("", ".", "..") else folder


def is_folder(raw: str, piece: Piece, places: Places) -> bool:
    """Whether the destination ``raw`` is a folder (so what lands there is below it): as
    written, else as the file system has it now."""
    if raw.endswith(("/", "/.", "/..")) or raw in (".", ".."):
        return True
    try:
        return os.path.isdir(locate(raw, piece.cwd, places).path)
    except (OSError, ValueError):
        return False
