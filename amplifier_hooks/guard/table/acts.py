"""What a program does with the words it is given: the table's vocabulary.

An `Act` is one thing a call does (read a path, write one, delete one, run a command,
reach a host, place a link); a `Reading` is every act of one call, or why the table
cannot say (`Reading.doubt`): then the call is not granted. How a program's options and
operands become acts is `entries`.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import NamedTuple

__all__ = ["Act", "Does", "Reading", "acts_of", "doubtful"]


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


def doubtful(why: str) -> Reading:
    return Reading((), why)


def acts_of(does: Does, targets: Iterable[str]) -> tuple[Act, ...]:
    return tuple(Act(does, t) for t in targets)
