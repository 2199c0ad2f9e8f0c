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

from amplifier_hooks.guard.awkexpr import ENDS, Parts, constants, env_reads, expression, joined
from amplifier_hooks.guard.awkexpr import string as _string

__all__ = ["AWKS", "RUNTIME", "AwkEffects", "AwkOptions", "awk_options", "read_awk"]

AWKS = frozenset({"awk", "gawk", "mawk", "nawk"})

_TOKEN = re.compile(
    r'"(?:[^"\\]|\\.)*"?|[A-Za-z_][A-Za-z0-9_]*|>>|\|&|[>|<(){};,\n]|@[a-z]+|\S', re.DOTALL
)


class AwkEffects(NamedTuple):
    writes: tuple[str, ...] = ()
    reads: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    """Shell commands the program runs."""
    feeds: tuple[str, ...] = ()
    """Of those, the ones given the program's output (``print | "sh"``)."""
    unknown: str | None = None
    """Why something the program writes, reads or runs cannot be known from its text."""
    env: tuple[str, ...] = ()
    """The environment variables it reads by name (``ENVIRON["TOKEN"]``)."""
    env_dump: bool = False
    """Whether it reads the whole environment (``for (k in ENVIRON)``)."""


# A file named by a literal folder, a part known only at run time (a field) and a literal
# data suffix (``"build/parts/" $2 ".csv"``) is a data file of that folder whatever the part
# is: its name cannot end as code, a setting or a key does.
_DATA_SUFFIX = re.compile(r"\.(csv|tsv|txt|log|dat|out|md)$")
_COMPUTED = "awk-computed"


def _path(parts: Parts) -> str | None:
    """The file named by ``parts``: known, or a data file of a literal project folder."""
    whole = joined(parts)
    if whole is not None and whole.startswith("${HOME}"):
        whole = "~" + whole[7:]
    if whole is not None:
        return None if "${" in whole else whole  # awk expands no other variable in a name
    first, last = parts[0], parts[-1]
    if len(parts) < 3 or first is None or last is None or "/" not in first or "/" in last:
        return None
    if first.startswith(("/", "~", "$", "-")) or "$" in first or ".." in first.split("/"):
        return None
    if not _DATA_SUFFIX.search(last):
        return None
    return first.rsplit("/", 1)[0] + "/" + _COMPUTED + last


def read_awk(program: str) -> AwkEffects:
    """The effects of awk ``program``, as far as its text tells."""
    tokens = _TOKEN.findall(program)
    known = constants(tokens)
    env, env_dump = env_reads(tokens)
    writes: list[str] = []
    reads: list[str] = []
    commands: list[str] = []
    feeds: list[str] = []
    unknown: str | None = None

    def value(index: int, what: str, path: bool) -> str | None:
        nonlocal unknown
        parts, _ = expression(tokens, index, known)
        found = (_path(parts) if path else _command(parts)) if parts else None
        if found is None:
            unknown = unknown or f"awk {what} named only when it runs"
        return found

    depth = 0
    printing: int | None = None  # the paren depth of the print statement being read
    printed_at = 0  # where its expression starts
    for index, token in enumerate(tokens):
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
        elif token in ENDS:
            printing = None
        elif token in ("print", "printf"):
            printing = depth
            printed_at = index + 1
        elif token.startswith("@"):
            unknown = unknown or f"awk loads code with {token}"
        elif token in (">", ">>") and printing == depth:
            path = value(index + 1, "writes to a file", True)
            if path is not None:
                writes.append(path)
        elif token in ("|", "|&") and printing == depth:
            command = value(index + 1, "pipes its output into a command", False)
            if command is not None:
                commands.append(command)
                feeds.append(command)
                script = _shell_script(tokens, printed_at, index, command, known)
                if script is not None:  # `print "cmd" | "sh"`: what the shell runs
                    commands.append(script)
        elif token in ("|", "|&") and tokens[index + 1 : index + 2] == ["getline"]:
            command = _string(tokens[index - 1]) if index else None
            held = known.get(tokens[index - 1]) if index else None
            if command is None:
                unknown = unknown or "awk runs a command named only when it runs"
            if command is None and held is not None:  # judged, and still asked: the line
                unknown = f"awk runs a command held in a variable: {held!r}"  # hides it
            command = command if command is not None else held
            if command is not None:
                commands.append(command)
        elif token == "<" and "getline" in tokens[max(0, index - 3) : index]:
            path = value(index + 1, "reads a file", True)
            if path is not None:
                reads.append(path)
        elif token == "system":
            if tokens[index + 1 : index + 2] != ["("]:
                continue
            parts, at = expression(tokens, index + 2, known)
            command = _command(parts) if tokens[at : at + 1] == [")"] else None
            if command is None:
                unknown = unknown or "awk runs a command named only when it runs"
            if command is not None or any(part for part in parts):
                # what can be read of it is judged: its deny wins over the ask
                commands.append(command or _partly(parts))
    return AwkEffects(tuple(writes), tuple(reads), tuple(commands), tuple(feeds), unknown, env,
                      env_dump)  # fmt: skip


def _command(parts: Parts) -> str | None:
    return joined(parts)


_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "/bin/sh", "/bin/bash", "/usr/bin/sh",
                     "/usr/bin/bash", "sh -s", "bash -s"})  # fmt: skip
"""A command that runs the lines it reads as a shell script."""


def _shell_script(tokens: list[str], start: int, end: int, command: str,
                  known: dict[str, str]) -> str | None:  # fmt: skip
    """The literal text a ``print`` (tokens ``start``..``end``) hands to a shell, as the
    command that shell runs; None when the command is no shell or the text is computed."""
    if command.strip() not in _SHELLS or start >= end:
        return None
    parts, at = expression(tokens, start, known)
    text = joined(parts) if at == end and parts else None
    return text if text is not None and text.strip() else None


RUNTIME = "${AWK_RUNTIME_VALUE}"
"""A run-time part of a command the program runs, as a shell variable the guard cannot know."""


def _partly(parts: Parts) -> str:
    return "".join(RUNTIME if part is None else part for part in parts)


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
