"""Files one command makes on an Android device and then deletes there: its own, no loss.

``adb shell screencap -p /sdcard/shot.png && adb pull /sdcard/shot.png captures/ && adb
shell rm /sdcard/shot.png`` takes a screenshot, copies it here and tidies up: the file the
``rm`` deletes is the one the same command made (``screencap``, ``screenrecord``, or
``adb push``'s copy), not the person's photo or download. Such an ``rm`` is marked
`OWN_DEVICE_FILE`, which ``device-storage-delete`` and ``device-file-delete`` leave; an
``rm`` that names any other file, a glob, or a folder with ``-r`` stays theirs.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable

from amplifier_hooks.guard.devicewords import adb_files, adb_verb_at
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.remotelosses import device_command

__all__ = ["OWN_DEVICE_FILE", "mark_own_device_files"]

Reparse = Callable[[str], tuple[Piece, ...]]

OWN_DEVICE_FILE = "@device-own-file"
"""The mark of ``adb shell rm F`` whose every F the same command made on the device."""
_MAKERS = frozenset({"screencap", "screenrecord"})
"""The device's programs that write the file their last operand names."""
_RM_FLAGS = frozenset({"-f"})
"""``rm``'s options that change nothing of what it deletes (``-r`` would take a folder)."""


def mark_own_device_files(pieces: tuple[Piece, ...], reparse: Reparse) -> tuple[Piece, ...]:
    """``pieces`` with each ``adb shell rm`` of files made earlier in it marked (the same
    tuple when none is)."""
    made: set[str] = set()
    out = list(pieces)
    for index, piece in enumerate(pieces):
        if piece.program != "adb":
            continue
        command = device_command(piece.args)
        if command is None:
            made.update(_pushed(piece.args))
            continue
        run = reparse(command)
        if len(run) == 1 and run[0].program in _MAKERS:
            operands = _operands(run[0].args)
            made.update(posixpath.normpath(o) for o in operands[-1:])
        elif made and run and all([_removes_only(p, made) for p in run]):
            out[index] = piece._replace(wrappers=(*piece.wrappers, OWN_DEVICE_FILE))
    return tuple(out) if out != list(pieces) else pieces


def _operands(args: tuple[str, ...]) -> list[str]:
    return [a for a in args if not a.startswith("-")]


def _removes_only(piece: Piece, made: set[str]) -> bool:
    """Whether ``piece`` is an ``rm`` of files in ``made`` only, by their plain names."""
    if piece.program != "rm" or piece.dynamic:
        return False
    flags = [a for a in piece.args if a.startswith("-")]
    operands = _operands(piece.args)
    plain = all([not set(o) & set("*?[{$`~") for o in operands])
    return (
        bool(operands)
        and plain
        and set(flags) <= _RM_FLAGS
        and all([posixpath.normpath(o) in made for o in operands])
    )


def _pushed(args: tuple[str, ...]) -> set[str]:
    """The device files ``adb push SRC... DEST`` makes (none for another command)."""
    copied = adb_files(args)
    if copied is None or args[adb_verb_at(args)] != "push" or not copied.read:
        return set()
    dest = _operands(args[adb_verb_at(args) + 1 :])[-1]
    if dest.endswith("/") or len(copied.read) > 1:
        return {posixpath.normpath(posixpath.join(dest, posixpath.basename(s.rstrip("/"))))
                for s in copied.read}  # fmt: skip
    return {posixpath.normpath(dest)}
