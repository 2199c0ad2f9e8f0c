"""A shell's command line (``bash``, ``sh``, ``zsh``, ``dash``, ``ksh``, ...): its options,
and where its program comes from.

bash reads its long options first, spelled out in full (``--rcfile FILE``, ``--norc``),
then its short ones: bundled (``-euxo pipefail``), ``+`` turning one off (``+x``), ``-o``
and ``-O`` (and ``+o``/``+O``) taking the next word. ``-c`` takes no value: the command is
the first operand after the options (``bash -xc CMD``, ``bash -c -- CMD``, ``bash -co
pipefail CMD``: CMD). ``-s``, or no operand at all, reads the program from its input; else
the first operand is the script. ``-`` or ``--`` ends the options. The other shells take
the same letters for the same things (an option this table does not list is doubtful, and
read as taking no value).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from amplifier_hooks.guard.table.options import Read, opts, read_options

__all__ = ["SHELL_OPTIONS", "ShellRead", "shell_read"]

SHELL_OPTIONS = opts(
    "-c:command -s:stdin -i -l,--login -r,--restricted -D -o= -O= "
    "-a -b -e -f -h -k -m -n -p -t -u -v,--verbose -x -B -C -E -H -P -T "
    "--rcfile,--init-file=:load --debug --debugger --dump-po-strings --dump-strings --help "
    "--noediting --noprofile --norc --posix --pretty-print --version",
    permute=False,
    abbreviations=False,
)
"""bash's options (the POSIX shells' are a subset). ``command``: the first operand is
the command; ``stdin``: the program is read from the shell's input; ``load``: a file
run before the program."""


class ShellRead(NamedTuple):
    """A shell's command line as it reads it."""

    read: Read
    command: int | None
    """Where the ``-c`` command is among the arguments (None: no ``-c``, or none given)."""
    script: int | None
    """Where the script is among the arguments (None: it runs ``-c`` or its input)."""
    stdin: bool
    """Whether it reads its program from its input (``-s``, or no script and no ``-c``)."""

    @property
    def loaded(self) -> tuple[str, ...]:
        """The files it runs before its program (``--rcfile F``)."""
        return self.read.values("load")

    @property
    def doubt(self) -> str | None:
        """Why what the shell runs is not all it runs, or not read in full: a file it
        runs first, or an option the table does not know (None: neither)."""
        if self.loaded:
            return f"the shell runs {self.loaded[0]!r} first"
        return None if self.read.doubt is None else f"the shell's options: {self.read.doubt}"


_VALUED = frozenset({"--rcfile", "--init-file"})


def _as_read(args: tuple[str, ...]) -> tuple[str, ...]:
    """The words with ``+x``, ``+o``, ``+O`` as ``-x``, ``-o``, ``-O`` (off and on are
    the same option to read) and a lone ``-`` as ``--``, up to the first operand."""
    words: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if word[:1] not in ("-", "+") or len(word) < 2 or word == "--":
            words.append("--" if word == "-" else word)
            break
        words.append("-" + word[1:])
        if index < len(args) and (word in _VALUED or (word[1] != "-" and word[-1] in "oO")):
            words.append(args[index])  # the option's value, never an operand
            index += 1
    return (*words, *args[index:])


@lru_cache(maxsize=1024)  # pure: a shell's words recur (`bash -c '...'`), read for each question
def shell_read(args: tuple[str, ...]) -> ShellRead:
    """``args`` (after the shell's name) as the shell reads them."""
    read = read_options(SHELL_OPTIONS, _as_read(args))
    first = len(args) - len(read.operands) if read.operands else None
    if read.has("command"):
        return ShellRead(read, first, None, False)
    if read.has("stdin") or first is None:
        return ShellRead(read, None, None, True)
    return ShellRead(read, None, first, False)
