"""Files copied onto a machine whose name says production: ``scp -r dist/*
deploy@prod:/var/www/app/`` (its users get the files at once, with nothing to take them
back). A copy into another machine's system files is `remoteplaces`'.

Only the destination counts (the last operand, ``HOST:PATH``): a copy *from* production
(``scp prod:/var/log/app.log .``) or into a staging host's app folder is judged as it was.
A dry run (``rsync -n``) copies nothing.

Data sent to another machine is marked too (`DATA_SENT`): a source named for data (an
``exports/``, ``data/``, ``captures/`` or ``recordings/`` folder, a ``.csv``,
``.parquet``, ``.xlsx``, ``.sql`` dump, ``.pcap`` or ``.har`` file) copied to a host: the
records of people or customers it holds leave the machine, whoever receives them. A build
(``dist/``, a release tarball) or the code goes as before.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.prodruns import PRODUCTION

__all__ = ["COPIERS", "DATA_SENT", "TO_PRODUCTION", "mark_remote_copies"]

TO_PRODUCTION = "@copy-to-production"
"""The mark of a copy onto a machine whose name says production."""
DATA_SENT = "@data-to-host"
"""The mark of a copy of data (an export, a dump, a capture) onto another machine."""
COPIERS = frozenset({"scp", "rsync"})
_DATA = re.compile(
    r"(?:^|/)(?:exports?|data|dumps?|captures|recordings|backups?|productions|loot|hr)(?:/|$)"
    r"|\.(?:csv|tsv|parquet|xlsx?|jsonl|ndjson|sql|dump|sqlite3?|db3?|pcapng|pcap|har|"
    r"feather|avro|orc)(?:\.gz|\.zst|\.bz2|\.xz)?$",
    re.I,
)
"""A source that names data: its folder or its file's kind."""
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
    if PRODUCTION.search(found.group(1)) is not None:
        return TO_PRODUCTION
    sources = [a for a in operands[:-1] if _REMOTE.match(a) is None]
    return DATA_SENT if any(_DATA.search(source) for source in sources) else None
