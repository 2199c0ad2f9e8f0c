"""What inline Python does, as the shell commands the guard already judges.

`pyreader` lists what the code's calls do (`CodeAct`); each act becomes the command that
does the same to the same path (``shutil.rmtree(p)`` is ``rm -rf -- p``, ``open(p)`` is
``cat -- p``, ``Path(p).write_text(..)`` is ``tee -- p``), so one set of rules judges a
path whatever touches it. A read together with a network call is judged as sending what
was read (``curl --data-binary @p``): code that reads ``.env`` and posts to a URL is the
exfiltration it spells. Every piece made here is marked `FROM_CODE`: judged, never granted.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

from amplifier_hooks.guard.inline import FROM_CODE
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.pyreader import CodeAct, CodeReading

__all__ = ["code_pieces", "command_lines"]

Reparse = Callable[[str], tuple[Piece, ...]]

_UNKNOWN_URL = '"$URL"'
"""A destination known only at run time: a word the rules see as a variable."""
_SIMPLE = {
    "read": "cat --",
    "write": "tee --",
    "append": "tee -a --",
    "delete": "rm -f --",
    "delete-tree": "rm -rf --",
    "rmdir": "rmdir --",
    "mkdir": "mkdir -p --",
}
_FROM_TO = {"copy": "cp -r --", "move": "mv --", "link": "ln -s --"}


def command_lines(reading: CodeReading) -> list[str]:
    """The shell commands that do what ``reading``'s acts do (an act on a path known only
    at run time has none: the code stays asked)."""
    lines: list[str] = []
    reads: list[str] = []
    urls: list[str] = []
    for act in reading.acts:
        line = _line(act)
        if line is not None:
            lines.append(line)
        if act.does == "read" and act.target is not None:
            reads.append(_path(act.target))
        elif act.does == "network":
            urls.append(_UNKNOWN_URL if act.target is None else shlex.quote(act.target))
    for url in urls[:4]:
        lines.extend(f"curl --data-binary @{path} -- {url}" for path in reads[:8])
    return lines


def _line(act: CodeAct) -> str | None:
    does, target, source = act.does, act.target, act.source
    if does == "run":
        return target
    if does == "network":
        return f"curl -- {_UNKNOWN_URL if target is None else shlex.quote(target)}"
    if target is None:
        return None
    simple = _SIMPLE.get(does)
    if simple is not None:
        return f"{simple} {_path(target)}"
    if does == "chmod":
        mode = act.mode if act.mode is not None else '"$MODE"'
        return f"chmod {mode} -- {_path(target)}"
    verb = _FROM_TO.get(does)
    if verb is None or source is None:
        return None
    return f"{verb} {_path(source)} {_path(target)}"


def _path(path: str) -> str:
    """``path`` as one shell word, a leading ``~`` left for the guard to place."""
    if path == "~":
        return "~"
    if path.startswith("~/"):
        return "~/" + shlex.quote(path[2:])
    return shlex.quote(path)


def code_pieces(piece: Piece, reading: CodeReading, reparse: Reparse) -> list[Piece]:
    """The pieces of what ``piece``'s inline code does, run where ``piece`` runs (nowhere
    known once the code changes its directory), marked as coming from inline code."""
    cwd = None if reading.chdir else piece.cwd
    marks = (*piece.wrappers, piece.program or "", FROM_CODE)
    out: list[Piece] = []
    for line in command_lines(reading):
        for found in reparse(line):
            where = cwd if found.cwd == "." or cwd is None else found.cwd
            out.append(found._replace(wrappers=(*marks, *found.wrappers), cwd=where))
    return out
