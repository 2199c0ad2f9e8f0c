"""A ``find`` that only lists names is not a read of what it finds.

``find ~/.ssh -maxdepth 1 -name '*.pub'`` and ``find . -name "*.pem" -print`` print paths,
as ``ls ~/.ssh`` does (which the credential rules leave alone): no byte of a key reaches
the model. Such a piece is marked `NAMES_LISTED`, and the rules on reading credentials
leave it alone. Only this exact shape counts: every word is a start point, a test or
option `find` has (`_TESTS` with their values, `_FLAGS`), an action is only ``-print``,
``-print0``, ``-ls`` or ``-prune``, and the names go nowhere but to the model, through
programs that print what they are given (``| sort``, ``| head``). ``-exec cat {} \\;``,
``-fprint FILE``, ``-fls FILE``, ``> list`` and ``| xargs cat`` keep it judged as a read.

A Glob tool's call lists names too, and only names: marked so when its pattern is not
aimed at secrets (``*.pub``, ``**/*``; not ``**/id_*``, ``*.pem``, ``.env*``) and stays
below its folder (`glob_lists_names`).
"""

from __future__ import annotations

from amplifier_hooks.guard.flow import NOWHERE
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.secrets import secret_kind, seeks_secrets

__all__ = ["NAMES_LISTED", "glob_lists_names", "lists_names", "mark_names_listed"]

NAMES_LISTED = "@names-listed"
"""A ``find`` that prints only the names (and, with ``-ls``, the sizes) of what it finds."""

_TESTS = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename",
                    "-regex", "-iregex", "-regextype", "-type", "-xtype", "-maxdepth",
                    "-mindepth", "-newer", "-mtime", "-mmin", "-atime", "-amin", "-ctime",
                    "-cmin", "-size", "-user", "-group", "-uid", "-gid", "-perm", "-links",
                    "-inum", "-samefile", "-lname", "-ilname", "-used"})  # fmt: skip
"""find's tests and options that take one value (a pattern, a number, a name)."""
_FLAGS = frozenset({"-print", "-print0", "-ls", "-prune", "-o", "-or", "-a", "-and", "-not",
                    "!", "(", ")", ",", "-empty", "-follow", "-xdev", "-mount", "-depth",
                    "-true", "-false", "-readable", "-writable", "-executable", "-nouser",
                    "-nogroup", "-daystart", "-quit", "-noleaf",
                    "-ignore_readdir_race"})  # fmt: skip
"""find's words that take no value and print at most a name (its actions among them)."""
_GLOBAL = frozenset({"-H", "-L", "-P"})


def lists_names(piece: Piece) -> bool:
    """Whether ``piece`` is a ``find`` whose only output is names, printed for the model."""
    if piece.program != "find" or piece.tool != "bash" or piece.opaque is not None:
        return False
    if any(w != "/dev/null" for w in piece.writes):
        return False  # `> list` (`2>/dev/null` keeps nothing)
    args = piece.args
    index = 0
    while index < len(args) and args[index] in _GLOBAL:
        index += 1
    while index < len(args) and not args[index].startswith("-") and args[index] not in "!(),":
        index += 1  # the start points
    while index < len(args):
        word = args[index]
        if word in _TESTS:
            index += 2
            continue
        if word not in _FLAGS:
            return False
        index += 1
    return _to_model(piece.pipes_to)


def _to_model(flows: tuple[str, ...]) -> bool:
    """Whether the names reach no program but filters (`_FILTERS`, ``grep``), and no file."""
    names = [name for name in flows if name != NOWHERE]
    return all(name in _FILTERS or name == "grep" for name in names)


def mark_names_listed(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each ``find`` that only lists names marked `NAMES_LISTED`."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if lists_names(piece) and _plain_after(index, pieces):
            out = out or list(pieces)
            out[index] = piece._replace(wrappers=(*piece.wrappers, NAMES_LISTED))
    return pieces if out is None else tuple(out)


_FILTERS = frozenset({"sort", "uniq", "wc", "head", "tail", "nl", "column", "cut", "tr"})
"""Programs that, given no file, print (or count) only the lines they are given."""


def _plain_after(index: int, pieces: tuple[Piece, ...]) -> bool:
    """Whether the programs the names flow into only filter those lines (``| sort |
    head -n 5``, ``| grep -v test``): given no file to read, so not ``| xargs cat``, which
    is read as ``cat`` of what find finds."""
    flows = [name for name in pieces[index].pipes_to if name != NOWHERE]
    following = pieces[index + 1 : index + 1 + len(flows)]
    return len(following) == len(flows) and all(
        after.program == name and _filters(after)
        for name, after in zip(flows, following, strict=True)
    )


def _filters(piece: Piece) -> bool:
    if piece.dynamic or piece.writes or piece.reads or piece.opaque is not None:
        return False
    operands = [a for a in piece.args if not a.startswith("-") and not a.isdigit()]
    if piece.program == "grep":  # one pattern, no file, no option naming one
        return len(operands) == 1 and not any(
            a.startswith(("-f", "-e", "-r", "-R", "--")) for a in piece.args
        )
    return piece.program in _FILTERS and (not operands or piece.program in ("tr", "cut"))


def glob_lists_names(pattern: str) -> bool:
    """A Glob tool's ``pattern`` lists names a person may see with ``ls``: its last part
    names no secret (`secrets.secret_kind`), it seeks no secret's name, and it stays
    below its folder (no ``/``, ``~`` start, no ``..``)."""
    spelled = pattern.replace("\\", "/")
    if spelled.startswith(("/", "~")) or ".." in spelled.split("/"):
        return False
    last = spelled.rstrip("/").rsplit("/", 1)[-1]
    return secret_kind(last) is None and not seeks_secrets(spelled)
