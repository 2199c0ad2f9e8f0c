"""A secret's variable copied into another name, then used: ``X="$GITHUB_TOKEN"; echo "$X"``
and ``read x <<< "$GITHUB_TOKEN"; echo $x`` print the token as ``echo $GITHUB_TOKEN``
does.

`assigned` binds only values it can read (no expansion in them), and stands back where
``read`` may set a name; a copy of a secret is neither, yet what it holds is known: the
secret. Each later ``$X``/``${X}`` is read as the text copied (``$GITHUB_TOKEN``), so the
rules on a secret's variable (``secret-variable-print``, the senders') see it. The piece is
never granted either way (its doubt says why).
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.heredocruns import SECRET_VARIABLE
from amplifier_hooks.guard.model import Piece

__all__ = ["COPIED", "bind_secret_copies", "copies_secrets"]

COPIED = "a variable holds a copy of a secret's variable, set earlier in the command"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_USE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
_READ_VALUED = frozenset({"-p", "-d", "-n", "-N", "-t", "-u", "-a", "-i"})
"""``read``'s options that take a value (the prompt, the delimiter, a count...)."""


def copies_secrets(text: str, pieces: tuple[Piece, ...]) -> bool:
    """The screen: a command of more than one piece that assigns or reads a name, whose
    text names a secret's variable."""
    return (
        len(pieces) > 1
        and ("=" in text or "read" in text)
        and SECRET_VARIABLE.search(text) is not None
    )


def bind_secret_copies(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each use of a name that holds a copy of a secret's variable read as
    the text copied (`COPIED` its doubt)."""
    copied: dict[str, str] = {}
    out: list[Piece] = []
    changed = False
    for at, piece in enumerate(pieces):
        if copied and any("$" in a for a in piece.args):
            args = tuple(_USE.sub(lambda m: _copy(m, copied), a) for a in piece.args)
            if args != piece.args:
                piece = piece._replace(args=args, dynamic=True, doubt=piece.doubt or COPIED)
                changed = True
        _note(piece, pieces[at - 1] if at else None, copied)
        out.append(piece)
    return tuple(out) if changed else pieces


def _copy(found: re.Match[str], copied: dict[str, str]) -> str:
    return copied.get(found.group(1) or found.group(2), found.group(0))


def _note(piece: Piece, before: Piece | None, copied: dict[str, str]) -> None:
    """What ``piece`` copies into a name (``X=$T``; ``read x`` fed ``$T`` by the piece
    ``before``, `statements.fed_secret`'s echo), or the name it sets to something else."""
    if piece.program is None and piece.env and not piece.args:
        for word in piece.env:
            name, _, value = word.partition("=")
            if _NAME.fullmatch(name) is None:
                continue
            if SECRET_VARIABLE.search(value) is not None:
                copied[name] = value
            else:
                copied.pop(name, None)
        return
    if piece.program != "read":
        return
    names = _read_names(piece.args)
    fed = (
        before is not None
        and before.program == "echo"
        and "read" in before.pipes_to
        and any(SECRET_VARIABLE.search(a) for a in before.args)
    )
    for name in names:
        if fed and before is not None:
            copied[name] = " ".join(before.args).strip("\"'")
        else:
            copied.pop(name, None)


def _read_names(args: tuple[str, ...]) -> list[str]:
    """The names ``read`` sets (its words past its options and their values)."""
    names: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg.startswith("-") and not names:
            skip = arg in _READ_VALUED
        elif _NAME.fullmatch(arg):
            names.append(arg)
    return names
