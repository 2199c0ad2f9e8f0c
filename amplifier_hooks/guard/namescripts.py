"""The code bash runs from a builtin's variable names: a name's array subscript is an
arithmetic expression the shell expands when the builtin assigns, reads or tests it, so
``read 'a[$(CMD)]'``, ``printf -v 'a[$(CMD)]' x`` and ``declare 'a[$(CMD)]=1'`` run CMD
though the quotes keep the parser from seeing it; ``mapfile -C CALLBACK`` runs CALLBACK
for each batch of lines. `unwrap` judges each such text as a command of its own."""

from __future__ import annotations

__all__ = ["NAME_TAKERS", "name_scripts"]

NAME_TAKERS = frozenset({"read", "printf", "declare", "typeset", "local", "export", "readonly",
                         "unset", "let", "test", "[", "[[", "mapfile", "readarray"})  # fmt: skip
"""The builtins whose operands (or an option's value) are variable names or arithmetic
(``[[`` stands for both test keywords: its words are only what `statements` gives)."""

_RUNS = ("$(", "`", "<(", ">(")
"""What in a subscript runs a command (a plain ``a[i+1]`` runs none)."""
_MAPFILE_VALUED = frozenset("cdnOsu")
"""``mapfile`` options that take a value (``-C`` takes the callback)."""


def name_scripts(program: str, args: tuple[str, ...]) -> list[str]:
    """The shell texts ``program`` (a `NAME_TAKERS` builtin) runs from ``args``: each
    subscript that holds a command substitution, as ``: SUBSCRIPT``, and a ``mapfile``
    callback. Reading every argument, not only the names, is on the safe side: a prompt
    or a format that merely looks like ``x[$(CMD)]`` is judged as if it ran."""
    found = [": " + sub for arg in args if "[" in arg for sub in _subscripts(arg)]
    if program in ("mapfile", "readarray"):
        callback = _callback(args)
        if callback is not None and callback.strip():
            found.append(callback)
    return found


def _subscripts(text: str) -> list[str]:
    """The bracketed texts of ``text`` that hold a command substitution (brackets
    balanced, so ``a[b[$(x)]]`` gives its whole inside)."""
    found: list[str] = []
    depth, start = 0, 0
    for index, char in enumerate(text):
        if char == "[":
            if depth == 0:
                start = index + 1
            depth += 1
        elif char == "]" and depth:
            depth -= 1
            inside = text[start:index]
            if depth == 0 and any(mark in inside for mark in _RUNS):
                found.append(inside)
    if depth and any(mark in text[start:] for mark in _RUNS):
        found.append(text[start:])  # unclosed: judged all the same
    return found


def _callback(args: tuple[str, ...]) -> str | None:
    """``mapfile``'s ``-C CALLBACK`` (or ``-tCCALLBACK``), None when it has none."""
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--" or not arg.startswith("-") or arg == "-":
            return None
        for place, flag in enumerate(arg[1:], start=1):
            if flag in _MAPFILE_VALUED or flag == "C":
                rest = arg[place + 1 :]
                value = rest if rest else (args[index + 1] if index + 1 < len(args) else "")
                if flag == "C":
                    return value
                index += 0 if rest else 1
                break
        index += 1
    return None
