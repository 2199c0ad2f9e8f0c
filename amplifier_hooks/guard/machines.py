"""Commands sent to machines that move, heat or power something: a CNC mill's or a 3D
printer's controller on a serial port, a lab instrument on its SCPI port.

What is written there acts in the room at once. A status query only reads: GRBL's ``?``
and ``$$``, a board shell's ``version``, SCPI's ``*IDN?`` or ``MEAS:VOLT?`` (a command
that ends in ``?``). Motion and spindle codes (``G0 X-400``, ``M3 S18000``), a GRBL
setting or unlock (``$21=0``, ``$X``, ``$RST=*``) written to a serial device, and a
SCPI command that is no query (``:OUTP CH1,ON``, ``*RST``) sent to an instrument (``nc
HOST 5025`` fed by ``echo``/``printf``, ``lxi scpi ... CMD``) are marked
`MACHINE_COMMAND` (asked).
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.fedcode import echoed_text
from amplifier_hooks.guard.model import Piece

__all__ = ["MACHINE_COMMAND", "WRITERS", "mark_machine_commands"]

MACHINE_COMMAND = "@machine-command"
"""The mark of a command sent to a machine that acts on it."""
WRITERS = frozenset({"echo", "printf", "lxi"})
"""The programs whose pieces may send such a command (a marks set test skips the rest)."""
_SERIAL = re.compile(r"^/dev/(?:tty(?:USB|ACM|S|AMA)\d+|serial/|cu\.|tty\.usb|rfcomm)")
_ACTS = re.compile(r"(?:^|[\s;])(?:[GM]\d+(?:\.\d+)?(?=[\sA-Z]|$)|\$(?:\d+=|X\b|H\b|RST|J=|SLP))")
"""G-code motion or spindle codes, GRBL settings and commands that act (not ``?``/``$$``)."""
_SCPI_PORTS = frozenset({"5025", "5024", "4000"})
_NETCATS = frozenset({"nc", "ncat", "netcat", "socat"})


def mark_machine_commands(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each that sends a machine a command that acts marked."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if _acts(pieces, index):
            out = out or list(pieces)
            out[index] = piece._replace(wrappers=(*piece.wrappers, MACHINE_COMMAND))
    return pieces if out is None else tuple(out)


def _acts(pieces: tuple[Piece, ...], index: int) -> bool:
    piece = pieces[index]
    if piece.program == "lxi":
        words = [a for a in piece.args if not a.startswith("-")]
        return words[:1] == ["scpi"] and bool(words[1:]) and not _queries(words[-1])
    if piece.program not in ("echo", "printf"):
        return False
    text = echoed_text(piece)
    if text is None:
        return False
    if any(_SERIAL.match(w) for w in piece.writes):
        return _ACTS.search(text) is not None
    after = pieces[index + 1] if index + 1 < len(pieces) else None
    if after is not None and after.program in _NETCATS and after.program in piece.pipes_to:
        if not _SCPI_PORTS.isdisjoint(a.rpartition(":")[2] for a in after.args):
            return not _queries(text)
        if after.program == "socat" and any(_SERIAL.match(a) for a in after.args):
            return _ACTS.search(text) is not None
    return False


def _queries(text: str) -> bool:
    """Whether every SCPI command of ``text`` (``;`` or lines apart) is a query."""
    commands = [c.strip() for c in re.split(r"[;\n]", text) if c.strip()]
    return bool(commands) and all(c.split()[0].endswith("?") for c in commands)
