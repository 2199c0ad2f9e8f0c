"""A simple command as the parser found it, and the pieces made of it: as run, under
wrappers, inside a script it runs, or unread (`unwrap` sees through its wrappers)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.words import Word

__all__ = ["Command", "Reparse", "doubted", "nested_in", "opaque", "piece_of", "within"]

Reparse = Callable[[str, int], tuple[Piece, ...]]
"""Parse a script found inside a command (``sh -c``, ``eval``) at a nesting depth."""


class Command(NamedTuple):
    """One simple command as the parser found it, before its wrappers are seen through."""

    text: str
    words: tuple[Word, ...]
    writes: tuple[str, ...] = ()
    reads: tuple[str, ...] = ()
    cwd: str | None = "."
    stdin_script: str | None = None
    """A heredoc or here-string given to the command (a script, if it is a shell)."""


def piece_of(cmd: Command, program: str, args: tuple[Word, ...], wrappers: tuple[str, ...],
             dynamic: bool = False, found: bool = False) -> Piece:  # fmt: skip
    """The piece ``cmd`` runs: ``program`` with ``args``, under ``wrappers``."""
    return Piece(cmd.text, program, tuple([w.text for w in args]), "bash", wrappers, cmd.writes,
                 cmd.reads, (), False, cmd.cwd, None, dynamic or any([w.dynamic for w in args]),
                 False, found)  # fmt: skip


def opaque(cmd: Command, why: str, wrappers: tuple[str, ...], program: str | None = None) -> Piece:
    """A piece the guard cannot read (``why``): never granted."""
    return Piece(text=cmd.text, program=program, wrappers=wrappers, cwd=cmd.cwd, opaque=why,
                 writes=cmd.writes, reads=cmd.reads, dynamic=True)  # fmt: skip


def nested_in(pieces: tuple[Piece, ...], cmd: Command, wrappers: tuple[str, ...]) -> list[Piece]:
    """The pieces of a script ``cmd`` runs, as run by it."""
    # Redirections around `sh -c '...'` apply to what the script runs, and it runs in the
    # folder the command is in (`cd .git && bash -c 'rm -rf objects'`).
    return [
        p._replace(wrappers=wrappers + p.wrappers, writes=p.writes + cmd.writes,
                   reads=p.reads + cmd.reads, cwd=within(cmd.cwd, p.cwd))
        for p in pieces
    ]  # fmt: skip


def within(outer: str | None, inner: str | None) -> str | None:
    """The folder a nested script's piece runs in: its own (relative to the script's start)
    below the folder the command that runs the script is in (None: unknown)."""
    if inner is None or outer is None:
        return None
    if inner.startswith("/") or outer == ".":
        return inner
    if inner == ".":
        return outer
    return f"{outer}/{inner[2:] if inner.startswith('./') else inner}"


def doubted(pieces: list[Piece], doubt: str | None) -> list[Piece]:
    """``pieces``, each told ``doubt`` unless it has one of its own."""
    if doubt is None:
        return pieces
    return [p if p.doubt is not None else p._replace(doubt=doubt) for p in pieces]
