"""What an awk program does besides reading its input: the files it writes (``print >
"f"``), reads (``getline < "f"``) and the commands it runs (``system("c")``, ``"c" |
getline``, ``print | "c"``).

awk is a language given its code on the command line; the guard reads that code the way
it reads a shell command's: a file or command named by a string literal is known (and
judged like any other), one computed at run time is not (the call is then asked).
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["AWKS", "AwkEffects", "AwkOptions", "awk_options", "read_awk"]

AWKS = frozenset({"awk", "gawk", "mawk", "nawk"})

_TOKEN = re.compile(
    r'"(?:[^"\\]|\\.)*"?|[A-Za-z_][A-Za-z0-9_]*|>>|\|&|[>|<(){};,\n]|@[a-z]+|\S', re.DOTALL
)
_ENDS = frozenset({";", "}", "{", "\n"})


class AwkEffects(NamedTuple):
    writes: tuple[str, ...] = ()
    reads: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    """Shell commands the program runs."""
    feeds: tuple[str, ...] = ()
    """Of those, the ones given the program's output (``print | "sh"``)."""
    unknown: str | None = None
    """Why something the program writes, reads or runs cannot be known from its text."""


def _string(token: str) -> str | None:
    if len(token) >= 2 and token[0] == '"' and token[-1] == '"':
        return re.sub(r"\\(.)", r"\1", token[1:-1])
    return None


def read_awk(program: str) -> AwkEffects:
    """The effects of awk ``program``, as far as its text tells."""
    tokens = _TOKEN.findall(program)
    writes: list[str] = []
    reads: list[str] = []
    commands: list[str] = []
    feeds: list[str] = []
    unknown: str | None = None

    def target(index: int, what: str) -> str | None:
        nonlocal unknown
        token = tokens[index] if index < len(tokens) else ""
        text = _string(token)
        following = tokens[index + 1] if index + 1 < len(tokens) else ";"
        if text is None or following not in _ENDS | {")", ">", "|", ","}:
            unknown = unknown or f"awk {what} named only when it runs"
            return None
        return text

    depth = 0
    printing: int | None = None  # the paren depth of the print statement being read
    for index, token in enumerate(tokens):
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
        elif token in _ENDS:
            printing = None
        elif token in ("print", "printf"):
            printing = depth
        elif token.startswith("@"):
            unknown = unknown or f"awk loads code with {token}"
        elif token in (">", ">>") and printing == depth:
            path = target(index + 1, "writes to a file")
            if path is not None:
                writes.append(path)
        elif token in ("|", "|&") and printing == depth:
            command = target(index + 1, "pipes its output into a command")
            if command is not None:
                commands.append(command)
                feeds.append(command)
        elif token in ("|", "|&") and tokens[index + 1 : index + 2] == ["getline"]:
            command = _string(tokens[index - 1]) if index else None
            if command is None:
                unknown = unknown or "awk runs a command named only when it runs"
            else:
                commands.append(command)
        elif token == "<" and "getline" in tokens[max(0, index - 3) : index]:
            path = target(index + 1, "reads a file")
            if path is not None:
                reads.append(path)
        elif token == "system":
            if tokens[index + 1 : index + 2] != ["("]:
                continue
            command = _string(tokens[index + 2]) if index + 2 < len(tokens) else None
            if command is None or tokens[index + 3 : index + 4] != [")"]:
                unknown = unknown or "awk runs a command named only when it runs"
            else:
                commands.append(command)
    return AwkEffects(tuple(writes), tuple(reads), tuple(commands), tuple(feeds), unknown)


_AWK_VALUED = frozenset({"-f", "--file", "-e", "--source", "-i", "--include", "-l", "--load",
                         "-F", "--field-separator", "-v", "--assign"})  # fmt: skip


class AwkOptions(NamedTuple):
    """What awk's options say: which words are its program text, whether it rewrites the
    files it reads (``-i inplace``), what it loads that the guard does not read."""

    code: tuple[int, ...]
    inplace: bool
    why: str | None
    files_at: int
    """The index of the first word after the options and the program: its files."""


def awk_options(program: str, args: tuple[str, ...]) -> AwkOptions:
    """awk's options of ``args`` read as awk reads them."""
    code: list[int] = []
    from_file = inplace = False
    why: str | None = None
    index = 0
    while index < len(args):
        text = args[index]
        if text == "--":
            index += 1
            break
        if text in _AWK_VALUED:
            value = args[index + 1] if index + 1 < len(args) else ""
            if text in ("-f", "--file"):
                from_file = True
            elif text in ("-e", "--source"):
                code.append(index + 1)
            elif text in ("-i", "--include") and value == "inplace":
                inplace = True
            elif text in ("-i", "--include", "-l", "--load"):
                why = f"{program} loads {value!r}, which the guard does not read"
            index += 2
            continue
        if not text.startswith("-") or text == "-":
            break
        from_file = from_file or text.startswith(("-f", "--file="))
        inplace = inplace or text in ("-iinplace", "--include=inplace")
        index += 1
    if not from_file and not code and index < len(args):
        code.append(index)
        index += 1
    return AwkOptions(tuple(code), inplace, why, index)
