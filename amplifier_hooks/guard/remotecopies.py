"""Files copied onto another machine where the copy changes what it serves or how it runs:
``scp -r dist/* deploy@prod:/var/www/app/`` (a host whose name says production: its users
get the files at once, with nothing to take them back) and ``scp nginx.conf
root@web1:/etc/nginx/nginx.conf`` (a system file of that machine).

Only the destination counts (the last operand, ``HOST:PATH``): a copy *from* production
(``scp prod:/var/log/app.log .``) or into a staging host's app folder is judged as it was.
A dry run (``rsync -n``) copies nothing.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.prodruns import PRODUCTION

__all__ = ["COPIERS", "TO_PRODUCTION", "TO_SYSTEM", "mark_remote_copies"]

TO_PRODUCTION = "@copy-to-production"
"""The mark of a copy onto a machine whose name says production."""
TO_SYSTEM = "@copy-to-remote-system"
"""The mark of a copy onto another machine's system files (``/etc``, ``/usr``, ...)."""
COPIERS = frozenset({"scp", "rsync"})
_REMOTE = re.compile(r"^(?:[\w.+-]+@)?(\[[^\]]+\]|[\w.-]+):(.*)$")
"""scp's and rsync's ``[USER@]HOST:PATH`` (not a URL, not a local path with a colon)."""
_SYSTEM = re.compile(r"^/(?:etc|usr|boot|lib|lib64|bin|sbin|var/spool/cron)(?:/|$)")
"""The system folders of a Unix machine."""
_DRY = re.compile(r"^(?:--dry-run|-[a-zA-Z]*n[a-zA-Z]*)$")


def mark_remote_copies(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each copy onto production or onto another machine's system files
    marked (the same tuple when none is)."""
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
    host, path = found.groups()
    if PRODUCTION.search(host) is not None:
        return TO_PRODUCTION
    return TO_SYSTEM if _SYSTEM.match(path) else None
