"""The short road for plain commands: ``git status && pytest -q tests/`` read without
building a syntax tree.

Most of what an agent runs is words of plain characters joined by ``&&``, ``||``, ``;``
and ``|``. For such a command bash's reading is a split on those operators and then on
blanks, which costs a few microseconds where walking tree-sitter's tree costs a hundred.
Anything else -- a quote, ``$``, a redirection, a glob or brace, a comment, a keyword, an
assignment, a background ``&``, an empty command -- takes the long road (the grammar).
``tests/guard/test_simple.py`` checks that both roads read every command alike.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.unwrap import Command
from amplifier_hooks.guard.words import Word

__all__ = ["CD", "NeedsGrammar", "cd", "read_simple"]

_PLAIN = re.compile(r"[A-Za-z0-9_./:=+,~ \t&|;-]*\Z")
_OPERATOR = re.compile(r"[ \t]*(&&|\|\||[|;])[ \t]*")
_RESERVED = frozenset(
    {"!", "[[", "]]", "{", "}", "case", "coproc", "do", "done", "elif", "else", "esac", "fi",
     "for", "function", "if", "in", "select", "then", "time", "until", "while", "declare",
     "typeset", "export", "readonly", "local", "unset", "unsetenv"}
)  # fmt: skip
"""Words bash (or tree-sitter-bash) reads as syntax, not as a command's words."""

CD = frozenset({"cd", "pushd"})


class NeedsGrammar(Exception):
    """A plain command runs a script of its own (``bash -c x``, ``eval x``): read it all
    with the grammar."""


def read_simple(text: str) -> list[tuple[int, Command, int | None]] | None:
    """The simple commands of a plain command (id, command, id of the command its output
    feeds), or None when it is not plain."""
    if not _PLAIN.match(text) or "+:" in text:
        return None
    parts = _OPERATOR.split(text)
    commands: list[tuple[int, Command, int | None]] = []
    cwd: str | None = "."
    for index in range(0, len(parts), 2):
        segment = parts[index].strip(" \t")
        if not segment or "&" in segment:
            return None  # an empty command (a syntax error) or a background job
        words = segment.split()
        if "=" in words[0] or words[0][0] == "-" or not _RESERVED.isdisjoint(words):
            return None
        if "=" in segment and any(w[0] == "=" or "==" in w for w in words):
            return None  # tree-sitter-bash reads these as test operators
        feeds = index + 2 if index + 1 < len(parts) and parts[index + 1] == "|" else None
        command = Command(segment, tuple(Word(w) for w in words), (), (), cwd, None)
        commands.append((index, command, feeds))
        if words[0] in CD:
            cwd = cd(cwd, command.words[1:])
    return commands


def cd(cwd: str | None, args: tuple[Word, ...] | list[Word]) -> str | None:
    """The directory after ``cd`` with ``args`` in ``cwd`` (None: unknown)."""
    operands = [w for w in args if not w.text.startswith("-") or w.text == "-"]
    if not operands:
        return "~"
    target = operands[0]
    if target.dynamic or target.text == "-" or cwd is None:
        return None
    if target.text.startswith(("/", "~")):
        return target.text
    return f"{cwd}/{target.text}"
