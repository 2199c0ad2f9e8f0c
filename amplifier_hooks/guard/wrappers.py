"""Wrappers: programs that run the command in their arguments (``sudo``, ``env``,
``nice``, ``timeout``, ``xargs``, ...), and how to read past their own options.

A wrapper's options are read past and the wrapped command judged; an option the table
here does not list is read past too (so the command is still judged) but leaves the
piece doubtful: it is not granted. Some wrappers are never granted at all (`_Wrapper.why`).
"""

from __future__ import annotations

from typing import NamedTuple

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
    "env": Wrapper(
        _set("-u --unset -C --chdir -P"),
        _set(
            "-i --ignore-environment -0 --null -v --debug --default-signal "
            "--ignore-signal --block-signal --list-signal-handling -"
        ),
        assignments=True,
        risky=_set("-C --chdir -P"),
    ),
    "command": Wrapper(flags=_set("-p")),
    "builtin": Wrapper(),
    "exec": Wrapper(_set("-a"), _set("-c -l")),
    "nice": Wrapper(_set("-n --adjustment")),
    "nohup": Wrapper(),
    "time": Wrapper(_set("-f --format"), _set("-p --portability -v --verbose")),
    "timeout": Wrapper(
        _set("-s --signal -k --kill-after"),
        _set("--preserve-status --foreground -v --verbose"),
        operands=1,
    ),
    "stdbuf": Wrapper(_set("-i -o -e --input --output --error")),
    "ionice": Wrapper(_set("-c -n -p -P -u --class --classdata"), _set("-t --ignore")),
    "setsid": Wrapper(flags=_set("-c --ctty -f --fork -w --wait")),
    "chrt": Wrapper(flags=None, operands=1, why="chrt changes how the machine schedules it"),
    "taskset": Wrapper(flags=None, operands=1, why="taskset pins it to processors"),
    "unbuffer": Wrapper(flags=_set("-p")),
    "chronic": Wrapper(flags=_set("-e -v")),
    "caffeinate": Wrapper(_set("-t -w"), _set("-d -i -m -s -u")),
    "watch": Wrapper(
        _set("-n --interval -d --differences -q --equexit"),
        _set(
            "-t --no-title -b --beep -e --errexit -g --chgexit -c --color "
            "-C --no-color -p --precise -w --no-wrap -r --no-rerun"
        ),
        why="watch runs it again and again",
    ),
    "busybox": Wrapper(),
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
