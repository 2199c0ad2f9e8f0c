"""A shell script the same command writes whole and then runs, read as its commands.

``printf '#!/bin/sh\\nexec pytest -q "$@"\\n' > t && chmod +x t && ./t tests/unit``,
``cat > /tmp/check.sh <<'EOF' ... EOF; sh /tmp/check.sh``: the guard has the whole text
of the script (`fedcode.echoed_text`), so the run is judged as the script's commands,
given the run's arguments (``set -- ARGS`` first, the shell's expansion of them worked
out by `evalpieces`), in place of the run itself: a deny or ask in them stands, and
harmless they have no opinion (never granted: `WRITTEN_READ`).

Only where the text on disk is surely the text read: written once, whole (no ``>>`` in
the command), with nothing but ``chmod`` between the write and the run; no ``%`` or
``\\`` left in an ``echo``/``printf`` text (a format or an escape may write other bytes);
a POSIX shell's script (run by ``sh``/``bash``/..., or by its path with a shell's ``#!``
line or none); and a run with no wrapper, variable, redirection or option of its own.
A script that may lose work (a delete, a discard, an overwrite: `evalwhole.stands`) and
anything else stays marked as a written script (asked: `run-written-script`).
"""

from __future__ import annotations

import posixpath
import shlex
from collections.abc import Callable

from amplifier_hooks.guard.commandpieces import within
from amplifier_hooks.guard.evalpieces import with_evaluated
from amplifier_hooks.guard.evalwhole import stands
from amplifier_hooks.guard.model import Piece, Places

__all__ = ["POSIX_SHELLS", "WRITTEN_READ", "script_pieces"]

WRITTEN_READ = ("the script the same command writes, read whole and judged as its commands: "
                "read, not granted")  # fmt: skip
POSIX_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "ash"})

Reparse = Callable[[str], tuple[Piece, ...]]


def script_pieces(runner: Piece, path: str, text: str, writer: Piece, places: Places,
                  reparse: Reparse) -> tuple[Piece, ...] | None:  # fmt: skip
    """The pieces ``runner`` amounts to, running the script ``writer`` wrote at ``path``
    as ``text``; None when the guard cannot be sure of either (the caller then asks)."""
    if writer.program in ("echo", "printf") and ("%" in text or "\\" in text):
        return None
    if (runner.wrappers or runner.env or runner.writes or runner.reads or runner.doubt
            or runner.fed is not None or runner.dynamic or runner.opaque is not None):  # fmt: skip
        return None
    args = _arguments(runner, path, text)
    if args is None:
        return None
    script = f"set -- {' '.join(shlex.quote(a) for a in args)}\n{text}" if args else text
    pieces = with_evaluated(script, reparse(script), places, reparse)
    if not all(stands(p, places) for p in pieces):  # (a loss of work is read by a person)
        return None
    cwd = runner.cwd
    return tuple(
        p._replace(doubt=p.doubt or WRITTEN_READ, cwd=within(cwd, p.cwd))
        for p in pieces
        if p.program != "set" or p.args[:1] != ("--",)
    )


def _arguments(runner: Piece, path: str, text: str) -> list[str] | None:
    """The arguments the script is given (None: not a shell's script, or an option)."""
    program = runner.program or ""
    if program in POSIX_SHELLS:
        if not runner.args or runner.args[0].startswith("-"):
            return None
        return list(runner.args[1:])
    if posixpath.basename(path) != program:
        return None  # (an interpreter's, `python3 x.py`: `earlier` reads it)
    first = text.split("\n", 1)[0]
    if first.startswith("#!"):
        words = first[2:].split()
        if not words:
            return None
        shell = posixpath.basename(words[0])
        if shell == "env" and len(words) == 2:
            shell = words[1]
        elif len(words) > 1:
            return None  # (`#!/bin/bash -x`: options the guard does not read here)
        if shell not in POSIX_SHELLS:
            return None
    return list(runner.args)
