"""What a vi-family editor run with commands (``vim -es -c CMD``, ``+CMD``, ``--cmd CMD``)
runs in a shell and writes, read from those commands when they are literal: ``:!cmd``,
``:r !cmd``, ``:w !cmd``, a range filtered through ``!cmd``, ``system("cmd")``, and
``writefile(..., "path")`` (judged as ``tee -a path``).

Each is judged as the command it is (`table.commands_run`), so a literal one's deny wins;
the editor itself stays asked by the pack (`editor-shell-command`) for what is left
unread, and ``-S FILE`` (a script the guard does not read) is a command nobody can read
(`SOURCED`), asked.
"""

from __future__ import annotations

import re
import shlex

__all__ = ["EDITORS", "SOURCED", "editor_commands", "editor_files", "given_commands"]

SOURCED = '"$SCRIPT_THE_EDITOR_SOURCES"'
"""The command standing for ``-S FILE``: a program name only known when it runs."""

EDITORS = frozenset({"vim", "vi", "nvim", "ex", "view", "gvim", "vimdiff"})

_VALUED = frozenset({"-c", "--cmd", "-S", "-u", "-U", "-i", "-T", "-w", "-W", "-s", "-r"})
_EX_MODE = frozenset({"-e", "-E", "-es", "-Es", "-se", "-sE"})
"""Options that start Ex mode, in which ``-s`` is silent mode (no script file follows)."""
_BANG = re.compile(
    r"""^[\s:]*(?:sil(?:ent)?!?\s*)?[%.$,0-9'<>+-]*\s*(?:(?:r(?:ead)?\s*)|(?:w(?:rite)?\s+))?!(.+)$""",
    re.DOTALL,
)
_STRING = r"""("(?:[^"\\]|\\.)*"|'[^']*')"""
_SYSTEM = re.compile(r"\b(?:system|systemlist)\s*\(\s*" + _STRING)
_READ = re.compile(r"^[\s:]*(?:sil(?:ent)?!?\s*)?[.$0-9]*\s*r(?:ead)?!?\s+(?!!)(\S.*)$")
"""``:r FILE``: the file's text read into the buffer (printed with ``%p``)."""
_LIST_JOB = re.compile(r"\b(?:jobstart|system|systemlist|termopen)\s*\(\s*\[([^\]]*)\]")
"""``jobstart(["sh", "-c", "..."])``: a program and its arguments as a list."""
_WRITEFILE = re.compile(r"\bwritefile\s*\(.*?,\s*(?:expand\s*\(\s*)?" + _STRING, re.DOTALL)


def _home_word(path: str) -> str:
    """``path`` as a shell word naming the same file (vim expands ``~`` and ``$HOME``)."""
    for head in ("~/", "$HOME/"):
        if path.startswith(head):
            return head + shlex.quote(path[len(head) :])
    return shlex.quote(path)


def _text(literal: str) -> str:
    if literal.startswith('"'):
        return re.sub(r"\\(.)", r"\1", literal[1:-1])
    return literal[1:-1]


def given_commands(args: tuple[str, ...], ex: bool = False) -> list[str]:
    """The editor's commands, in the order it runs them (``-c``, ``--cmd``, ``+CMD``);
    ``ex``: run as ``ex``, where ``-s`` is silent mode and takes no value, as after ``-e``."""
    given: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        ex = ex or word in _EX_MODE
        if word in ("-c", "--cmd") and index + 1 < len(args):
            given.append(args[index + 1])
        elif word.startswith("+") and len(word) > 1:
            given.append(word[1:])
        index += 2 if word in _VALUED and not (ex and word == "-s") else 1
    return given


def editor_commands(args: tuple[str, ...], program: str = "vim") -> tuple[str, ...]:
    """The shell commands the editor's literal commands run, and a ``tee -a`` for each
    file ``writefile`` names."""
    found: list[str] = []
    if any(w == "-S" or (w.startswith("-S") and len(w) > 2) for w in args):
        found.append(SOURCED)
    for command in given_commands(args, program == "ex"):
        bang = _BANG.match(command)
        if bang is not None and bang[1].strip():
            found.append(bang[1].strip())
        found += [_text(m[1]) for m in _SYSTEM.finditer(command)]
        for listed in _LIST_JOB.finditer(command):
            words = [_text(w) for w in re.findall(_STRING, listed[1])]
            found.append(shlex.join(words) if words else '"$EDITOR_JOB"')
        read = _READ.match(command)
        if read is not None and bang is None:
            found.append(f"cat -- {_home_word(read[1].strip())}")
        found += [f"tee -a -- {_text(m[1])}" for m in _WRITEFILE.finditer(command)]
    return tuple(c for c in found if c.strip())


def editor_files(args: tuple[str, ...], ex: bool = False) -> tuple[str, ...]:
    """The files the editor opens: its words that are no option, option's value or
    ``+CMD`` (all of them after ``--``; ``ex`` as for `given_commands`)."""
    files: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        ex = ex or word in _EX_MODE
        if word == "--":
            return (*files, *args[index + 1 :])
        if not word.startswith(("-", "+")):  # `-`: the text on stdin
            files.append(word)
        index += 2 if word in _VALUED and not (ex and word == "-s") else 1
    return tuple(files)
