"""Reading a program's options as the program reads them: the guard's one option reader.

Most programs parse their command line with getopt: short options bundle (``-rf``), a
short option's value may be attached (``-n5``, ``-ofile``) or the next word; GNU long
options take ``--name=value`` or ``--name value`` and may be abbreviated to any unique
prefix (``--delet`` is ``--delete``; an exact name wins over a longer one); git's
parse-options also reads ``--no-NAME`` as "not NAME" for any option (and ``--NAME`` for
one named ``no-NAME``). Where an option comes twice, the last one wins (``--no-force
--force`` is force). ``--`` ends the options, and (GNU) options may follow operands.

A reading that meets an option the table does not list, an abbreviation that could be
two, or a word in an option's place that starts with a character that only looks like a
dash says so (`Read.doubt`): then nothing about the call is granted. The reading goes on
past it, and an abbreviation of several is read as each option it could be, so a rule
that denies or asks still sees them (the program itself refuses such a word and runs
nothing).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import NamedTuple

__all__ = ["LOOKALIKE", "Given", "Opt", "Options", "Read", "Spelled", "Takes",
           "looks_like_option", "opts", "read_options"]  # fmt: skip

LOOKALIKE = frozenset("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
                      "\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u00ab\u00bb"
                      "\uff02\uff07\u2032\u2033")  # fmt: skip
"""Dashes and quotes that look like ``-`` and ``'``/``"`` but are other characters."""


def looks_like_option(args: Iterable[str]) -> str | None:
    """The first word (before ``--``) that starts with a look-alike dash or quote: it reads
    as an option or a quoted word to a person, and as something else to the program."""
    for arg in args:
        if arg == "--":
            return None
        if arg[:1] in LOOKALIKE:
            return arg
    return None


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


UNKNOWN = "unknown"
"""The role of an option the table does not list (it is read as taking no value)."""


class Given(NamedTuple):
    """An option as found on the command line: its first spelling, and its value."""

    opt: Opt
    value: str | None
    negated: bool = False


def _path_like(value: str) -> bool:
    return value.startswith(("/", "~", "."))


class Read(NamedTuple):
    """What a command line says: the options given (in order), the operands, and why it
    could not be read in full (None: it was)."""

    given: tuple[Given, ...]
    operands: tuple[str, ...]
    doubt: str | None = None
    words: tuple[str, ...] = ()
    """The operands and the options' values, in command-line order (a value attached with
    ``=`` only when it starts like a path): every word that may name a path."""

    def _on(self) -> dict[Opt, bool]:
        state: dict[Opt, bool] = {}
        for given in self.given:  # the last one wins
            state[given.opt] = not given.negated
        return state

    def has(self, does: str) -> bool:
        """Whether an option that does ``does`` is on (given, and not negated after)."""
        return any(on and opt.does == does for opt, on in self._on().items())

    def values(self, does: str) -> tuple[str, ...]:
        return tuple(g.value for g in self.given if g.opt.does == does and g.value is not None)

    def flags(self) -> frozenset[str]:
        """Every spelling of every option that is on (``-f`` and ``--force`` for either),
        and ``--no-NAME`` for one turned off: the names rules match."""
        if not self.given:
            return _NO_FLAGS  # none given (`git status`): nothing to build
        found: set[str] = set()
        for opt, on in self._on().items():
            if on:
                found.update(opt.names)
            else:
                found.update("--no-" + n[2:] for n in opt.names if n.startswith("--"))
        return frozenset(found)


_NO_FLAGS: frozenset[str] = frozenset()


class Spelled(NamedTuple):
    """A command line as the rules see it: the flags (every spelling of each option that
    is on), the operands, every word that may name a path (`Read.words`), the subcommand
    (git's), and why it could not be read in full."""

    flags: frozenset[str]
    operands: tuple[str, ...]
    words: tuple[str, ...]
    subcommand: str | None
    doubt: str | None

    @classmethod
    def of(cls, read: Read, subcommand: str | None = None,
           flags: frozenset[str] = frozenset()) -> Spelled:  # fmt: skip
        given = read.flags()
        return cls(given | flags if flags else given, read.operands, read.words, subcommand,
                   read.doubt)  # fmt: skip


class Options:
    """A program's options, compiled for reading (build once per program).

    ``permute``: options may follow operands (GNU); else the first operand ends them.
    ``digits``: ``-5`` is a count (``head -5``). ``abbreviations``: long options may be
    shortened to a unique prefix. ``negations``: every long option also has a ``--no-``
    spelling, as git's do. ``switches``: 7-Zip's way instead of getopt's: one dash, a
    name of any length matched in any case (the longest that fits), its value glued on
    (``-o.claude``, ``-aoa``); no bundles, no long options.
    """

    __slots__ = ("abbreviations", "digits", "longs", "permute", "shorts", "switches")

    def __init__(self, options: Iterable[Opt], *, permute: bool = True, digits: bool = False,
                 abbreviations: bool = True, negations: bool = False,
                 switches: bool = False) -> None:  # fmt: skip
        self.shorts: dict[str, Opt] = {}
        self.longs: dict[str, tuple[Opt, bool]] = {}
        """Each long spelling (without ``--``): its option, and whether it is a negation."""
        self.switches: dict[str, Opt] | None = {} if switches else None
        """Each switch name (without ``-``, in lower case): its option."""
        negated: dict[str, tuple[Opt, bool]] = {}
        for opt in options:
            for name in opt.names:
                if self.switches is not None and name.startswith("-"):
                    self.switches[name[1:].lower()] = opt
                elif name.startswith("--"):
                    self.longs[name[2:]] = (opt, False)
                    if opt.negatable or negations:
                        bare = name[2:]
                        negated[bare[3:] if bare.startswith("no-") else "no-" + bare] = (opt, True)
                elif name.startswith("-") and len(name) == 2:
                    self.shorts[name[1]] = opt
                else:
                    raise ValueError(f"option spelling {name!r}: -x or --name")
        for name, found in negated.items():
            self.longs.setdefault(name, found)  # a spelling of its own wins
        self.permute = permute
        self.digits = digits
        self.abbreviations = abbreviations

    def long(self, name: str) -> tuple[tuple[tuple[Opt, bool], ...], str | None]:
        """The options ``--name`` may spell (one, unless it is an abbreviation of several),
        and why it is doubtful (None: it is not)."""
        found = self.longs.get(name)
        if found is not None:
            return (found,), None
        if self.abbreviations and name:
            matches = {k: v for k, v in self.longs.items() if k.startswith(name)}
            distinct = tuple(dict.fromkeys(matches.values()))
            if len(distinct) == 1:
                return distinct, None
            if matches:
                could = ", ".join("--" + k for k in sorted(matches))
                return distinct, f"--{name} could be any of {could}"
        return (), f"unknown option --{name}"


_NOTHING_GIVEN = Read((), ())
"""What no word says (shared: `git status` gives its subcommand nothing)."""


def read_options(spec: Options, args: Iterable[str]) -> Read:
    """Read ``args`` as a program with ``spec`` would."""
    given: list[Given] = []
    operands: list[str] = []
    loose: list[str] = []
    doubts: list[str] = []
    words = list(args)
    if not words:
        return _NOTHING_GIVEN
    index = 0
    ended = False
    while index < len(words):
        word = words[index]
        index += 1
        if ended or word == "-" or not word.startswith("-"):
            if not ended and word[:1] in LOOKALIKE:
                doubts.append(f"{word[:20]!r} starts with a character that only looks like "
                              "a dash or quote")  # fmt: skip
            operands.append(word)
            loose.append(word)
            if not spec.permute:
                ended = True
            continue
        if word == "--":
            ended = True
            continue
        if word.startswith("--"):
            name, equals, value = word[2:].partition("=")
            found, doubt = spec.long(name)
            if doubt is not None:
                doubts.append(doubt)
            if not found:  # read as an option with no value
                given.append(Given(Opt((f"--{name}",), does=UNKNOWN), value if equals else None))
            takes_next = False
            for opt, negated in found:
                if opt.takes == Takes.NOTHING or negated:
                    if equals:
                        doubts.append(f"--{name} takes no value")
                    given.append(Given(opt, None, negated))
                elif equals or opt.takes == Takes.OPTIONAL or len(found) > 1:
                    given.append(Given(opt, value if equals else None))
                else:
                    takes_next = True
                    given.append(Given(opt, words[index] if index < len(words) else None))
            if equals and _path_like(value):
                loose.append(value)
            if takes_next:
                if index < len(words):
                    loose.append(words[index])
                    index += 1
                else:
                    doubts.append(f"--{name} needs a value")
            continue
        if spec.digits and word[1:].isdigit():
            continue  # `head -5`: a count
        if spec.switches is not None:
            given.append(_switch(spec.switches, word, doubts))
            continue
        at = 1
        while at < len(word):
            letter = word[at]
            at += 1
            opt_or_none = spec.shorts.get(letter)
            if opt_or_none is None:
                doubts.append(f"unknown option -{letter}")
                given.append(Given(Opt((f"-{letter}",), does=UNKNOWN), None))
                continue
            opt = opt_or_none
            if opt.takes == Takes.NOTHING:
                given.append(Given(opt, None))
                continue
            rest = word[at:]
            if rest or opt.takes == Takes.OPTIONAL:
                given.append(Given(opt, rest or None))
            elif index < len(words):
                given.append(Given(opt, words[index]))
                loose.append(words[index])
                index += 1
            else:
                doubts.append(f"-{letter} needs a value")
                given.append(Given(opt, None))
            break
    return Read(tuple(given), tuple(operands), doubts[0] if doubts else None, tuple(loose))


def _switch(switches: dict[str, Opt], word: str, doubts: list[str]) -> Given:
    """One 7-Zip switch: the longest name that starts the word, its value the rest."""
    lowered = word[1:].lower()
    for end in range(len(lowered), 0, -1):
        opt = switches.get(lowered[:end])
        if opt is None:
            continue
        rest = word[1 + end :]
        if opt.takes == Takes.NOTHING and rest:
            doubts.append(f"{word[:20]}: -{lowered[:end]} takes no value")
        elif opt.takes == Takes.VALUE and not rest:
            doubts.append(f"-{lowered[:end]} needs its value attached")
        return Given(opt, rest or None)
    doubts.append(f"unknown switch {word[:20]}")
    return Given(Opt((word,), does=UNKNOWN), None)


def opts(text: str, *, permute: bool = True, digits: bool = False, abbreviations: bool = True,
         negations: bool = False, switches: bool = False) -> Options:  # fmt: skip
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
    return Options(found, permute=permute, digits=digits, abbreviations=abbreviations,
                   negations=negations, switches=switches)  # fmt: skip
