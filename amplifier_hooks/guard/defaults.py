"""A parameter expansion with a default can be that default: ``${KUBECONFIG:-~/.kube/config}``
is ``~/.kube/config`` whenever the variable is unset (``:-`` and ``-``; ``:=`` and ``=``
assign it too), and ``${V:+alt}`` is ``alt`` whenever it is set. The variable's own value
is only known at run time (the piece stays dynamic); each value written out is known, so
the piece is judged again with it: when any value the word can take reads a credential,
the read is stopped as that read would be.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece

__all__ = ["with_defaults"]

_DEFAULT = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*:?[-=+]((?:[^{}$`\"'\\]|\$HOME\b|\$\{HOME\})*)\}")
"""``${NAME:-WORD}``, ``${NAME-WORD}``, ``${NAME:=WORD}``, ``${NAME:+WORD}``, ...: a
WORD with nothing more to expand (no ``$`` but ``$HOME``, no quote or nested brace)."""
_HOME = re.compile(r"\$HOME\b|\$\{HOME\}")
_WHY = "a parameter's default is one of the values this word can take"


def with_defaults(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces``, each that has a word with a written default followed by a copy of it
    with the defaults in their place (never granted: the variable may be set)."""
    if not any(_has_default(p) for p in pieces):
        return pieces
    out: list[Piece] = []
    for piece in pieces:
        out.append(piece)
        if not _has_default(piece):
            continue
        args, writes, reads = _put(piece.args), _put(piece.writes), _put(piece.reads)
        left = any("$" in w or "`" in w for w in (*args, *writes, *reads))
        out.append(piece._replace(args=args, writes=writes, reads=reads, dynamic=left,
                                  doubt=piece.doubt or _WHY))  # fmt: skip
    return tuple(out)


def _has_default(piece: Piece) -> bool:
    return any("${" in w and _DEFAULT.search(w) for w in (*piece.args, *piece.writes, *piece.reads))


def _put(words: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(_DEFAULT.sub(lambda m: _HOME.sub("~", m.group(1)), w) if "${" in w else w
                 for w in words)  # fmt: skip
