"""What an earlier piece of the same command sets that changes what a later one means:
an alias (``alias ll='ls -la'; ll src`` runs ``ls -la src``; ``hash -p /bin/rm ls`` makes
``ls`` run ``/bin/rm`` the same way) and ``CDPATH`` (``cd NAME``
may go elsewhere). Pieces so changed are judged as what they become or marked
(`ALIAS`, `CDPATH`: wrapper names starting with ``@``, which no program has), as
`earlier` marks code that arrives another way.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable

from amplifier_hooks.guard.model import Piece

__all__ = ["ALIAS", "CDPATH", "mark_aliases", "mark_cdpath"]

ALIAS = "@alias"
CDPATH = "@cdpath"

Reparse = Callable[[str], tuple[Piece, ...]]


_ALIAS = re.compile(r"^([^=\s/$`]+)=(.*)$", re.DOTALL)


def mark_aliases(pieces: tuple[Piece, ...], reparse: Reparse) -> tuple[Piece, ...]:
    """Pieces whose program is an alias an earlier piece defines: the alias's value
    is judged as the command it becomes (``alias ll='ls -la'; ll src`` is ``ls -la src``),
    beside the piece itself (its redirections are judged there; it is never granted).
    When the value is not known (made at run time, or an alias of an unknown one), or
    ends in a blank (bash then expands the next word too), the piece is marked."""
    aliases: dict[str, str | None] = {}
    out: list[Piece] = []
    for piece in pieces:
        if piece.program in aliases:
            value = _expanded(piece.program or "", aliases)
            if value is None or value[-1:].isspace():
                out.append(piece._replace(wrappers=(*piece.wrappers, ALIAS)))
            else:
                out.append(piece._replace(doubt=piece.doubt or _ALIASED))
            if value:
                line = " ".join((value, shlex.join(piece.args))) if piece.args else value
                out.extend(reparse(line))
            continue
        out.append(piece)
        if piece.program == "alias":
            for arg in piece.args:
                found = _ALIAS.match(arg)
                if found is not None:
                    aliases[found.group(1)] = None if piece.dynamic else found.group(2)
        elif piece.program == "hash":
            aliases.update(_hashed(piece))
    return tuple(out)


def _hashed(piece: Piece) -> dict[str, str | None]:
    """The names ``hash -p FILE NAME...`` binds to FILE (the program each then runs)."""
    args = piece.args
    if "-p" not in args[:-2]:
        return {}
    at = args.index("-p")
    target = None if piece.dynamic else shlex.quote(args[at + 1])
    return {name: target for name in args[at + 2 :] if not name.startswith("-")}


_ALIASED = "an alias: the command it becomes is judged"


def _expanded(name: str, aliases: dict[str, str | None]) -> str | None:
    """The text alias ``name`` becomes, its first word expanded again while that is an
    alias too, as bash does (None: a value not known, or a loop of aliases too deep)."""
    value = aliases.get(name)
    seen = {name}
    while value is not None:
        first, _, rest = value.strip().partition(" ")
        if first not in aliases or first in seen:
            return value
        if len(seen) > 8:
            return None
        seen.add(first)
        inner = aliases[first]
        value = None if inner is None else f"{inner} {rest}".rstrip() if rest else inner
    return None


def mark_cdpath(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """With ``CDPATH`` set in the command, ``cd NAME`` may go to a folder the guard cannot
    tell: each ``cd`` and ``pushd`` is marked, and where later pieces run is unknown.
    Where the command sets CDPATH to literal folders and cds once, to a name CDPATH is
    searched for, the folders it may go to are known (each CDPATH folder's NAME, then
    ``./NAME``): the pieces after it are judged in each too (`_in_each`), and the worst
    verdict stands (``CDPATH=~; cd .codex && rm -f config.toml`` deletes a host's
    settings wherever it lands)."""
    out: list[Piece] = []
    moved = False
    for piece in pieces:
        if piece.program in ("cd", "pushd"):
            moved = True
            out.append(piece._replace(wrappers=(*piece.wrappers, CDPATH), cwd=None))
        else:
            out.append(piece._replace(cwd=None) if moved else piece)
    return (*out, *_in_each(pieces))


_CD_OPTIONS = frozenset({"-L", "-P", "-e", "-@", "--"})


def _in_each(pieces: tuple[Piece, ...]) -> list[Piece]:
    """The pieces after the one ``cd NAME``, once in each folder it may go to; none where
    CDPATH's value or the cd's folder is not known."""
    moves = [n for n, p in enumerate(pieces) if p.program in ("cd", "pushd")]
    if len(moves) != 1 or any(p.program == "unset" for p in pieces):
        return []
    at = moves[0]
    cd = pieces[at]
    names = [a for a in cd.args if a not in _CD_OPTIONS]
    entries = _cdpath(pieces[: at + 1])
    if entries is None or cd.dynamic or cd.cwd is None or len(names) != 1:
        return []
    name = names[0]
    later = pieces[at + 1 :]
    landed = later[0].cwd if later else None
    if landed is None or name == "-" or any(p.cwd != landed for p in later):
        return []  # (a subshell, a second folder: not one place to swap)
    if landed == cd.cwd:  # `CDPATH=/ cd etc`: the cd given CDPATH moves all the same
        landed = name if name.startswith(("/", "~")) else f"{cd.cwd.rstrip('/')}/{name}"
    folders = {landed}  # bash's last try, and the only one for `/x`, `./x`, `../x`
    if not name.startswith("/") and name.split("/", 1)[0] not in (".", ".."):
        folders.update(f"{e.rstrip('/')}/{name}" for e in entries if e not in ("", "."))
    return [p._replace(cwd=folder) for folder in sorted(folders) for p in later]


def _cdpath(pieces: tuple[Piece, ...]) -> list[str] | None:
    """The folders of the one literal value the pieces give CDPATH (None: none, several,
    or one the shell computes)."""
    values = {v[len("CDPATH=") :] for p in pieces for v in p.env if v.startswith("CDPATH=")}
    if len(values) != 1:
        return None
    value = values.pop()
    if any(c in value for c in "$`\\*?[{"):
        return None
    return value.split(":")
