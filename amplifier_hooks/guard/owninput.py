"""A command whose output is redirected onto a file it reads: ``grep -v x f.ts > f.ts``.

The shell opens (and with ``>`` empties) the redirection's file before the command
starts, so the command reads an empty file and the file is left empty: the file's text is
lost whatever git knows of it, where a delete is lost only when git holds no copy. The
piece is marked `OWN_INPUT` for the pack's rule (asked, naming the way that works: write
to a new file and move it over, or the program's own in-place option). Appending
(``>>``) onto the file read is marked too: the command then reads what it writes, without
end for some (``cat f >> f``).
"""

from __future__ import annotations

from amplifier_hooks.guard.model import Piece

__all__ = ["OWN_INPUT", "mark_own_input"]

OWN_INPUT = "@redirect-over-input"
"""The piece's output is redirected onto a file it reads."""

_TEXT_ONLY = frozenset(
    {"echo", "printf", "true", "false", ":", "date", "seq", "yes", "expr", "touch", "tee",
     "sponge", "mkdir", "cp", "mv", "ln", "rm", "test", "[", "[["}
)  # fmt: skip
"""Programs whose operands are text or files they do not read before writing (``echo x >
x`` writes the word; ``cp a b > log`` names no file read as the output)."""


def mark_own_input(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each shell piece that redirects its output onto a file it reads
    marked `OWN_INPUT`; the same tuple when none does."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if not piece.writes or piece.tool != "bash" or piece.program in _TEXT_ONLY:
            continue
        written = {_plain(w) for w in piece.writes if w[:1] != "$" and not w.startswith("/dev/")}
        if not written:
            continue
        read = {_plain(a) for a in piece.args if a[:1] != "-"} | {_plain(r) for r in piece.reads}
        if written & read:
            out = out or list(pieces)
            out[index] = piece._replace(wrappers=(*piece.wrappers, OWN_INPUT))
    return pieces if out is None else tuple(out)


def _plain(path: str) -> str:
    """``./src/a.ts`` and ``src/a.ts`` are one file."""
    while path.startswith("./"):
        path = path[2:]
    return path
