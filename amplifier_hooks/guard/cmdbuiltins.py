"""cmd.exe's own built-ins (``rd /s``, ``del``, ``copy``, ``set``, ``mklink``), each as the
POSIX command that does the same to the same places. Its own table: `winprograms` looks
a cmd.exe command up here before it reads it as a program.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Callable

from amplifier_hooks.guard.psvalues import quote
from amplifier_hooks.guard.winvars import posix_path
from amplifier_hooks.guard.winwords import Word
from amplifier_hooks.guard.winwords import paths_of as _paths

__all__ = ["BUILTINS"]


def _rd(rest: list[Word], home: str) -> str:
    recursive = any((p or "").lower() == "/s" for _, p in rest)
    paths = " ".join(w for w, _ in _paths(rest))
    return f"rm -r -f -- {paths}" if recursive else f"rmdir -- {paths}"


def _del(rest: list[Word], home: str) -> str:
    """``del /s F\\*.cs`` deletes the matching files of every folder below ``F`` too."""
    recursive = any((p or "").lower() == "/s" for _, p in rest)
    paths = [w for w, _ in _paths(rest)]
    if recursive:
        paths += [_below(w, p) for w, p in _paths(rest) if p is not None]
    return "rm -f -- " + " ".join(paths)


def _below(word: str, plain: str) -> str:
    """``F/PATTERN`` as ``F/**/PATTERN``: the same name in every folder below."""
    folder, slash, name = plain.rpartition("/")
    return (quote(folder) + "/**/" if slash else "**/") + quote(name)


def _copy(rest: list[Word], home: str) -> str:
    paths = _paths(rest)
    if len(paths) >= 2 and (paths[0][1] or "").lower() == "nul":
        return f": > {paths[-1][0]}"
    return "cp -r -f -- " + " ".join(w for w, _ in paths) if paths else "true"


def _move(rest: list[Word], home: str) -> str:
    return "mv -f -- " + " ".join(w for w, _ in _paths(rest))


def _rename(rest: list[Word], home: str) -> str:
    paths = _paths(rest)
    if len(paths) == 2 and paths[0][1] is not None and paths[1][1] is not None:
        sibling = posixpath.join(posixpath.dirname(paths[0][1]), paths[1][1])
        return f"mv -- {paths[0][0]} {shlex.quote(sibling)}"
    return "mv -- " + " ".join(w for w, _ in paths)


def _type(rest: list[Word], home: str) -> str:
    paths = _paths(rest)
    if paths and all((p or "").lower() == "nul" for _, p in paths):
        return ":"
    return "cat -- " + " ".join(w for w, _ in paths)


def _dir(rest: list[Word], home: str) -> str:
    recursive = any((p or "").lower() == "/s" for _, p in rest)
    paths = " ".join(w for w, _ in _paths(rest))
    return ("find " + (paths or ".")) if recursive else ("ls -- " + paths if paths else "ls")


def _cd(rest: list[Word], home: str) -> str:
    paths = _paths(rest)
    return "cd " + paths[0][0] if paths else "true"


def _set(rest: list[Word], home: str) -> str:
    if not rest:
        return "env"
    text = " ".join(p if p is not None else w for w, p in rest)
    name, equals, value = text.partition("=")
    if not equals or not re.fullmatch(r"\w+", name.strip()):
        return "true" if text.lower().startswith(("/p", "/a")) else "env"
    return f"export {name.strip()}={shlex.quote(posix_path(value, home))}"


def _mklink(rest: list[Word], home: str) -> str:
    paths = _paths(rest)
    if len(paths) == 2:
        return f"ln -s -- {paths[1][0]} {paths[0][0]}"
    return "ln -s -- " + " ".join(w for w, _ in paths)


BUILTINS: dict[str, Callable[[list[Word], str], str]] = {
    "rd": _rd, "rmdir": _rd, "del": _del, "erase": _del, "copy": _copy, "xcopy": _copy,
    "move": _move, "ren": _rename, "rename": _rename, "type": _type, "dir": _dir,
    "mkdir": lambda r, h: "mkdir -p -- " + " ".join(w for w, _ in _paths(r)),
    "md": lambda r, h: "mkdir -p -- " + " ".join(w for w, _ in _paths(r)),
    "cd": _cd, "chdir": _cd, "pushd": _cd, "set": _set, "mklink": _mklink,
    "where": lambda r, h: "command -v " + " ".join(w for w, _ in _paths(r)),
    "popd": lambda r, h: "true", "setlocal": lambda r, h: "true",
    "endlocal": lambda r, h: "true", "chcp": lambda r, h: "true", "cls": lambda r, h: "true",
    "title": lambda r, h: "true", "ver": lambda r, h: "true", "vol": lambda r, h: "true",
    "rem": lambda r, h: "true", "pause": lambda r, h: "true", "exit": lambda r, h: "true",
    "for": lambda r, h: '"$CMD_FOR"',
    "path": lambda r, h: "export PATH=" + (r[0][0] if r else "''"),
}  # fmt: skip
