"""A search's file filter as the files it reads: ``grep -rn KEY --include='.env*' .`` reads
every ``.env`` file below ``.``, as ``cat .env*`` would, though no argument names one.

The filter's glob (grep's ``--include``, rg's ``-g``/``--glob``/``--iglob`` and the globs
of ``--type-add``) is judged as a read of the files it selects under each folder searched:
a glob that names secrets (`secrets.secret_kind`: ``.env*``, ``*.pem``, ``id_*``) makes
the search a read of those secrets. A negated glob (rg's ``!*.env``) leaves them out.
"""

from __future__ import annotations

import posixpath

from amplifier_hooks.guard.braces import expand_braces
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.secrets import SecretKind, secret_kind
from amplifier_hooks.guard.table.text import SEARCHES, searched

__all__ = ["filtered_secrets"]


def filtered_secrets(piece: Piece) -> list[tuple[SecretKind, str]]:
    """(kind, path) of each secret by name the file filter of a search selects (the
    folder searched joined with the glob); empty when ``piece`` is no search or its filter
    selects no secret."""
    program = piece.program
    if program not in SEARCHES or not any(a[:1] == "-" for a in piece.args):
        return []
    _, read = searched(program, piece.args)
    globs = [g for v in read.values("selects") for g in _globs(v)]
    globs += [g for v in read.values("selects-type") for g in _type_globs(v)]
    if not globs:
        return []
    folders = read.operands or (".",)
    found: list[tuple[SecretKind, str]] = []
    for glob in globs:
        kind = secret_kind(glob)
        if kind is not None:
            found.extend((kind, posixpath.join(folder, glob)) for folder in folders)
    return found


def _globs(value: str) -> list[str]:
    """The globs one filter value selects: its brace lists spelled out (rg's globs take
    them), each glob's last part (a filter matches a name); a negated one selects none."""
    if value.startswith("!"):
        return []
    return [g.rstrip("/").rsplit("/", 1)[-1] for g in expand_braces(value) if g]


def _type_globs(value: str) -> list[str]:
    """rg ``--type-add 'NAME:GLOB,...'`` (or ``NAME:include:OTHER``): the globs it adds."""
    _, colon, globs = value.partition(":")
    if not colon or globs.startswith("include:"):
        return []
    return [g for part in globs.split(",") for g in _globs(part)]
