"""Commands whose output is only a listing of project paths: ``ls tests/*.py``, ``ls
packages``, ``printf '%s\\n' services/*/``, ``git ls-files``, ``find src -name '*.py'``.

Fed to ``xargs``, each line becomes a path argument (or, with ``-I``, a word of a script):
names the project holds, not code from elsewhere, so the command is judged with an
unknown project path in their place rather than asked as input run as code (`flow`).
Only relative paths, below the working folder (no ``..``, ``~`` or ``/``), no
substitution, and options that print names alone (``ls -l`` prints more than names).
"""

from __future__ import annotations

from amplifier_hooks.guard.model import Piece

__all__ = ["lists_project_paths", "ls_names_only"]

_LS_OPTIONS = frozenset({"-1", "-a", "-A", "-d", "-p", "-F", "-r", "-t", "-S", "-X", "-v"})
_FIND_VALUED = frozenset({"-name", "-iname", "-path", "-ipath", "-regex", "-iregex",
                          "-regextype", "-type", "-maxdepth", "-mindepth", "-newer",
                          "-size"})  # fmt: skip
_FIND_TESTS = _FIND_VALUED | {"-not", "!", "-o", "-a", "-prune", "-print", "-empty"}


def lists_project_paths(pieces: list[Piece]) -> bool:
    """Whether ``pieces`` (one command of a pipeline) only print project paths."""
    if len(pieces) != 1:
        return False
    piece = pieces[0]
    if (piece.program is None or piece.opaque is not None or piece.dynamic or piece.wrappers
            or piece.writes or piece.reads or piece.fed is not None or piece.env):  # fmt: skip
        return False
    program, args = piece.program, piece.args
    if program == "ls":
        options = [a for a in args if a.startswith("-")]
        if not all(_ls_option(a) for a in options):
            return False
        return all(_relative(a) for a in args if not a.startswith("-"))
    if program == "printf":
        return len(args) >= 2 and args[0] in ("%s\\n", "%s\n") and all(map(_relative, args[1:]))
    if program == "git":
        return args[:1] == ("ls-files",) and all(not a.startswith("--format") for a in args)
    if program == "find":
        return _find_lists(args)
    return False


def ls_names_only(option: str) -> bool:
    """An option of ``ls`` with which it prints names alone (``-1``, ``-a``; not ``-l``)."""
    return _ls_option(option)


def _ls_option(option: str) -> bool:
    return (
        option.startswith("-")
        and not option.startswith("--")
        and all(f"-{letter}" in _LS_OPTIONS for letter in option[1:])
    )


def _relative(path: str) -> bool:
    return bool(path) and path[0] not in "/~-" and ".." not in path.split("/")


def _find_lists(args: tuple[str, ...]) -> bool:
    roots = 0
    while roots < len(args) and not args[roots].startswith("-") and args[roots] not in "!()":
        if not _relative(args[roots]) and args[roots] != ".":
            return False
        roots += 1
    index = roots
    while index < len(args):
        word = args[index]
        if word not in _FIND_TESTS and word not in ("(", ")"):
            return False
        index += 2 if word in _FIND_VALUED else 1
    return True
