"""One look at a parsed command's pieces for the four readers that rewrite them first.

`callpieces` hands a command's pieces to a Windows program's cmd.exe reading
(`winshells.windows_pieces`), the evaluation of what the shell computes
(`evalpieces.with_evaluated`), npm's command word spelled out (`npmwords.spell_npm`) and a
parameter's written default (`vardefaults.with_defaults`), in that order. Each screens the
pieces itself and returns them as they are when it has nothing to do, so when none has,
the pieces reach the next step unchanged. Most commands an agent runs give none of them
anything (``git status && pytest -q tests/``): one pass over the pieces that asks what the
four ask tells so, in place of four passes and their calls (`bench_guard`'s fresh row:
2.5% of its instructions). tests/guard/test_piece_screens.py checks it
against the four readers over every piece of the shipped corpora.
"""

from __future__ import annotations

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.winprograms import may_be_windows_program

__all__ = ["may_rewrite"]


def may_rewrite(pieces: tuple[Piece, ...]) -> bool:
    """Whether one of the four readers may change ``pieces`` (False: each returns them as
    they are). A piece they may change is one that may run a Windows program, has
    something computed (opaque, a dynamic word, a function, output run as code), runs npm,
    or has a word holding ``${`` (what a default is written in)."""
    for piece in pieces:
        program = piece.program
        if (
            piece.opaque is not None
            or piece.dynamic
            or piece.function
            or piece.feeds_code
            or program == "npm"
            or may_be_windows_program(program)
            or "${" in "\x00".join(piece.args)
            or (piece.writes and "${" in "\x00".join(piece.writes))
            or (piece.reads and "${" in "\x00".join(piece.reads))
        ):
            return True
    return False
