"""Wrappers: programs that run the command in their arguments (``sudo``, ``env``,
``nice``, ``timeout``, ``xargs``, ...), and how to read past their own options.

A wrapper's options are read past and the wrapped command judged; an option it does not
list is read past too (so the command is still judged) but leaves the piece doubtful: it
is not granted. The wrappers a command may be granted under have their options in the
program table (`table.wrapping`), read by its option reader, and so do those never
granted at all (`Wrapper.why`: sudo, xargs, ...).
"""

from __future__ import annotations

import shlex
from functools import lru_cache
from typing import NamedTuple

from amplifier_hooks.guard.table.options import UNKNOWN, Options, read_options
from amplifier_hooks.guard.table.wrapping import (
    ARCH_NAMES,
    RISKY,
    SHELL,
    SPLIT,
    UNGRANTED,
    WRAPPING,
)
from amplifier_hooks.guard.words import Word

__all__ = ["UNGRANTED_WHY", "WRAPPERS", "Skipped", "Wrapper", "env_folder", "is_assignment",
           "skip_options", "split_words"]  # fmt: skip


class Wrapper(NamedTuple):
    """A wrapper: its options as the table reads them (`table.wrapping`), how many
    operands come before the wrapped command (``timeout 5 cmd``: one), whether it takes
    variables (``env X=1 cmd``), and why a command under it is never granted."""

    options: Options
    operands: int = 0
    assignments: bool = False
    why: str | None = None
    """Why a command under this wrapper is never granted (None: it may be)."""


_WHY = {
    "sudo": "sudo runs it as another user",
    "doas": "doas runs it as another user",
    "xargs": "xargs runs it on input the guard cannot see",
    "watch": "watch runs it again and again",
    "chroot": "chroot runs it in another root",
    "chrt": "chrt changes how the machine schedules it",
    "taskset": "taskset pins it to processors",
    "srun": "srun runs it on the cluster's nodes",
    "salloc": "salloc runs it holding an allocation of the cluster's nodes",
}
_OPERANDS = {"timeout": 1, "chroot": 1, "chrt": 1, "taskset": 1}
"""Operands before the command: the duration, the new root, the priority, the mask."""

WRAPPERS: dict[str, Wrapper] = {
    name: Wrapper(options, _OPERANDS.get(name, 0), name == "env", _WHY.get(name))
    for name, options in {**WRAPPING, **UNGRANTED}.items()
}

_ARCH = WRAPPERS["arch"]

UNGRANTED_WHY = frozenset(_WHY.values())
"""The doubts a wrapper alone gives its command (``sudo runs it as another user``): a
piece whose only doubt is one of these is understood, just never granted."""

_ASSIGNMENT_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def is_assignment(text: str) -> bool:
    """``NAME=value``, as the shell reads a word before the program."""
    if "=" not in text:
        return False
    name, equals, _ = text.partition("=")
    return bool(equals and name) and not name[0].isdigit() and set(name) <= _ASSIGNMENT_CHARS


class Skipped(NamedTuple):
    """What follows a wrapper's options: the wrapped command's words, the variables the
    wrapper sets for it, and an option it does not know (None: none)."""

    rest: tuple[Word, ...]
    assignments: tuple[str, ...]
    unknown: str | None
    roles: frozenset[str] = frozenset()
    """What the options given do (`table.wrapping`: ``replace``, ``exec``)."""
    split: tuple[str, ...] = ()
    """The strings ``env -S`` splits into words of its own command line."""


def skip_options(words: tuple[Word, ...], spec: Wrapper) -> Skipped:
    """The words after a wrapper's options, assignments and operands, read with the
    table's reader: options up to the first operand; then its variables (env) and
    operands (timeout's duration), and options again after them (read past, so that the
    command after them is still judged)."""
    past = _read_past(tuple([w.text for w in words]), spec)
    return Skipped(words[past.at :], past.assignments, past.unknown, past.roles, past.split)


class _Past(NamedTuple):
    """`Skipped` as words: where the command starts among them, and the rest of it."""

    at: int
    assignments: tuple[str, ...]
    unknown: str | None
    roles: frozenset[str]
    split: tuple[str, ...]


def _arch_words(texts: tuple[str, ...]) -> tuple[str, ...]:
    """``arch``'s words with each architecture option before the command read as ``-A``
    (``arch -x86_64 -e A=1 node``: ``-A -e A=1 node``)."""
    out = list(texts)
    index = 0
    while index < len(out) and out[index][:1] == "-":
        if out[index] in ARCH_NAMES:
            out[index] = "-A"
        elif out[index] in ("-d", "-e"):
            index += 1  # its value
        index += 1
    return tuple(out)


@lru_cache(maxsize=1024)  # pure on the words: a wrapper's options recur across calls
def _read_past(texts: tuple[str, ...], spec: Wrapper) -> _Past:
    if spec.assignments:  # `env - cmd`: a lone dash is env's -i
        texts = tuple("-i" if t == "-" else t for t in texts)
    if spec is _ARCH:
        texts = _arch_words(texts)
    index = 0
    operands = spec.operands
    assignments: list[str] = []
    unknown: str | None = None
    roles: set[str] = set()
    split: list[str] = []
    while index < len(texts):
        read = read_options(spec.options, texts[index:])
        for given in read.given:
            roles.add(given.opt.does)
            if given.opt.does == SPLIT and given.value is not None:
                split.append(given.value)
            if unknown is None and given.opt.does in (UNKNOWN, RISKY, SHELL):
                unknown = given.opt.names[0]
        if unknown is None and read.doubt is not None:
            unknown = read.doubt
        index = len(texts) - len(read.operands)
        if index < len(texts) and spec.assignments and is_assignment(texts[index]):
            assignments.append(texts[index])
        elif index < len(texts) and operands:
            operands -= 1
        else:
            break
        index += 1
    return _Past(index, tuple(assignments), unknown, frozenset(roles), tuple(split))


def split_words(values: tuple[str, ...], options: tuple[Word, ...]) -> tuple[Word, ...] | None:
    """The words ``env -S STRING`` puts in the place of STRING, where the shell's split
    is env's: no variable, escape or comment, which env reads its own way (None)."""
    if any(w.dynamic for w in options) or any(c in v for v in values for c in "$\\#"):
        return None
    try:
        return tuple(Word(part) for value in values for part in shlex.split(value))
    except ValueError:
        return None


def env_folder(cwd: str | None, words: tuple[Word, ...]) -> str | None:
    """The folder ``env -C DIR`` (``--chdir=DIR``) runs its command in, given env's option
    words, as ``cd DIR`` would leave it (``cwd``: the folder env runs in; None: unknown).
    The command is judged there: ``env -C ~ sh -c 'echo x >> .bashrc'`` writes ~/.bashrc."""
    read = read_options(WRAPPING["env"], tuple([w.text for w in words]))
    folder = next((g.value for g in reversed(read.given)
                   if "--chdir" in g.opt.names and g.value is not None), None)  # fmt: skip
    if folder is None:
        return cwd
    if cwd is None or "$" in folder or any([w.dynamic for w in words]):
        return None  # a folder known only when the shell runs it
    return folder if folder.startswith(("/", "~")) else f"{cwd}/{folder}"
