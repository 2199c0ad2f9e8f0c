"""Wrappers: programs that run the command in their arguments (``sudo``, ``env``,
``nice``, ``timeout``, ``xargs``, ...), and how to read past their own options.

A wrapper's options are read past and the wrapped command judged; an option it does not
list is read past too (so the command is still judged) but leaves the piece doubtful: it
is not granted. The wrappers a command may be granted under have their options in the
program table (`table.wrapping`), read by its option reader; those never granted at all
(`Wrapper.why`: sudo, xargs, ...) are read past here by name.
"""

from __future__ import annotations

from typing import NamedTuple

from amplifier_hooks.guard.table.options import UNKNOWN, Options, read_options
from amplifier_hooks.guard.table.wrapping import RISKY, WRAPPING
from amplifier_hooks.guard.words import Word

__all__ = ["WRAPPERS", "Skipped", "Wrapper", "is_assignment", "shell_script", "skip_options"]


class Wrapper(NamedTuple):
    """A wrapper's options: those that take a value, those that take none, and how many
    operands come before the wrapped command (``timeout 5 cmd``: one)."""

    valued: frozenset[str] = frozenset()
    flags: frozenset[str] | None = frozenset()
    """Options that take no value (None: any option is read past without doubt, for
    wrappers that are never granted anyway)."""
    operands: int = 0
    assignments: bool = False
    why: str | None = None
    """Why a command under this wrapper is never granted (None: it may be)."""
    risky: frozenset[str] = frozenset()
    """Options (valued or not) it reads past that leave the command doubtful."""
    options: Options | None = None
    """Its options as the table reads them (`table.wrapping`; then ``valued``, ``flags``
    and ``risky`` are not used)."""


def _set(text: str) -> frozenset[str]:
    return frozenset(text.split())


WRAPPERS: dict[str, Wrapper] = {
    "sudo": Wrapper(
        _set(
            "-u -g -C -D -h -p -r -t -U -T --user --group --chdir --host "
            "--prompt --role --type --other-user --command-timeout --close-from"
        ),
        None,
        why="sudo runs it as another user",
    ),
    "doas": Wrapper(_set("-u -C"), None, why="doas runs it as another user"),
    **{name: Wrapper(options=options) for name, options in WRAPPING.items()},
    "env": Wrapper(options=WRAPPING["env"], assignments=True),
    "timeout": Wrapper(options=WRAPPING["timeout"], operands=1),
    "chrt": Wrapper(flags=None, operands=1, why="chrt changes how the machine schedules it"),
    "taskset": Wrapper(flags=None, operands=1, why="taskset pins it to processors"),
    "watch": Wrapper(
        _set("-n --interval -d --differences -q --equexit"),
        _set(
            "-t --no-title -b --beep -e --errexit -g --chgexit -c --color "
            "-C --no-color -p --precise -w --no-wrap -r --no-rerun"
        ),
        why="watch runs it again and again",
    ),
    "chroot": Wrapper(
        _set("--userspec --groups"), None, operands=1, why="chroot runs it in another root"
    ),
    "xargs": Wrapper(
        _set(
            "-I -i -n -P -d -E -e -L -l -s -a --max-args --max-procs "
            "--delimiter --arg-file --max-lines --replace --eof"
        ),
        None,
        why="xargs runs it on input the guard cannot see",
    ),
}

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


def skip_options(words: tuple[Word, ...], spec: Wrapper) -> Skipped:
    """The words after a wrapper's options, assignments and operands."""
    if spec.options is not None:
        return _read_past(words, spec, spec.options)
    index = 0
    operands = spec.operands
    assignments: list[str] = []
    unknown: str | None = None
    while index < len(words):
        text = words[index].text
        if text == "--":
            index += 1
            break
        if text == "-" and spec.flags is not None and "-" in spec.flags:
            index += 1  # `env - cmd`: a lone dash is env's -i
            continue
        if text.startswith("-") and len(text) > 1:
            name = text.split("=", 1)[0]
            short_valued = name[:2] in spec.valued and len(name) > 2 and not name.startswith("--")
            valued = name in spec.valued and "=" not in text and not short_valued
            known = (
                name in spec.valued
                or short_valued
                or (spec.flags is not None and (name in spec.flags or _bundled(name, spec.flags)))
            )
            if (spec.flags is not None and not known and not name[1:].isdigit()) or (
                name in spec.risky or name[:2] in spec.risky
            ):
                unknown = unknown or text
            index += 2 if valued else 1
            continue
        if spec.assignments and is_assignment(text):
            assignments.append(text)
            index += 1
            continue
        if operands:
            operands -= 1
            index += 1
            continue
        break
    return Skipped(words[index:], tuple(assignments), unknown)


def _read_past(words: tuple[Word, ...], spec: Wrapper, options: Options) -> Skipped:
    """`skip_options` with the table's reader: options up to the first operand; then its
    variables (env) and operands (timeout's duration), and options again after them
    (read past, so that the command after them is still judged)."""
    texts = tuple(w.text for w in words)
    if spec.assignments:  # `env - cmd`: a lone dash is env's -i
        texts = tuple("-i" if t == "-" else t for t in texts)
    index = 0
    operands = spec.operands
    assignments: list[str] = []
    unknown: str | None = None
    while index < len(texts):
        read = read_options(options, texts[index:])
        for given in read.given:
            if unknown is None and given.opt.does in (UNKNOWN, RISKY):
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
    return Skipped(words[index:], tuple(assignments), unknown)


def _bundled(name: str, flags: frozenset[str]) -> bool:
    return (not name.startswith("--") and len(name) > 2
            and all("-" + c in flags for c in name[1:]))  # fmt: skip


def shell_script(words: tuple[Word, ...]) -> tuple[bool, Word | None]:
    """(has -c, the script word) for a shell's arguments: ``bash -lc 'x'`` runs ``x``."""
    has_c = False
    index = 0
    while index < len(words):
        text = words[index].text
        if text in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            index += 2
            continue
        if text.startswith("-") and not text.startswith("--") and "c" in text[1:]:
            has_c = True
        elif not text.startswith(("-", "+")):
            return has_c, words[index] if has_c else None
        index += 1
    return has_c, None
