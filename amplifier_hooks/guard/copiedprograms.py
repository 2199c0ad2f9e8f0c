"""A program copied (or linked, moved) under another name, then run by that name:
``cp /bin/rm /tmp/ls && /tmp/ls -rf ~`` is ``rm -rf ~``.

`earlier` follows a file written earlier in a command to the piece that runs it; a copy's
text is the program it was copied from, so the run is judged as that program given the
run's arguments (its own piece stays, asked as a written script).
"""

from __future__ import annotations

import posixpath

from amplifier_hooks.guard.model import Piece

__all__ = ["copied_program"]

_COPIERS = frozenset({"cp", "ln", "mv", "install"})


def copied_program(piece: Piece) -> tuple[str, str] | None:
    """``(DEST, SOURCE)`` when ``piece`` copies, links or moves one file SOURCE to DEST
    (as given; DEST a folder: the file's name in it), None: not such a piece, or a
    computed or doubtful word."""
    if piece.program not in _COPIERS or piece.dynamic:
        return None
    words = [a for a in piece.args if a != "--"]
    if any(w in ("-t", "--target-directory") or w.startswith("--target") for w in words):
        return None  # (`cp -t DIR A B`: several sources, the folder first)
    operands = [w for w in words if not w.startswith("-")]
    if len(operands) != 2 or any("$" in w or "`" in w for w in operands):
        return None
    source, dest = operands
    if dest.endswith("/"):
        dest += posixpath.basename(source)
    return dest, source
