"""A dump of the whole environment, which holds secrets: ``env``, ``printenv`` and ``set``
with nothing to run or name, and ``export``, ``declare`` and ``typeset`` with no name
(``export -p``; ``declare -f`` prints functions), unless what reads the dump keeps only
lines a search pattern that names no secret finds (``env | grep PATH``; ``env | grep -i
key`` is still a dump, and a search for secrets besides: it prints exactly them), or only
the names (``env | cut -d= -f1``).
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.table import patterned
from amplifier_hooks.guard.table.options import read_options
from amplifier_hooks.guard.table.text import SEARCHES
from amplifier_hooks.guard.table.wrapping import WRAPPING
from amplifier_hooks.guard.valueless import names_only

__all__ = ["ENV_DUMP", "ENV_SECRETS", "mark_env_dumps"]

ENV_DUMP = "@env-dump"
ENV_SECRETS = "@env-secrets"
DUMPERS = frozenset({"env", "printenv", "set", "export", "declare", "typeset"})
_FUNCTIONS_ONLY = frozenset("fF")
"""``declare``'s and ``typeset``'s options that print functions, not variables."""
_SECRET = re.compile(r"key|token|secret|pass|auth|cred|cookie|session|private|aws|api", re.I)


def mark_env_dumps(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """Every piece that prints the whole environment where the model reads it, marked."""
    out: list[Piece] = []
    for index, piece in enumerate(pieces):
        if piece.program in DUMPERS and _dumps(piece):
            found = _filtered(pieces, index)
            if found is not False and found != _NAMES:
                marks = (ENV_DUMP, ENV_SECRETS) if found else (ENV_DUMP,)
                piece = piece._replace(wrappers=(*piece.wrappers, *marks))
            elif found == _NAMES:  # the names, and the lines of a multi-line value whole
                piece = piece._replace(doubt=piece.doubt or _NAMES)
        out.append(piece)
    return tuple(out)


def _dumps(piece: Piece) -> bool:
    if piece.program == "env":  # `env --help` prints no variable
        return not read_options(WRAPPING["env"], piece.args).has("info")
    if (
        piece.program == "set"
    ):  # `set -e`, `set -a`, `set -o pipefail` set options, printing nothing
        return not piece.args
    if piece.program in ("declare", "typeset") and any(
        a[:1] == "-" and not _FUNCTIONS_ONLY.isdisjoint(a[1:]) for a in piece.args
    ):
        return False
    if piece.program == "set":  # `set -a`, `set -euo pipefail` set options; `set` prints
        return not piece.args
    return not [a for a in piece.args if not a.startswith("-")]


_NAMES = "cut without -s prints the lines of a value spread over lines whole"


def _filtered(pieces: tuple[Piece, ...], index: int) -> bool | str | None:
    """False when the dump flows only into a search for lines that name no secret, or
    into ``cut -s -d= -f1`` (no dump), `_NAMES` into ``cut -d= -f1`` (no dump, never
    granted), True when into a search for secrets, None otherwise (a dump)."""
    piece = pieces[index]
    if piece.pipes_to[:1] == ("cut",):  # `env | cut -d= -f1`: the names, not the values
        cut = next((p for p in pieces[index + 1 :] if p.program == "cut"), None)
        names = names_only(cut) if cut is not None else False
        return None if names is False else (False if names else _NAMES)
    # (the search is where the dump flows first; what the search prints may flow on)
    if not piece.pipes_to or piece.pipes_to[0] not in SEARCHES:
        return None
    sink = next((p for p in pieces[index + 1 :] if p.program == piece.pipes_to[0]), None)
    if sink is None or sink.dynamic:
        return None
    patterns, read = patterned(sink.program or "grep", sink.args)
    if read.has("invert"):  # -v: every line but those
        return None
    if not patterns:
        return None
    return any(_SECRET.search(p) for p in patterns)
