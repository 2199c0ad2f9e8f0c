"""A Makefile given to ``make -f -`` on its input (a heredoc, a here-string): its recipes
are shell commands the guard can read. ``make -f - <<< $'all:\\n\\trm -rf $$HOME'`` runs
``rm -rf $HOME``.

Only a Makefile read whole is read: recipes (tab-led lines, less their ``@``, ``-`` and
``+``), ``$$`` for ``$``, and make's own variables (``$(X)``, ``${X}``) as unknown values.
Anything that runs or includes more than that (``$(shell ..)``, ``!=``, ``include``,
``define``, a line continued with ``\\``, a function call) leaves it unseen: asked
(``makefile-unseen``), as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from amplifier_hooks.guard.model import Piece

__all__ = [
    "STDIN_MAKEFILES",
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
_VARIABLE = re.compile(r"\$[({]([A-Za-z0-9_.-]+)[)}]|\$([A-Za-z0-9_@<^?*%])")
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


def recipes(text: str) -> str | None:
    """The shell commands the recipes of Makefile ``text`` run, one a line (None: the
    Makefile does more than the guard reads)."""
    if _UNREAD.search(text):
        return None
    lines: list[str] = []
    for line in text.splitlines():
        if line.startswith("\t"):
            lines.append(line[1:].lstrip("@-+ "))
        elif ";" in line.partition("#")[0]:  # `target: prereqs ; recipe`
            rule = _RULE_RECIPE.match(line)
            if rule is None:
                return None
            lines.append(rule.group(1).lstrip("@-+ "))
    if len(lines) > MAX_RECIPES:
        return None
    return "\n".join(_shell_text(line) for line in lines)


def _shell_text(line: str) -> str:
    """A recipe line as the shell gets it: ``$$`` is ``$``, a make variable a value only
    known when make runs (written as a shell variable: unknown to the guard too)."""
    parts = line.split("$$")
    return "$".join(_VARIABLE.sub(_unknown, part) for part in parts)


def _unknown(match: re.Match[str]) -> str:
    name = (match.group(1) or match.group(2) or "").replace(".", "_").replace("-", "_")
    return f"${{MAKE_{name if name.isidentifier() else 'VALUE'}}}"


_FILE_OPTIONS = ("-f", "--file", "--makefile")


def stdin_recipes(program: str, args: tuple[str, ...],
                  stdin: str | None) -> tuple[tuple[str, ...], str] | None:  # fmt: skip
    """For ``make -f - ARGS`` given its Makefile ``stdin``: ARGS without the ``-f -``, and
    the commands its recipes run (None: not such a call, or a Makefile not read whole)."""
    if program not in ("make", "gmake") or stdin is None or not reads_stdin_makefile(args):
        return None
    script = recipes(stdin)
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
