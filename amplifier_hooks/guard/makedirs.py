"""make's folder variables read from the folder ``-C DIR`` runs it in.

``make -C DIR`` changes into DIR before it reads anything, so a relative value given on
its command line (``O=..``, ``BUILD_DIR=../out``) names a folder from DIR, not from where
the command was typed: ``make -C kernel O=.. mrproper`` cleans the workspace itself,
``make -C a/b O=../../.. clean`` the folder above it. The pack's rules on a clean
target's folder variable (``clean-workspace-argument``, ``clean-outside-workspace-
argument``) read the value as written, so each such value is written here as the path
from the command's own folder (`from_folder`). (A value in the environment, ``O=.. make
-C sub clean``, stays as written: the rule on it denies.)
"""

from __future__ import annotations

import posixpath

from amplifier_hooks.guard.model import Piece

__all__ = ["MAKES", "from_folder"]

MAKES = frozenset({"make", "gmake"})
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def from_folder(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each make run in another folder given its relative folder values
    as paths from the command's folder (the same tuple when none is)."""
    out = list(pieces)
    changed = False
    for index, piece in enumerate(pieces):
        folder = _directory(piece.args) if piece.program in MAKES else None
        if folder is None:
            continue
        args = tuple(_moved(a, folder) for a in piece.args)
        if args != piece.args:
            out[index] = piece._replace(args=args)
            changed = True
    return tuple(out) if changed else pieces


def _directory(args: tuple[str, ...]) -> str | None:
    """The folder ``-C DIR`` (``-CDIR``, ``--directory=DIR``; each later one from the one
    before, as make reads them) moves to; None: none, or one with an expansion."""
    folder: str | None = None
    at = 0
    while at < len(args):
        arg = args[at]
        at += 1
        if arg in ("-C", "--directory") and at < len(args):
            given, at = args[at], at + 1
        elif arg.startswith("--directory="):
            given = arg.partition("=")[2]
        elif arg.startswith("-C") and len(arg) > 2:
            given = arg[2:]
        else:
            continue
        if "$" in given or "`" in given or not given:
            return None
        folder = given if folder is None or given.startswith(("/", "~")) else (
            posixpath.join(folder, given))  # fmt: skip
    return folder


def _moved(word: str, folder: str) -> str:
    """``NAME=VALUE`` with a VALUE relative by its dots (``..``, ``./out``) written from
    the command's folder."""
    name, equals, value = word.partition("=")
    if not equals or not name or not _NAME_CHARS.issuperset(name) or not value:
        return word
    if not value.startswith(".") or "$" in value or "`" in value:
        return word  # (`V=1`, `CC=gcc`: no folder; `out`: one inside DIR, as inside here)
    joined = posixpath.normpath(posixpath.join(folder, value))
    return f"{name}={joined}"
