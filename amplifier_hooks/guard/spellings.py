"""Options as the program reads them: abbreviations, ``--opt=value``, combined short flags,
negations with the last one winning.

git and the GNU tools accept any unique prefix of a long option (``--forc`` is ``--force``
for ``git clean``, ``--in-pl`` is ``--in-place`` for ``sed``), and git reads ``--no-X`` as
"not X" where it comes (``--force --no-force`` is no force). A rule that only knew the full
spelling would miss the others, so flags are turned into the names the program uses
before any rule sees them. One-letter options are named by their long option too
(``git push -f`` has ``--force``), and keep their own spelling (``-f``) for rules that name
it. An option the table does not know, or a prefix of several, is *unknown*: a rule may
still match what it could be, and no grant holds for it.
"""

from __future__ import annotations

from typing import NamedTuple

from amplifier_hooks.guard.gitoptions import GIT_LONG, GIT_SHORT

__all__ = ["LOOKALIKE", "SPELLED", "Options", "has_lookalike", "read_git", "read_gnu"]


class _Table(NamedTuple):
    """One command's long option names, and the long options each one-letter option is
    (``name=``: it takes a value, the rest of its word or the next word)."""

    names: tuple[str, ...]
    short: dict[str, tuple[str, ...]]


class Options(NamedTuple):
    """What a command's option words say, read as its program reads them."""

    flags: frozenset[str]
    """Each option given, by its long name (``--force``) and one-letter spelling (``-f``)."""
    operands: tuple[str, ...]
    """The words that are not options, in order, and the values of options that may be
    paths (the next word's, or one after ``=`` that starts like a path)."""
    unknown: bool
    """Some option is not in the table, or is a prefix of several."""


def _table(names: str, short: dict[str, tuple[str, ...]]) -> _Table:
    return _Table(tuple(n.rstrip("=") for n in names.split()), short)


_GIT = {sub: _table(names, GIT_SHORT.get(sub, {})) for sub, names in GIT_LONG.items()}

_GNU_SPECS: dict[str, tuple[str, dict[str, tuple[str, ...]]]] = {
    "rm": ("force interactive= one-file-system no-preserve-root preserve-root= recursive dir "
           "verbose help version",
           {"f": ("force",), "i": ("interactive",), "I": ("interactive",), "r": ("recursive",),
            "R": ("recursive",), "d": ("dir",), "v": ("verbose",)}),
    "cp": ("archive attributes-only backup= copy-contents debug dereference force interactive "
           "link no-dereference no-clobber preserve= no-preserve= parents recursive reflink= "
           "remove-destination sparse= strip-trailing-slashes symbolic-link suffix= "
           "target-directory= no-target-directory update= verbose one-file-system context= "
           "keep-directory-symlink help version",
           {"a": ("archive",), "b": ("backup",), "d": ("no-dereference",), "f": ("force",),
            "i": ("interactive",), "H": (), "l": ("link",), "L": ("dereference",),
            "n": ("no-clobber",), "P": ("no-dereference",), "p": ("preserve",),
            "R": ("recursive",), "r": ("recursive",), "s": ("symbolic-link",),
            "S": ("suffix=",), "t": ("target-directory=",), "T": ("no-target-directory",),
            "u": ("update",), "v": ("verbose",), "x": ("one-file-system",), "Z": ("context",)}),
    "mv": ("backup= debug exchange force interactive no-clobber no-copy strip-trailing-slashes "
           "suffix= target-directory= no-target-directory update= verbose context help version",
           {"b": ("backup",), "f": ("force",), "i": ("interactive",), "n": ("no-clobber",),
            "S": ("suffix=",), "t": ("target-directory=",), "T": ("no-target-directory",),
            "u": ("update",), "v": ("verbose",), "Z": ("context",)}),
    "ln": ("backup= directory force interactive logical no-dereference physical relative "
           "symbolic suffix= target-directory= no-target-directory verbose help version",
           {"b": ("backup",), "d": ("directory",), "F": ("directory",), "f": ("force",),
            "i": ("interactive",), "L": ("logical",), "n": ("no-dereference",),
            "P": ("physical",), "r": ("relative",), "s": ("symbolic",), "S": ("suffix=",),
            "t": ("target-directory=",), "T": ("no-target-directory",), "v": ("verbose",)}),
    "sed": ("quiet silent debug expression= file= follow-symlinks in-place line-length= "
            "null-data zero-terminated posix regexp-extended separate sandbox unbuffered help "
            "version",
            {"n": ("quiet",), "e": ("expression=",), "f": ("file=",), "i": ("in-place=",),
             "l": ("line-length=",), "s": ("separate",), "E": ("regexp-extended",),
             "r": ("regexp-extended",), "u": ("unbuffered",), "z": ("null-data",)}),
    "sort": ("ignore-leading-blanks dictionary-order ignore-case general-numeric-sort "
             "ignore-nonprinting month-sort human-numeric-sort numeric-sort random-sort "
             "random-source= reverse sort= version-sort batch-size= check compress-program= "
             "debug files0-from= field-separator= key= merge output= stable buffer-size= "
             "temporary-directory= parallel= unique zero-terminated help version",
             {"b": (), "d": (), "f": (), "g": (), "i": (), "M": (), "h": (), "n": (), "R": (),
              "r": (), "V": (), "c": ("check",), "C": ("check",), "k": ("key=",), "m": (),
              "o": ("output=",), "s": (), "S": ("buffer-size=",), "t": ("field-separator=",),
              "T": ("temporary-directory=",), "u": (), "z": ()}),
    "truncate": ("no-create io-blocks reference= size= help version",
                 {"c": ("no-create",), "o": ("io-blocks",), "r": ("reference=",),
                  "s": ("size=",)}),
    "chmod": ("changes silent quiet verbose no-preserve-root preserve-root reference= "
              "recursive help version",
              {"c": ("changes",), "f": ("silent",), "v": ("verbose",), "R": ("recursive",)}),
    "chown": ("changes dereference no-dereference from= no-preserve-root preserve-root quiet "
              "silent reference= recursive verbose help version",
              {"c": ("changes",), "f": ("silent",), "h": ("no-dereference",),
               "v": ("verbose",), "R": ("recursive",), "H": (), "L": (), "P": ()}),
    "tee": ("append ignore-interrupts output-error= help version",
            {"a": ("append",), "i": ("ignore-interrupts",), "p": ()}),
}  # fmt: skip
_GNU = {program: _table(names, short) for program, (names, short) in _GNU_SPECS.items()}

SPELLED = frozenset({"git", *_GNU})
"""The programs whose options are read here."""

LOOKALIKE = frozenset("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
                      "\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u00ab\u00bb"
                      "\uff02\uff07\u2032\u2033")  # fmt: skip
"""Dashes and quotes that look like ``-`` and ``'``/``"`` but are other characters."""


def has_lookalike(args: tuple[str, ...]) -> bool:
    """An argument that starts with a look-alike dash or quote: it reads as an option or
    a quoted word to a person, and as something else to the program."""
    return any(arg[:1] in LOOKALIKE for arg in args if arg)


def read_git(sub: str, args: tuple[str, ...]) -> Options | None:
    """``args`` (after the subcommand ``sub``; ``stash drop`` takes its second word from
    them) as git reads them, or None when the table has no such subcommand."""
    table = _GIT.get(sub)
    if table is None:
        for index, arg in enumerate(args):  # `stash [-q] drop`: the first operand
            if not arg.startswith("-"):
                table = _GIT.get(f"{sub} {arg}")
                if table is not None:
                    args = args[:index] + args[index + 1 :]
                break
        if table is None:
            return None
    options = _read(table, args, negations=True)
    if sub == "branch" and {"--delete", "--force"} <= options.flags:
        # `-d -f`, `--delete --force`, `-df` are `-D`, for the rules that name it
        return options._replace(flags=options.flags | {"-D"})
    return options


def read_gnu(program: str, args: tuple[str, ...]) -> Options | None:
    """``args`` as a GNU tool reads them (None: not one the table knows)."""
    table = _GNU.get(program)
    return None if table is None else _read(table, args, negations=False)


def _read(table: _Table, args: tuple[str, ...], negations: bool) -> Options:
    flags: set[str] = set()
    operands: list[str] = []
    unknown = False
    names, short = table
    index = 0
    count = len(args)
    while index < count:
        arg = args[index]
        index += 1
        if arg == "--":
            operands.extend(args[index:])
            break
        if not arg.startswith("-") or arg == "-":
            operands.append(arg)
            continue
        if arg.startswith("--"):
            name, equals, _ = arg[2:].partition("=")
            found = _resolve(name, names)
            if len(found) != 1:
                unknown = True
                flags.add("--" + name)
            for option in found:
                _apply(option, flags, short, names, negations)
            if equals and arg.partition("=")[2].startswith(("/", "~", ".")):
                operands.append(arg.partition("=")[2])
            continue
        body = arg[1:]
        for letter in body:
            longs = short.get(letter)
            flags.add("-" + letter)
            if longs is None:
                unknown = True
                continue
            for option in longs:
                _apply(option.rstrip("="), flags, short, names, negations)
            if any(option.endswith("=") for option in longs):
                break  # `-sHEAD`: the rest of the word is the value
    return Options(frozenset(flags), tuple(operands), unknown)


def _resolve(name: str, names: tuple[str, ...]) -> tuple[str, ...]:
    """The options ``--name`` is: itself, else the one it is a prefix of (several: it is
    ambiguous, and the program refuses it; none: unknown)."""
    if name in names:
        return (name,)
    return tuple(n for n in names if n.startswith(name)) if name else ()


def _apply(option: str, flags: set[str], short: dict[str, tuple[str, ...]],
           names: tuple[str, ...], negations: bool) -> None:  # fmt: skip
    """Record ``option``; ``no-X`` (git) takes ``X`` and its one-letter spellings away."""
    if negations and option.startswith("no-") and option[3:] in names:
        positive = option[3:]
        flags.discard("--" + positive)
        for letter, longs in short.items():
            if positive in (o.rstrip("=") for o in longs):
                flags.discard("-" + letter)
        flags.add("--" + option)
        return
    if negations:
        flags.discard("--no-" + option)
    flags.add("--" + option)
    for letter, longs in short.items():  # `--force` is `-f` too, for rules that name it
        if len(longs) == 1 and longs[0].rstrip("=") == option:
            flags.add("-" + letter)
