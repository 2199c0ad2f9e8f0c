"""Files copied onto a machine whose name says production: ``scp -r dist/*
deploy@prod:/var/www/app/`` (its users get the files at once, with nothing to take them
back). A copy into another machine's system files is `remoteplaces`'.

Only the destination counts (the last operand, ``HOST:PATH``): a copy *from* production
(``scp prod:/var/log/app.log .``) or into a staging host's app folder is judged as it was.
A dry run (``rsync -n``) copies nothing.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.prodruns import PRODUCTION

__all__ = ["COPIERS", "TO_PRODUCTION", "mark_remote_copies"]

TO_PRODUCTION = "@copy-to-production"
"""The mark of a copy onto a machine whose name says production."""
COPIERS = frozenset({"scp", "rsync"})
_REMOTE = re.compile(r"^(?:[\w.+-]+@)?(\[[^\]]+\]|[\w.-]+):(.*)$")
"""scp's and rsync's ``[USER@]HOST:PATH`` (not a URL, not a local path with a colon)."""
_DRY = re.compile(r"^(?:--dry-run|-[a-zA-Z]*n[a-zA-Z]*)$")


def mark_remote_copies(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each copy onto production marked (the same tuple when none is)."""
    if not any([p.program in COPIERS for p in pieces]):
        return pieces
    out = list(pieces)
    for index, piece in enumerate(pieces):
        mark = _mark(piece) if piece.program in COPIERS else None
        if mark is not None:
            out[index] = piece._replace(wrappers=(*piece.wrappers, mark))
    return tuple(out)


def _mark(piece: Piece) -> str | None:
    operands = [a for a in piece.args if a[:1] != "-"]
    if len(operands) < 2 or "://" in operands[-1]:
        return None
    if piece.program == "rsync" and any([_DRY.match(a) for a in piece.args]):
        return None
    found = _REMOTE.match(operands[-1])
    if found is None or "/" in found.group(1):
        return None
    return TO_PRODUCTION if PRODUCTION.search(found.group(1)) is not None else None
