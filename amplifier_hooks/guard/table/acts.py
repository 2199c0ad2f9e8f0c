"""What a program does with the words it is given: the table's vocabulary.

An `Act` is one thing a call does (read a path, write one, delete one, run a command,
reach a host, place a link); a `Reading` is every act of one call, or why the table
cannot say (`Reading.doubt`): then the call is not granted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from enum import IntEnum
from typing import NamedTuple

from amplifier_hooks.guard.table.options import Options, Read, read_options

__all__ = [
    "Act",
    "Does",
    "Entry",
    "Reading",
    "acts_of",
    "doubtful",
    "entry",
    "merged",
    "option_acts",
    "plain",
]


class Does(IntEnum):
    """What an act does to its target."""

    READ = 0
    WRITE = 1
    """Creates or changes the file (its contents, mode or owner)."""
    DELETE = 2
    RUN = 3
    """Runs the target as a command or program the guard does not judge here."""
    NETWORK = 4
    """Reaches another machine (the target names it)."""
    LINK = 5
    """May place a symbolic link at or below the target (later paths through it lead
    anywhere)."""
    WRITE_INTO = 6
    """Writes names the call does not show into the target folder (unpacking)."""


class Act(NamedTuple):
    does: Does
    target: str


class Reading(NamedTuple):
    """Every act of one call, or why the table cannot tell them (then: no grant)."""

    acts: tuple[Act, ...] = ()
    doubt: str | None = None


Entry = Callable[[tuple[str, ...]], Reading]
"""A program's home in the table: its arguments (after the program name) to its acts."""


def doubtful(why: str) -> Reading:
    return Reading((), why)


def acts_of(does: Does, targets: Iterable[str]) -> tuple[Act, ...]:
    return tuple(Act(does, t) for t in targets)


_TARGETED = {"read": Does.READ, "write": Does.WRITE, "delete": Does.DELETE, "run": Does.RUN,
             "network": Does.NETWORK, "link": Does.LINK}  # fmt: skip
"""Option roles whose value is the act's target (``sort -o FILE``: write FILE)."""


def option_acts(read: Read) -> tuple[Act, ...]:
    """The acts of the options whose value is a target (`_TARGETED`); an option that
    does ``run``/``network`` with no value still runs or reaches something."""
    acts: list[Act] = []
    for given in read.given:
        does = _TARGETED.get(given.opt.does)
        if does is None or given.negated:
            continue
        acts.append(Act(does, given.value if given.value is not None else ""))
    return tuple(acts)


def entry(options: Options, operands: Does | None = Does.READ,
          check: Callable[[Read], Reading | None] | None = None) -> Entry:  # fmt: skip
    """An entry for a program whose options are ``options`` and whose operands are each
    ``operands`` (None: not paths, e.g. ``echo``'s words). ``check`` may read the command
    line further and return its own reading (a mode that changes what the operands are)."""

    def reading(args: tuple[str, ...]) -> Reading:
        read = read_options(options, args)
        if read.doubt is not None:
            return doubtful(read.doubt)
        for given in read.given:
            if given.opt.does == "doubt" and not given.negated:
                return doubtful(f"{given.opt.names[0]} is an option the guard does not read")
        if check is not None:
            special = check(read)
            if special is not None:
                return special
        acts = option_acts(read)
        if operands is not None:
            acts += acts_of(operands, read.operands)
        return Reading(acts)

    return reading


def plain(operands: Does | None = Does.READ) -> Entry:
    """A program that takes no options at all."""
    return entry(Options(()), operands)


def merged(*tables: Mapping[str, Entry]) -> dict[str, Entry]:
    found: dict[str, Entry] = {}
    for table in tables:
        overlap = found.keys() & table.keys()
        if overlap:
            raise ValueError(f"programs in two homes: {sorted(overlap)}")
        found.update(table)
    return found
