"""Text a literal ``echo``/``printf`` (or ``cat`` of a heredoc) feeds a text tool that acts
on what it reads: ``ed``/``ex`` run its ``!cmd`` lines, ``m4`` its ``syscmd``/``esyscmd``
and reads what ``include``/``undivert`` name, ``envsubst`` (given no list of names) prints
every variable it names. What they do is judged as the commands it amounts to (``printenv
NAME``, ``cat -- PATH``), beside the pipeline itself.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable

from amplifier_hooks.guard.fedcode import echoed_text
from amplifier_hooks.guard.model import Piece

__all__ = ["FED_READERS", "fed_commands", "read_fed_text"]

FED_READERS = frozenset({"ed", "red", "ex", "m4", "gm4", "envsubst"})

Reparse = Callable[[str], tuple[Piece, ...]]

_ED_BANG = re.compile(r"^\s*(?:[0-9,.$;']*\s*[wreW]?\s*)?!(.+)$", re.M)
_M4_RUN = re.compile(r"\b(?:syscmd|esyscmd)\(\s*`?([^')]*)'?\s*\)")
_M4_READ = re.compile(r"\b(?:include|sinclude|undivert)\(\s*`?([^')]+)'?\s*\)")
_VARIABLE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")


def fed_commands(program: str, args: tuple[str, ...], text: str) -> tuple[str, ...]:
    """The commands ``program`` reading ``text`` amounts to (none: it only prints it)."""
    if program in ("ed", "red", "ex"):
        return tuple(m.strip() for m in _ED_BANG.findall(text) if m.strip())
    if program in ("m4", "gm4"):
        runs = [m.strip() for m in _M4_RUN.findall(text) if m.strip()]
        reads = [f"cat -- {shlex.quote(m.strip())}" for m in _M4_READ.findall(text)]
        return (*runs, *reads)
    if program == "envsubst" and not [a for a in args if not a.startswith("-")]:
        return tuple(dict.fromkeys(f"printenv {n}" for n in _VARIABLE.findall(text)))
    return ()


def read_fed_text(pieces: tuple[Piece, ...], reparse: Reparse) -> tuple[Piece, ...]:
    """``pieces``, and the pieces of what literal text fed to ``ed``, ``m4`` or
    ``envsubst`` makes them do, marked as run by that program."""
    out = list(pieces)
    for index, piece in enumerate(pieces[:-1]):
        receiver = pieces[index + 1]
        if receiver.program is None or piece.pipes_to[:1] != (receiver.program,):
            continue
        text = echoed_text(piece)
        if not text:
            continue
        for command in fed_commands(receiver.program, receiver.args, text):
            out.extend(p._replace(wrappers=(*receiver.wrappers, receiver.program, *p.wrappers))
                       for p in reparse(command))  # fmt: skip
    return tuple(out)
