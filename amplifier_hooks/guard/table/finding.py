"""find, read as find reads its expression: start points, then tests and actions.

Tests only read. ``-delete`` deletes what is found, ``-fprint``/``-fprint0``/``-fprintf``/
``-fls`` write a file, ``-exec``/``-execdir``/``-ok``/``-okdir`` run a command (which
`unwrap` also judges on its own). A primary the table does not list is doubtful.
"""

from __future__ import annotations

from amplifier_hooks.guard.table.acts import Act, Does, Reading, doubtful
from amplifier_hooks.guard.table.entries import Entry

__all__ = ["FINDING", "find_start", "find_written"]

_OPTIONS = frozenset({"-H", "-L", "-P", "-E", "-X", "-s", "-x"})
"""Options before the start points: GNU's links (``-H``, ``-L``, ``-P``) and BSD's (macOS):
``-E`` extended regexes, ``-X`` warn on odd names, ``-s`` sorted, ``-x`` one file system."""
_NO_VALUE = frozenset(
    {"-print", "-print0", "-ls", "-prune", "-quit", "-true", "-false", "-empty",
     "-executable", "-readable", "-writable", "-nouser", "-nogroup", "-depth", "-d",
     "-mount", "-xdev", "-follow", "-noleaf", "-daystart", "-ignore_readdir_race",
     "-noignore_readdir_race", "-not", "!", "(", ")", ",", "-a", "-and", "-o", "-or",
     "-warn", "-nowarn", "-help", "--help", "-version", "--version"}
)  # fmt: skip
_ONE_VALUE = frozenset(
    {"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
     "-lname", "-ilname", "-type", "-xtype", "-size", "-perm", "-user", "-group", "-uid",
     "-gid", "-links", "-inum", "-samefile", "-mtime", "-atime", "-ctime", "-mmin", "-amin",
     "-cmin", "-used", "-newer", "-anewer", "-cnewer", "-maxdepth", "-mindepth", "-fstype",
     "-regextype", "-printf", "-context", "-files0-from"}
)  # fmt: skip
_READS = frozenset({"-newer", "-anewer", "-cnewer", "-samefile", "-files0-from"})
_WRITES_ONE = frozenset({"-fprint", "-fprint0", "-fls"})
_RUNS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def find_start(args: tuple[str, ...]) -> tuple[tuple[str, ...], int]:
    """find's start points (none given: ``.``, which the caller adds) after its options
    (``-H``, ``-L``, ``-P``, ``-D debugopts``, ``-Olevel``; BSD's ``-E``, ``-X``, ``-s``,
    ``-x``), and where its expression begins: ``find -L ~ -name x`` starts at ``~``."""
    index = 0
    while index < len(args) and (args[index] in _OPTIONS or args[index].startswith("-D")
                                 or args[index].startswith("-O")):  # fmt: skip
        index += 2 if args[index] == "-D" else 1
    start = index
    while index < len(args) and not args[index].startswith(("-", "(", "!", ",")):
        index += 1
    return args[start:index], index


def _read(args: tuple[str, ...]) -> tuple[list[Act], str | None]:
    """find's acts, and the first primary it does not know (read on past it as taking no
    value, so that what it writes after is still seen)."""
    roots, index = find_start(args)
    acts = [Act(Does.READ, r) for r in roots or ["."]]
    doubt: str | None = None
    while index < len(args):
        word = args[index]
        index += 1
        if word in _NO_VALUE:
            continue
        if word.startswith("-newer") and len(word) == 8:  # -newerXY reference
            index += 1
            continue
        if word in _ONE_VALUE:
            if word in _READS and index < len(args):
                acts.append(Act(Does.READ, args[index]))
            index += 1
            continue
        if word == "-delete":
            acts.extend(Act(Does.DELETE, r) for r in roots or ["."])
            continue
        if word in _WRITES_ONE or word == "-fprintf":
            if index >= len(args):
                return acts, doubt or f"find {word} needs a file"
            acts.append(Act(Does.WRITE, args[index]))
            index += 2 if word == "-fprintf" else 1
            continue
        if word in _RUNS:
            end = index
            while end < len(args) and args[end] not in (";", "+"):
                end += 1
            acts.append(Act(Does.RUN, " ".join(args[index:end])))
            index = end + 1
            continue
        doubt = doubt or f"find {word} is not in the guard's table"
    return acts, doubt


def find(args: tuple[str, ...]) -> Reading:
    acts, doubt = _read(args)
    return doubtful(doubt) if doubt is not None else Reading(tuple(acts))


def find_written(args: tuple[str, ...]) -> tuple[str, ...]:
    """The files find's ``-fprint``, ``-fprint0``, ``-fprintf`` and ``-fls`` write."""
    return tuple(a.target for a in _read(args)[0] if a.does == Does.WRITE)


FINDING: dict[str, Entry] = {"find": find}
