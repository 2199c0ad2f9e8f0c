"""When the shell's expansion of a command may stand for the parse's reading of it.

``PY=python3; $PY -m pytest``, ``cmd=(npm run build); "${cmd[@]}"``, ``set -- src tests;
black --check "$@"``: the parse asks (a program or words the shell computes), though
`evaluate` works out every word. Where that evaluation is whole, the evaluated command is
judged as if it were written out, in place of the parse's piece (`evalpieces`).

Whole means: every command the line's command ran was emitted certain (no default the
variable may not take, no guess at what ``which`` finds), nothing in it could not be told,
and each evaluated piece names a plain program the guard reads. Besides, a computed
command that may lose work (a delete, a discard, an overwrite: `losses.losses_of`) keeps
the parse's ask: the guard judges such a command by what git says of its paths, and a
disguise (``R=rm; $R -rf src``) and a convenience are written alike, so a person reads
it; only a delete of tools' caches (``.mypy_cache``, ``__pycache__``: made again by the
tool, never work) is let through as written out. A shell given a known script on its
input (``echo "make lint" | sh``) is judged as that script, the same way.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from amplifier_hooks.guard.evalresult import Evaluation
from amplifier_hooks.guard.globplace import TOOL_CACHES
from amplifier_hooks.guard.losses import DELETERS, losses_of
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.parser import VARIABLE_HEAD
from amplifier_hooks.guard.unwrap import RUN_TIME

__all__ = ["CACHES", "computed", "resolved", "seen_scripts", "stands"]

CACHES = TOOL_CACHES | {"__pycache__"}
"""Folders a tool makes again at its next run: a computed delete of them loses nothing."""

_PLAIN_PROGRAM = re.compile(r"[\w.+/@-]+")
_PATTERN = re.compile(r"[*?\[]")


def resolved(found: Evaluation) -> frozenset[str]:
    """The texts of the line's commands whose every run the evaluation found whole: each
    command they emitted certain, nothing in them it could not tell."""
    # (a folder named by a pattern's text, `cd services/*/`, is where bash would expand it)
    uncertain = {e.origin for e in found.commands if not e.certain or _PATTERN.search(e.cwd)}
    return frozenset(
        e.origin
        for e in found.commands
        if e.origin is not None and e.origin not in found.partial and e.origin not in uncertain
    )


def computed(piece: Piece) -> bool:
    """Whether the parse's ``piece`` is asked only for a word the shell computes: its
    program a variable's value, a computed program or script, or computed arguments; no
    redirection, input or output run as code the evaluated words would not carry."""
    if piece.writes or piece.reads or piece.fed is not None or piece.feeds_code:
        return False
    if piece.opaque is None:
        return piece.dynamic
    return piece.opaque == VARIABLE_HEAD or piece.opaque.endswith(RUN_TIME)


def stands(piece: Piece, places: Places) -> bool:
    """Whether an evaluated ``piece`` may stand for the parse's: a plain program, read
    whole, that loses no work (but a tool's cache)."""
    program = piece.program
    if program is None or piece.opaque is not None or not _PLAIN_PROGRAM.fullmatch(program):
        return False
    losses = losses_of(piece, places, None)
    if not losses:
        return True
    if program not in DELETERS:
        return False
    workspace = str(places.known.workspace)
    return all(
        loss.rule == "rm-loses-work"
        and loss.what.startswith(workspace + "/")
        and ".." not in loss.what.split("/")
        and posixpath.basename(loss.what) in CACHES
        for loss in losses
    )


def seen_scripts(pieces: tuple[Piece, ...], found: Evaluation, whole: frozenset[str],
                 reparse: Callable[[str], tuple[Piece, ...]]) -> tuple[Piece, ...]:  # fmt: skip
    """``pieces`` with the printer of a known script a shell runs whole (``echo "make
    lint" | sh``) no longer taken as feeding it unseen code: the script is judged. Not
    where the script, read whole, runs code it does not show (``curl .. | sh`` in it)."""
    printers = {
        found.fed[origin]
        for origin, script in found.scripted.items()
        if origin in whole and origin in found.fed
        and not any(p.feeds_code or p.opaque is not None for p in reparse(script))
    }  # fmt: skip
    if not printers:
        return pieces
    return tuple(p._replace(feeds_code=False) if p.text in printers else p for p in pieces)
