"""A command's pieces with the commands the shell computes in it judged too
(`evaluate`): ``$(which rm) -rf ~`` is judged as ``rm -rf ~``.

Only where the parse met something computed (a piece it could not name, or a word only
known at run time, or a function it defines). An evaluated command is judged beside the
parse's pieces, never granted (`EVALUATED` is its doubt): it only lets deny and ask rules
see more. The parse's pieces stay as they are: a program named only through the shell
is still asked (`parser.VARIABLE_HEAD`: a person reads it), and what the evaluation
could not tell stays unknown.

Where the evaluation of one of the line's commands is whole (`evalwhole`), the parse's
piece of it, asked only because a word was computed, gives way to the evaluated pieces:
``PY=python3; $PY -m pytest`` is judged as ``python3 -m pytest`` (its deny or ask stand;
harmless, it is no opinion, since an evaluated piece is never granted).

A command sed's ``e`` runs that only the evaluation finds came from a sed script computed
at run time (``sed -n "$(printf '\\x31\\x65...')" f``, decoded): it is marked
`COMPUTED_SED_RUN` (asked), whatever it is, since the line hides it from a person.
"""

from __future__ import annotations

from collections.abc import Callable

from amplifier_hooks.guard.evalresult import render
from amplifier_hooks.guard.evaluate import evaluate
from amplifier_hooks.guard.evalwhole import computed, resolved, seen_scripts, stands
from amplifier_hooks.guard.model import Piece, Places

__all__ = ["COMPUTED_SED_RUN", "EVALUATED", "with_evaluated"]

EVALUATED = ("the command is judged as the guard's expansion of what the shell computes "
             "in it (variables, substitutions, eval): read, not granted")  # fmt: skip
COMPUTED_SED_RUN = "@computed-sed-run"
_SEDS = frozenset({"sed", "gsed"})


def with_evaluated(command: str, pieces: tuple[Piece, ...], places: Places,
                   reparse: Callable[[str], tuple[Piece, ...]]) -> tuple[Piece, ...]:  # fmt: skip
    """``pieces`` with the commands ``command`` computes added after them (those the
    parse already has, the same program and words in the same folder, once)."""
    for piece in pieces:  # a loop, not any(): this runs for every command (bench_guard)
        if piece.opaque is not None or piece.dynamic or piece.function or piece.feeds_code:
            break
    else:
        return pieces  # the everyday command: nothing computed, no output run as code
    known = places.known
    workspace = str(known.workspace)
    found = evaluate(command, workspace, str(known.home))
    if not found.commands:
        return pieces
    whole = resolved(found)
    reads: list[tuple[Piece, ...]] = []
    for emitted in found.commands:
        moved = emitted.cwd != workspace
        text = f"cd {render([(emitted.cwd, True)])} && {emitted.text}" if moved else emitted.text
        read = reparse(text)
        if moved and read[:1] and read[0].program == "cd":
            read = read[1:]
        reads.append(read)
        if emitted.origin in whole and not all(stands(p, places) for p in read):
            whole -= {emitted.origin}
    if whole:  # the parse's pieces the evaluation stands for give way to it
        pieces = tuple(p for p in pieces if p.text not in whole or not computed(p))
        pieces = seen_scripts(pieces, found, whole, reparse)
    seen = {(p.program, p.args, p.cwd) for p in pieces}
    added: list[Piece] = []
    for read in reads:
        for piece in read:
            if (piece.program, piece.args, piece.cwd) not in seen:
                seen.add((piece.program, piece.args, piece.cwd))
                added.append(_sed_run(piece._replace(doubt=piece.doubt or EVALUATED)))
    return (*pieces, *added) if added else pieces


def _sed_run(piece: Piece) -> Piece:
    """``piece``, marked when sed runs it (its ``e``): found only by evaluating, its script
    was computed."""
    if _SEDS.isdisjoint(piece.wrappers):
        return piece
    return piece._replace(wrappers=(*piece.wrappers, COMPUTED_SED_RUN))
