"""A Makefile's recipes, as the shell commands ``make`` runs.

``make`` hands each recipe line to the shell after expanding its own variables, and runs
``$(shell ...)`` and ``!=`` assignments as it reads the file. So a recipe is read as the
shell reads it once make is done with it (`buildfiles`, `planted`): ``$$`` is ``$``, a
variable the text defines is its value, and the rest is named where it stands.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["recipes"]

_MAKE_SHELL = re.compile(r"\$[({]shell\s+([^()]*)[)}]")
_MAKE_VARIABLE = re.compile(r"\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]|\$([@<^*?%+|])")
_MAKE_PROGRAMS = {"MAKE": "make", "RM": "rm -f", "CC": "cc", "CXX": "c++", "AR": "ar",
                  "CPP": "cc -E", "LD": "ld", "INSTALL": "install"}  # fmt: skip
"""GNU make's default values of the variables a recipe most often starts with."""
_OWN_VARIABLES = frozenset({"HOME", "PWD", "USER", "SHELL", "PATH", "TMPDIR", "CURDIR"})
"""Variables make takes from the environment (and ``CURDIR``): the shell's own."""
_ASSIGNMENT = re.compile(
    r"^(?:export\s+|override\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(:{1,3}|\?|\+|!)?=(.*)$"
)
"""``NAME = value``, ``:=``, ``?=``, ``+=`` (the first value is the one read), and ``!=``,
whose value is a shell command make runs as it reads the file."""


def recipes(text: str) -> Iterator[str]:
    """A Makefile's recipe lines (a tab first; ``\\`` joins the next line) and the
    commands of its ``$(shell ...)``, as the shell runs them (`_as_shell`); ``@``, ``-``
    and ``+`` before a recipe line are make's, not the command's."""
    lines = text.replace("\\\n", " ").splitlines()
    defined: dict[str, str] = {}
    commands = _MAKE_SHELL.findall(text)
    for line in lines:
        found = _ASSIGNMENT.match(line)
        if found is not None:
            defined.setdefault(found.group(1), found.group(3).strip())
            if found.group(2) == "!":
                commands.append(found.group(3))
    for command in commands:
        yield _as_shell(command, defined)
    for line in lines:
        if line.startswith("\t"):
            recipe = line[1:].lstrip().lstrip("@-+").lstrip()
            if recipe and not recipe.startswith("#"):
                yield _as_shell(recipe, defined)


def _as_shell(recipe: str, defined: dict[str, str]) -> str:
    """``recipe`` as the shell gets it: ``$$`` is ``$``; a variable the text defines is
    its value (four deep), one make takes from the environment is the shell's
    (``$(HOME)``), an automatic one (``$@``, ``$<``: the target, its prerequisites) a name
    in the project, one with a default its default (``$(RM)`` is ``rm -f``), and any
    other a word of the project (``$(CFLAGS)``, ``$(BUILD)``: set where the guard cannot
    see). What is left is judged (a grant is never given)."""
    text = recipe.replace("$$", "\x00")
    for _ in range(4):
        text = _MAKE_SHELL.sub(lambda m: f"$({m.group(1)})", text)
        expanded = _MAKE_VARIABLE.sub(lambda m: _value(m, defined), text)
        if expanded == text:
            break
        text = expanded
    return text.replace("\x00", "$")


def _value(match: re.Match[str], defined: dict[str, str]) -> str:
    name = match.group(1)
    if not name:
        return "make-automatic-variable"
    if name in defined:
        return defined[name].replace("$$", "\x00")
    if name in _OWN_VARIABLES:
        return "${" + name + "}"
    return _MAKE_PROGRAMS.get(name, f"make-variable-{name.lower()}")
