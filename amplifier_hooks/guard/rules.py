"""The rule schema: what a pack or a bundle writes (its compiled matcher: `rulematch`).

A rule names a decision, a reason a model can act on, and match fields over what a call
*does*: the program and subcommand, flags however they are spelled, arguments, the paths
it reads or writes (resolved), where its output flows, whether it uses the network. Every
field given must hold; absent fields match anything.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from amplifier_hooks.guard.model import Decision
from amplifier_hooks.guard.pathplaces import LOCATIONS
from amplifier_hooks.guard.wordglobs import WordGlobs

__all__ = ["ArgSpec", "ArgsMatch", "FlagSpec", "FlagsMatch", "PathsMatch", "Rule", "RuleId"]

RuleId = str
_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


def _listed(value: Any) -> Any:
    return [value] if isinstance(value, str) else value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FlagsMatch(_Strict):
    """Flags as sets: ``-rf``, ``-r -f``, ``-fr`` are the same two flags. One entry names
    spellings of one flag: ``"-r|-R|--recursive"``."""

    any: tuple[str, ...] = ()
    all: tuple[str, ...] = ()
    none: tuple[str, ...] = ()

    _norm = field_validator("any", "all", "none", mode="before")(lambda v: _listed(v))

    def compiled(self) -> tuple[tuple[frozenset[str], ...], ...]:
        return tuple(tuple(frozenset(e.split("|")) for e in group)
                     for group in (self.any, self.all, self.none))  # fmt: skip


class ArgsMatch(_Strict):
    """Globs on the command's arguments (unquoted, flags included): ``any`` holds when
    some argument matches one of them, ``all`` when every argument does, ``none`` when
    none does, ``each`` when every entry is matched by some argument (one entry lists
    alternatives: ``"uninstall|remove"``), which says "this word and that word"."""

    any: tuple[str, ...] = ()
    all: tuple[str, ...] = ()
    none: tuple[str, ...] = ()
    each: tuple[str, ...] = ()

    _norm = field_validator("any", "all", "none", "each", mode="before")(lambda v: _listed(v))

    def compiled(self) -> ArgSpec:
        each = tuple(_words(tuple(e.split("|"))) for e in self.each)
        return (_words(self.any), _words(self.all), _words(self.none),
                tuple(p for p in each if p is not None))  # fmt: skip


class PathsMatch(_Strict):
    """Paths the call reads or writes, resolved: where they are, and globs on them
    (``~/.ssh/id_*``, ``/etc/shadow``, ``**/.env``; relative globs are workspace-relative)."""

    where: tuple[str, ...] = ()
    glob: tuple[str, ...] = ()
    not_glob: tuple[str, ...] = ()
    access: Literal["read", "write", "any", "move", "change", "whole", "run"] = "any"

    _norm = field_validator("where", "glob", "not_glob", mode="before")(lambda v: _listed(v))

    @field_validator("where")
    @classmethod
    def _known(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        unknown = set(value) - LOCATIONS
        if unknown:
            raise ValueError(f"unknown place {sorted(unknown)}; known: {sorted(LOCATIONS)}")
        return value


class Rule(_Strict):
    """One rule of a pack or a bundle."""

    id: RuleId
    decision: Decision
    reason: str = Field(min_length=1)
    tool: tuple[str, ...] | None = None
    program: tuple[str, ...] | None = None
    not_program: tuple[str, ...] = ()
    subcommand: tuple[str, ...] | None = None
    flags: FlagsMatch | None = None
    args: ArgsMatch | None = None
    paths: PathsMatch | None = None
    pipes_to: tuple[str, ...] | None = None
    network: bool | None = None
    wrapped: tuple[str, ...] | None = None
    not_wrapped: tuple[str, ...] = ()
    """Marks that keep the rule from holding (``@values-unread``: a reader printing no
    value, `guard.valueless`)."""
    opaque: bool | None = None
    function: bool | None = None
    """The program is a shell function the same command defines (its body is judged as
    pieces of its own)."""
    inline_code: bool | None = None
    """The program is an interpreter given its code on the command line (``python -c``,
    ``perl -e``), which the guard cannot read."""
    reads_only: bool | None = None
    """The table reads the call in full and finds it only reads (`readsonly`): ``false``
    keeps a rule on a kind of call (``sudo``, ``git config KEY``) off the calls of that
    kind that only look."""
    remote: bool | None = None
    """The program runs a command on another machine (``ssh host CMD``; ``{host}`` in the
    reason names the machine)."""
    env: ArgsMatch | None = None
    """Globs on the ``NAME=value`` settings the program runs with (``HOME=/tmp/x cmd``,
    ``env NAME=value cmd``), read like ``args``."""
    branch: tuple[str, ...] | None = None
    """Globs on the branches a ``git push`` updates (its refspecs' destinations, else the
    current branch read from the repository; ``(unknown)`` when it cannot be read).
    ``{branch}`` in the reason names them."""

    _norm = field_validator(
        "tool",
        "program",
        "not_program",
        "subcommand",
        "pipes_to",
        "wrapped",
        "not_wrapped",
        "branch",
        mode="before",
    )(lambda v: _listed(v))

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not _ID.match(value):
            raise ValueError(f"rule id {value!r}: lowercase letters, digits, '.', '_', '-'")
        return value


def _words(patterns: tuple[str, ...]) -> WordGlobs | None:
    return WordGlobs(patterns) if patterns else None


FlagSpec = tuple[tuple[frozenset[str], ...], ...]
ArgSpec = tuple[WordGlobs | None, WordGlobs | None, WordGlobs | None, tuple[WordGlobs, ...]]
"""``any``, ``all``, ``none`` and ``each`` of `ArgsMatch`, compiled."""
