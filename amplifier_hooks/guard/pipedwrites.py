"""The text a piece writes when a literal ``echo``/``printf`` feeds it through a pipe:
``echo 'rm -rf ~' | tee /tmp/x.sh``, ``echo cm0g... | base64 -d > /tmp/x.sh``.

`earlier` follows a file written earlier in a command to the piece that runs it; the text
of such a file is what ``tee`` (or ``cat``) passed on, or what ``base64 -d`` decoded, so
the script run is judged as that text. Only where the text is surely the bytes written:
no ``%`` or ``\\`` left in the fed text (a format or an escape may write other bytes), a
whole base64 text that decodes to UTF-8, and no file operand the piece reads instead of
its input.
"""

from __future__ import annotations

import base64
import binascii

from amplifier_hooks.guard.fedcode import echoed_text
from amplifier_hooks.guard.model import Piece

__all__ = ["piped_text"]

_PASSERS = frozenset({"tee", "cat"})
"""Programs that write their input as it is (tee to its files, cat to its redirection)."""
_DECODE = frozenset({"-d", "--decode", "-D"})


def piped_text(pieces: tuple[Piece, ...], index: int) -> str | None:
    """What ``pieces[index]`` writes of the literal text the piece before it pipes into
    it (None: no such text, or not surely those bytes)."""
    piece = pieces[index]
    if index == 0 or piece.program not in _PASSERS | {"base64"}:
        return None
    before = pieces[index - 1]
    if before.pipes_to[:1] != (piece.program,) or before.program not in ("echo", "printf"):
        return None
    text = echoed_text(before)
    if text is None or "%" in text or "\\" in text:
        return None
    if piece.program == "tee":
        return text
    operands = [a for a in piece.args if not a.startswith("-")]
    if operands:
        return None  # (`cat x.sh`, `base64 -d blob`: a file read, not the input)
    if piece.program == "cat":
        return text if not piece.args else None
    if _DECODE.isdisjoint(piece.args):
        return None
    try:
        return base64.b64decode("".join(text.split()), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
