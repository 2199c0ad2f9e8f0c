"""A Makefile's recipes, as the shell commands ``make`` runs: for a Makefile written into
the project (`buildfiles`, `planted`) and for one given to ``make -f -`` on its input (a
heredoc, a here-string: ``make -f - <<< $'all:\\n\\trm -rf $$HOME'`` runs ``rm -rf $HOME``),
and for the rules ``make --eval=TEXT`` adds (``--eval='x: ; rm -rf $(HOME)' x``).

``make`` hands each recipe line to the shell after expanding its own variables, and runs
``$(shell ...)`` and ``!=`` assignments as it reads the file. So a recipe is read as the
shell reads it once make is done with it: ``$$`` is ``$``, a variable the text defines is
its value, and the rest is named where it stands. A Makefile on input is read only whole:
one that includes, defines or calls more than its lines show (``include``, ``define``,
``$(eval ..)``, ``$(call ..)``, a line continued with ``\\``) is unseen: asked
(``makefile-unseen``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from amplifier_hooks.guard.model import Piece

__all__ = [
    "STDIN_MAKEFILES",
    "fetched_includes",
    "made_from_input",
    "reads_stdin_makefile",
    "recipes",
    "stdin_recipes",
]  # fmt: skip

STDIN_MAKEFILES = frozenset({"-", "/dev/stdin"})
_UNREAD = re.compile(r"\$[({]\s*(?:shell|eval|call|file|value|foreach|guile|origin|flavor|"
                     r"wildcard|if|or|and)\b|!=|^\s*-?s?include\b|^\s*define\b|\\$|`",
                     re.MULTILINE)  # fmt: skip
"""What makes make run, read or build more than the recipes show."""
MAX_RECIPES = 200
_RULE_RECIPE = re.compile(r"[^=:#\t][^=#]*?::?[^=;#]*;(.*)")
"""A rule with its recipe on its own line: ``wipe: ; rm -rf build``."""


def reads_stdin_makefile(args: tuple[str, ...]) -> bool:
    """Whether ``make args`` reads its Makefile from input (``-f -``) and no other."""
    files: list[str] = []
    for index, arg in enumerate(args):
        if arg in ("-f", "--file", "--makefile") and index + 1 < len(args):
            files.append(args[index + 1])
        elif arg.startswith(("--file=", "--makefile=")):
            files.append(arg.partition("=")[2])
        elif arg.startswith("-f") and len(arg) > 2:
            files.append(arg[2:])
    return bool(files) and all(f in STDIN_MAKEFILES for f in files)


def _stdin_script(text: str) -> str | None:
    """The commands a Makefile on input runs, one a line (None: it does more than the
    guard reads, or has too many recipes)."""
    if _UNREAD.search(text):
        return None
    lines = list(recipes(text))
    for line in text.splitlines():
        if not line.startswith("\t") and ";" in line.partition("#")[0]:
            rule = _RULE_RECIPE.match(line)  # `target: prereqs ; recipe`
            if rule is None:
                return None
            lines.append(_as_shell(rule.group(1).lstrip("@-+ "), {}))
    return None if len(lines) > MAX_RECIPES else "\n".join(lines)


_FILE_OPTIONS = ("-f", "--file", "--makefile")


def stdin_recipes(program: str, args: tuple[str, ...],
                  stdin: str | None) -> tuple[tuple[str, ...], str] | None:  # fmt: skip
    """For ``make -f - ARGS`` given its Makefile ``stdin``: ARGS without the ``-f -``, and
    the commands its recipes run (None: not such a call, or a Makefile not read whole)."""
    if program not in ("make", "gmake") or stdin is None or not reads_stdin_makefile(args):
        return None
    script = _stdin_script(stdin)
    if script is None:
        return None
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in _FILE_OPTIONS:
            skip = True
        elif not arg.startswith(("-f", "--file=", "--makefile=")):
            kept.append(arg)
    return tuple(kept), script


def made_from_input(piece: Piece, stdin: str | None,
                    reparse: Callable[[str], tuple[Piece, ...]]) -> list[Piece] | None:  # fmt: skip
    """``make -f -`` (``piece``) given the Makefile ``stdin``: make itself, never granted,
    and the pieces its recipes run, judged as commands it runs (None: not such a call, or
    a Makefile not read whole)."""
    read = stdin_recipes(piece.program or "", piece.args, stdin)
    if read is None:
        read = _eval_recipes(piece.program or "", piece.args)
        if read is None:
            return None
    made = piece._replace(args=read[0], doubt=piece.doubt or "make reads its Makefile from input")
    wrappers = (*piece.wrappers, piece.program or "make")
    return [
        made,
        *(
            p._replace(
                wrappers=wrappers + p.wrappers,
                writes=p.writes + piece.writes,
                reads=p.reads + piece.reads,
            )
            for p in reparse(read[1])
        ),
    ]


def _eval_recipes(program: str, args: tuple[str, ...]) -> tuple[tuple[str, ...], str] | None:
    """For ``make --eval=TEXT ...`` (``-E TEXT``): its words, and the commands the rules of
    TEXT run (None: no such rule, or one not read whole: `make-eval` asks for it alone)."""
    if program not in ("make", "gmake"):
        return None
    texts: list[str] = []
    for index, arg in enumerate(args):
        if arg in ("--eval", "-E") and index + 1 < len(args):
            texts.append(args[index + 1])
        elif arg.startswith("--eval="):
            texts.append(arg.partition("=")[2])
    script = _stdin_script("\n".join(texts)) if texts else None
    return (args, script) if script else None


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


_INCLUDE = re.compile(r"^\s*-?s?include\s+(.*)$", re.MULTILINE)
_FETCH = re.compile(
    r"\b(?:curl|wget|fetch|aria2c|http|xh)\b[^;|&]*?((?:https?|ftp)://[^\s;|&)'\"]+)"
)


def fetched_includes(text: str) -> list[str]:
    """The URLs of the files a Makefile's ``include`` reads as it starts, fetched by a
    ``$(shell curl ...)`` in that line (``-include $(shell curl -so .mk URL; echo .mk)``):
    make runs what the URL serves as its own code, unread."""
    found: list[str] = []
    for line in _INCLUDE.finditer(text):
        for command in _MAKE_SHELL.findall(line.group(1)):
            found += _FETCH.findall(command)
    return found[:8]


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
    if "$" not in recipe:
        return recipe  # nothing of make's: most recipe lines
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
