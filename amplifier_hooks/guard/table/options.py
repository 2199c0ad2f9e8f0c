"""Reading a program's options as the program reads them.

Most programs parse their command line with getopt: short options bundle (``-rf``), a
short option's value may be attached (``-n5``, ``-ofile``) or the next word; GNU long
options take ``--name=value`` or ``--name value``, may be abbreviated to any unique prefix
(``--delet`` is ``--delete``) and some have a ``--no-`` negation; ``--`` ends the options,
and (GNU) options may follow operands. A reading that meets an option the table does not
list, or an abbreviation that could be two, says so (`Read.doubt`): then nothing about the
call is granted. Spellings a program accepts beyond these (issue 34's list) are added to
`Options` as fields, so each program's entry states them.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import NamedTuple

__all__ = ["Given", "Opt", "Options", "Read", "Takes", "opts", "read_options"]


class Takes(IntEnum):
    """Whether an option takes a value."""

    NOTHING = 0
    VALUE = 1
    """The rest of the word (``-ofile``, ``--output=file``) or the next word."""
    OPTIONAL = 2
    """Only attached (``-i.bak``, ``--in-place=.bak``): the next word is never its value."""


class Opt(NamedTuple):
    """One option: its spellings (``-o``, ``--output``), whether it takes a value, and a
    name for what it does that a program's entry reads (``"write"``, ``"run"``, ...)."""

    names: tuple[str, ...]
    takes: Takes = Takes.NOTHING
    does: str = ""
    negatable: bool = False
    """``--no-NAME`` is a spelling too (it turns the option off)."""


class Given(NamedTuple):
    """An option as found on the command line: its first spelling, and its value."""

    opt: Opt
    value: str | None
    negated: bool = False


class Read(NamedTuple):
    """What a command line says: the options given (in order), the operands, and why it
    could not be read in full (None: it was)."""

    given: tuple[Given, ...]
    operands: tuple[str, ...]
    doubt: str | None = None

    def has(self, does: str) -> bool:
        """Whether an option that does ``does`` was given (and not negated)."""
        return any(g.opt.does == does and not g.negated for g in self.given)

    def values(self, does: str) -> tuple[str, ...]:
        return tuple(g.value for g in self.given if g.opt.does == does and g.value is not None)


class Options:
    """A program's options, compiled for reading (build once per program).

    ``permute``: options may follow operands (GNU); else the first operand ends them.
    ``digits``: ``-5`` is a count (``head -5``). ``abbreviations``: long options may be
    shortened to a unique prefix. ``single_dash_long``: long options are spelled with one
    dash (``find``-style programs have their own readers instead).
    """

    __slots__ = ("abbreviations", "digits", "longs", "permute", "shorts")

    def __init__(self, options: Iterable[Opt], *, permute: bool = True, digits: bool = False,
                 abbreviations: bool = True) -> None:  # fmt: skip
        self.shorts: dict[str, Opt] = {}
        self.longs: dict[str, tuple[Opt, bool]] = {}
        """Each long spelling (without ``--``): its option, and whether it is a negation."""
        for opt in options:
            for name in opt.names:
                if name.startswith("--"):
                    self.longs[name[2:]] = (opt, False)
                    if opt.negatable:
                        self.longs["no-" + name[2:]] = (opt, True)
                elif name.startswith("-") and len(name) == 2:
                    self.shorts[name[1]] = opt
                else:
                    raise ValueError(f"option spelling {name!r}: -x or --name")
        self.permute = permute
        self.digits = digits
        self.abbreviations = abbreviations

    def long(self, name: str) -> tuple[Opt, bool] | str:
        """The option ``--name`` spells, or why none does."""
        found = self.longs.get(name)
        if found is not None:
            return found
        if self.abbreviations and name:
            matches = {k: v for k, v in self.longs.items() if k.startswith(name)}
            distinct = {(v[0].names, v[1]) for v in matches.values()}
            if len(distinct) == 1:
                return next(iter(matches.values()))
            if matches:
                return f"--{name} could be any of {', '.join('--' + k for k in sorted(matches))}"
        return f"unknown option --{name}"


def read_options(spec: Options, args: Iterable[str]) -> Read:
    """Read ``args`` as a program with ``spec`` would."""
    given: list[Given] = []
    operands: list[str] = []
    words = list(args)
    index = 0
    ended = False
    while index < len(words):
        word = words[index]
        index += 1
        if ended or word == "-" or not word.startswith("-"):
            operands.append(word)
            if not spec.permute:
                ended = True
            continue
        if word == "--":
            ended = True
            continue
        if word.startswith("--"):
            name, equals, value = word[2:].partition("=")
            found = spec.long(name)
            if isinstance(found, str):
                return Read(tuple(given), tuple(operands), found)
            opt, negated = found
            if opt.takes == Takes.NOTHING or negated:
                if equals:
                    return Read(tuple(given), tuple(operands), f"--{name} takes no value")
                given.append(Given(opt, None, negated))
            elif equals or opt.takes == Takes.OPTIONAL:
                given.append(Given(opt, value if equals else None))
            elif index < len(words):
                given.append(Given(opt, words[index]))
                index += 1
            else:
                return Read(tuple(given), tuple(operands), f"--{name} needs a value")
            continue
        if spec.digits and word[1:].isdigit():
            continue  # `head -5`: a count
        at = 1
        while at < len(word):
            letter = word[at]
            opt_or_none = spec.shorts.get(letter)
            if opt_or_none is None:
                return Read(tuple(given), tuple(operands), f"unknown option -{letter}")
            opt = opt_or_none
            at += 1
            if opt.takes == Takes.NOTHING:
                given.append(Given(opt, None))
                continue
            rest = word[at:]
            if rest or opt.takes == Takes.OPTIONAL:
                given.append(Given(opt, rest or None))
            elif index < len(words):
                given.append(Given(opt, words[index]))
                index += 1
            else:
                return Read(tuple(given), tuple(operands), f"-{letter} needs a value")
            break
    return Read(tuple(given), tuple(operands))


def opts(text: str, *, permute: bool = True, digits: bool = False,
         abbreviations: bool = True) -> Options:  # fmt: skip
    """`Options` from a compact list, one option per blank-separated item: spellings
    joined by ``,``; then ``=`` (takes a value) or ``=?`` (an attached value only); then
    ``:role`` (what it does); ``!`` last: ``--no-`` negates it. ``"-o,--output=:write -r"``.
    """
    found: list[Opt] = []
    for item in text.split():
        negatable = item.endswith("!")
        item = item.rstrip("!")
        item, _, does = item.partition(":")
        takes = Takes.NOTHING
        if item.endswith("=?"):
            item, takes = item[:-2], Takes.OPTIONAL
        elif item.endswith("="):
            item, takes = item[:-1], Takes.VALUE
        found.append(Opt(tuple(item.split(",")), takes, does, negatable))
    return Options(found, permute=permute, digits=digits, abbreviations=abbreviations)
