"""A ``chmod`` that only takes permissions away from group and others.

``chmod 600 ~/.ssh/id_ed25519`` is what ssh asks for before it uses a key: the owner
keeps reading it, and group and others lose access. Nothing a person could lose changes:
the key's text is neither read nor written, and the owner can still read it (and change
its mode back). Such a piece is marked `MODE_TIGHTENED`, and the pack's rule against
changing a credential (`credential-change`) leaves it alone; every other rule (the
guard's own places, the files that run code) judges it as before.

Only these exact shapes count: a mode of ``400``, ``500``, ``600`` or ``700`` (a leading
``0`` allowed, no special bits), or symbolic clauses that only remove from or empty group
and others (``go-rwx``, ``g-w,o-r``, ``og=``), with no option but chmod's quiet and
verbose ones. ``chmod 644`` or ``777`` (opening a key to others), ``u-r``, ``a-w``,
``+x``, ``--reference`` and ``-R`` are not tightening.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece

__all__ = ["MODE_SETUID", "MODE_TIGHTENED", "MODE_TIGHTENED_NO_EXEC", "mark_tightened",
           "sets_setuid", "tightens"]  # fmt: skip

MODE_TIGHTENED = "@mode-tightened"
"""A chmod that only removes group's and others' permissions, the owner keeping read."""

MODE_TIGHTENED_NO_EXEC = "@mode-tightened-no-exec"
"""A tightening chmod that gives the owner no execute bit either (``600``, ``400``,
``go-rwx``): it cannot make a file on the PATH or a login script a program, so the rule
on the files that run code or grant access (`persistence-files`) leaves it alone, where
``700`` (which may make a planted ``~/.local/bin/x`` runnable) stays judged."""

_NO_EXEC = re.compile(r"0?[46]00")

MODE_SETUID = "@mode-setuid"
"""A chmod whose mode sets the setuid bit (``4755``, ``u+s``, ``+s``, ``a=rwxs``): the
file then runs as its owner whoever starts it (`setuid-set`)."""
_OCTAL_MODE = re.compile(r"[0-7]{1,5}")
_CLAUSE = re.compile(r"([ugoa]*)((?:[-+=][rwxXstugo]*)+)")
_OPERATION = re.compile(r"([-+=])([rwxXstugo]*)")

_OCTAL = re.compile(r"0?[4-7]00")
_SYMBOLIC = re.compile(r"[go]+(?:-[rwxXst]+|=)")
_QUIET = frozenset({"-v", "-c", "-f", "--verbose", "--changes", "--silent", "--quiet"})


def tightens(args: tuple[str, ...]) -> bool:
    """Whether ``chmod args`` only tightens: options all quiet or verbose, then a
    tightening mode, then at least one file (no word after ``--`` taken for an option)."""
    words = [a for a in args if a not in _QUIET]
    if words[:1] == ["--"]:
        words = words[1:]
    if len(words) < 2 or any(w.startswith("-") for w in words[1:]):
        return False  # `chmod 600 -R dir`: GNU reads options anywhere
    mode = words[0]
    if _OCTAL.fullmatch(mode):
        return True
    return all(_SYMBOLIC.fullmatch(clause) for clause in mode.split(","))


def mark_tightened(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each tightening ``chmod`` marked `MODE_TIGHTENED` (and
    `MODE_TIGHTENED_NO_EXEC` when it gives the owner no execute bit), and each one that
    sets the setuid bit `MODE_SETUID` (its files may be variables: the mode is read)."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if piece.program != "chmod" or piece.tool != "bash":
            continue
        marks: tuple[str, ...] = ()
        if sets_setuid(piece.args):
            marks = (MODE_SETUID,)
        elif not piece.dynamic and tightens(piece.args):
            marks = (MODE_TIGHTENED,)
            if _no_exec(piece.args):
                marks += (MODE_TIGHTENED_NO_EXEC,)
        if marks:
            out = out or list(pieces)
            out[index] = piece._replace(wrappers=(*piece.wrappers, *marks))
    return pieces if out is None else tuple(out)


def _no_exec(args: tuple[str, ...]) -> bool:
    """Whether a tightening ``chmod args`` (`tightens`) leaves the owner no execute bit:
    an octal ``600`` or ``400``, or a symbolic mode (which only takes from group and
    others, never adding to the owner)."""
    words = [a for a in args if a not in _QUIET]
    mode = words[1] if words[:1] == ["--"] else words[0]
    return not mode[:1].isdigit() or _NO_EXEC.fullmatch(mode) is not None


def sets_setuid(args: tuple[str, ...]) -> bool:
    """Whether ``chmod args`` sets the setuid bit: its mode (the first word that is no
    option; a mode that adds or sets never starts with ``-``) is octal with the 4000 bit,
    or has a clause for the owner (``u``, ``a``, or none named) that adds or sets ``s``."""
    words = [a for a in args if not a.startswith("-")]
    if not words:
        return False
    mode = words[0]
    if _OCTAL_MODE.fullmatch(mode):
        return bool(int(mode, 8) & 0o4000)
    for clause in mode.split(","):
        found = _CLAUSE.fullmatch(clause)
        if found is None:
            return False  # not a mode: a file name (`chmod --reference=R F`)
        who, operations = found.groups()
        if who and not set(who) & {"u", "a"}:
            continue
        if any(op in "+=" and "s" in perms for op, perms in _OPERATION.findall(operations)):
            return True
    return False
