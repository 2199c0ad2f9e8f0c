"""The virtual environment a command makes (``python3 -m venv .venv``, ``virtualenv v``,
``uv venv``): its ``bin/`` holds the Python that made it and the installer it set up,
not a script someone left in a shared temporary folder (``cd /tmp/b && python3 -m venv
.venv && .venv/bin/pip install pyperf`` runs pip, as a program a compiler made there
just before is the build's own: `earlier`)."""

from __future__ import annotations

import posixpath

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.table.python import is_python

__all__ = ["made_venv"]


def made_venv(piece: Piece) -> str | None:
    """The ``bin`` folder of the environment ``piece`` makes, as given (None: it makes
    none, or the folder is not known from its words)."""
    if piece.dynamic or piece.wrappers:
        return None
    args = piece.args
    if is_python(piece.program or "") and args[:2] == ("-m", "venv"):
        folders = args[2:]
    elif piece.program == "virtualenv":
        folders = args
    elif piece.program == "uv" and args[:1] == ("venv",):
        folders = args[1:] or (".venv",)
    else:
        return None
    operands = [a for a in folders if not a.startswith("-")]
    if len(operands) != 1 or len(operands) != len(folders) or operands[0].startswith("$"):
        return None  # (an option may take a value: `--prompt x`; read only the plain form)
    return posixpath.join(operands[0], "bin")
