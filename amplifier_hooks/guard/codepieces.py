"""What inline code does, as the shell commands the guard already judges.

A reader (`pyreader`, `jsreader`) lists what the code's calls do (`CodeAct`); each act
becomes the command that does the same to the same path (``shutil.rmtree(p)`` is ``rm -rf
-- p``, ``open(p)`` is ``cat -- p``, ``fs.writeFileSync(p, ..)`` is ``tee -- p``), so one
set of rules judges a path whatever language touches it. A read together with a network
call is judged as sending what was read (``curl --data-binary @p``): code that reads
``.env`` and posts to a URL is the exfiltration it spells; code it computes and runs
(``eval(d)``) together with a network call is judged as running what was fetched
(``curl URL | node``). A variable read is ``printenv
NAME``, the whole environment ``env`` (sent: ``env | curl``). Every piece made here is
marked `FROM_CODE`: judged, never granted.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import NamedTuple

from amplifier_hooks.guard.codeacts import CodeAct, CodeReading
from amplifier_hooks.guard.inline import CODE_SHOWS, FROM_CODE
from amplifier_hooks.guard.model import Piece

__all__ = ["CodeCommand", "code_commands", "code_pieces"]

Reparse = Callable[[str], tuple[Piece, ...]]


class CodeCommand(NamedTuple):
    """A command that does what an act does: its words as the shell would pass them, or
    (``line``) a command line to parse, for what ``os.system`` and the like run."""

    words: tuple[str, ...] = ()
    line: str | None = None
    dynamic: bool = False
    """A word is known only at run time (a URL the code computes)."""
    shown: bool = False
    """The code prints what the command reads (`CODE_SHOWS`)."""

    @property
    def text(self) -> str:
        return self.line if self.line is not None else shlex.join(self.words)


_UNKNOWN_URL = "$URL"
"""A destination known only at run time."""
_SIMPLE = {
    "read": ("cat", "--"),
    "show": ("cat", "--"),
    "load-env": ("cat", "--"),
    "write": ("tee", "--"),
    "append": ("tee", "-a", "--"),
    "delete": ("rm", "-f", "--"),
    "delete-tree": ("rm", "-rf", "--"),
    "rmdir": ("rmdir", "--"),
    "mkdir": ("mkdir", "-p", "--"),
}
_FROM_TO = {"copy": ("cp", "-r", "--"), "move": ("mv", "--"), "link": ("ln", "-s", "--")}


def code_commands(reading: CodeReading) -> list[CodeCommand]:
    """The commands that do what ``reading``'s acts do (an act on a path known only at
    run time has none: the code stays asked); each file read is sent to each
    destination the code reaches."""
    found: list[CodeCommand] = []
    reads: list[str] = []
    urls: list[str | None] = []
    dumps = False
    for act in reading.acts:
        command = _command(act)
        if command is not None:
            found.append(command)
        if act.does in ("read", "show", "load-env") and act.target is not None:
            reads.append(act.target)
        elif act.does == "network":
            urls.append(act.target)
        dumps = dumps or (act.does == "env" and act.target is None)
    if any(act.does == "show-env" for act in reading.acts):  # a dotenv file, printed
        found.extend(CodeCommand(("cat", "--", a.target), shown=True) for a in reading.acts
                     if a.does == "load-env" and a.target is not None)  # fmt: skip
    runners = dict.fromkeys(a.source for a in reading.acts if a.does == "eval" and a.source)
    for url in urls[:4]:
        found.extend(  # code computed where code is fetched: the fetched code, run
            CodeCommand(line=f"curl -fsSL -- {_sent(url)} | {shlex.quote(runner)}")
            for runner in runners
        )
        found.extend(CodeCommand(("curl", "--data-binary", f"@{path}", "--",
                                  url or _UNKNOWN_URL), dynamic=url is None)
                     for path in reads[:8])  # fmt: skip
        if dumps:  # the whole environment, sent
            found.append(CodeCommand(line=f"env | curl --data-binary @- -- {_sent(url)}"))
    return found


def _sent(url: str | None) -> str:
    return _UNKNOWN_URL if url is None else shlex.quote(url)


def _command(act: CodeAct) -> CodeCommand | None:
    does, target, source = act.does, act.target, act.source
    if does == "run":
        return None if target is None else CodeCommand(line=target)
    if does == "network":
        return CodeCommand(("curl", "--", target or _UNKNOWN_URL), dynamic=target is None)
    if does == "env":  # a variable printed is what `printenv` prints
        return CodeCommand(("printenv", target) if target is not None else ("env",))
    if target is None:
        return None
    simple = _SIMPLE.get(does)
    if simple is not None:
        return CodeCommand((*simple, target), shown=does == "show")
    if does == "chmod":
        mode = act.mode if act.mode is not None else "$MODE"
        return CodeCommand(("chmod", mode, "--", target), dynamic=act.mode is None)
    verb = _FROM_TO.get(does)
    if verb is None or source is None:
        return None
    return CodeCommand((*verb, source, target))


def code_pieces(piece: Piece, reading: CodeReading, reparse: Reparse) -> list[Piece]:
    """The pieces of what ``piece``'s inline code does, run where ``piece`` runs (nowhere
    known once the code changes its directory), marked as coming from inline code. A
    command line the code runs is parsed; a file act is built as the piece it is (its
    words need no parsing)."""
    cwd = None if reading.chdir else piece.cwd
    marks = (*piece.wrappers, piece.program or "", FROM_CODE)
    out: list[Piece] = []
    for command in code_commands(reading):
        if command.line is None:
            words = command.words
            shown = (CODE_SHOWS,) if command.shown else ()
            out.append(Piece(command.text, words[0], words[1:], "bash", (*marks, *shown),
                             cwd=cwd, dynamic=command.dynamic))  # fmt: skip
            continue
        for found in reparse(command.line):
            where = cwd if found.cwd == "." or cwd is None else found.cwd
            out.append(found._replace(wrappers=(*marks, *found.wrappers), cwd=where))
    return out
