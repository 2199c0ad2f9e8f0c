"""Code given to an interpreter on its command line (``python -c``, ``perl -e``,
``node --eval``): the guard cannot read it, so a rule asks or denies it (``inline_code``).
Which flags give each interpreter its code, and where a script ends its options."""

from __future__ import annotations

import re
from functools import lru_cache

from amplifier_hooks.guard.table.python import is_python, quiet_options, runs_code

__all__ = ["CODE_PASSED", "CODE_READ", "CODE_SHOWS", "FROM_CODE", "QUIET_CODE", "code_flags",
           "code_option", "is_python", "quiet_python_options", "runs_inline_code"]  # fmt: skip

QUIET_CODE = "@quiet-code"
"""Marks an interpreter whose inline code the guard read whole (`pyreader`): every call in
it changes nothing and reaches nothing. Not asked as inline code, and never granted."""
CODE_READ = "@code-read"
"""Marks an interpreter whose inline code the guard read whole with its grammar but did
not clear (`QUIET_CODE`): the paths the code names are judged as the pieces of its acts
(`codepieces`), so the code's text, still the piece's argument (rules on inline code read
it), is not taken for a path of its own (`facts`)."""
FROM_CODE = "@inline-code"
"""Marks a piece inline code spells out (`codepieces`): judged, never granted."""
CODE_SHOWS = "@code-shows"
"""Marks a read inline code prints (``print(open(".env").read())``): shown where the model
reads it, as ``cat`` shows it (`secrets.shows_text`)."""
CODE_PASSED = "@code-passed"
"""Marks an interpreter reading its program from its input (a heredoc, a here-string)
when that program is judged as its own piece (``python3 -c TEXT``): asked there, once."""

_CODE_FLAGS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # program: (short flag letters that take code, long flags that do)
    "python": (frozenset("c"), frozenset()),
    "ipython": (frozenset("c"), frozenset()),  # Python with shell lines (`codereaders`)
    "perl": (frozenset("eE"), frozenset()),
    "ruby": (frozenset("e"), frozenset()),
    "node": (frozenset("ep"), frozenset({"--eval", "--print"})),
    "bun": (frozenset("ep"), frozenset({"--eval", "--print"})),
    "deno": (frozenset(), frozenset({"eval"})),
    "php": (frozenset("rR"), frozenset()),
    "lua": (frozenset("e"), frozenset()),
    "osascript": (frozenset("e"), frozenset()),
    "Rscript": (frozenset("e"), frozenset()),
    "rscript": (frozenset("e"), frozenset()),  # (`RSCRIPT`, where case is ignored)
    "R": (frozenset("e"), frozenset()),  # (`R -e EXPR`, as Rscript's)
    # (exact words: their other options hold the letter, `ghc -Werror`, `erl -env`)
    "julia": (frozenset(), frozenset({"-e", "--eval", "-E", "--print"})),
    "elixir": (frozenset(), frozenset({"-e", "--eval"})),
    "erl": (frozenset(), frozenset({"-eval"})),
    "ghc": (frozenset(), frozenset({"-e"})),
    "groovy": (frozenset(), frozenset({"-e"})),
    "ocaml": (frozenset(), frozenset({"-e"})),
    "clojure": (frozenset(), frozenset({"-e", "--eval"})),  # (no reader: asked)
    "clj": (frozenset(), frozenset({"-e", "--eval"})),
    "bb": (frozenset(), frozenset({"-e", "--eval"})),
    "scala": (frozenset(), frozenset({"-e"})),
    "kotlin": (frozenset(), frozenset({"-e"})),
    "swift": (frozenset(), frozenset({"-e"})),
    "pwsh": (frozenset("cC"), frozenset({"-Command", "-EncodedCommand", "-command"})),
}


@lru_cache(maxsize=1024)
def code_flags(program: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The flags that give ``program`` its code on the command line (None: it takes none);
    ``python3.11`` is ``python``, ``nodejs`` is ``node``."""
    family = program.rstrip("0123456789.")
    return _CODE_FLAGS.get(_ALIASES.get(family, family))


_ALIASES = {"nodejs": "node", "powershell": "pwsh"}
"""Names of a program that takes code by another's flags (made once: `code_flags` runs for
every program of every command, `sequence._coding`)."""


def quiet_python_options(args: tuple[str, ...]) -> bool:
    """Every option before Python's ``-c`` code is one that runs no other code
    (``python3 -I -W ignore -c ..``: yes; ``python3 -i -c ..``: no), as the table's
    entry for Python reads them (`table.python`)."""
    return quiet_options(args)


def code_option(program: str) -> str | None:
    """The word that gives ``program`` its code on the command line (``-c`` for python,
    ``-e`` for node, ``eval`` for deno); None: it takes none."""
    flags = code_flags(program)
    if flags is None:
        return None
    letters, longs = flags
    if letters:
        return "-" + min(letters, key=lambda c: (c.isupper(), c))
    return min(longs)


_CODE_VALUED = frozenset(
    {"-W", "-X", "-Q", "-r", "--require", "--import", "--loader", "--experimental-loader",
     "--input-type", "-C", "--conditions", "-I", "-M", "-F"}
)  # fmt: skip
"""Options whose value is the next word (never the script), so a value like ``a.py`` is
not taken for one: ``python3 -X a.py -c ..`` still runs inline code."""
_PHP_VALUED = _CODE_VALUED | {"-d", "-c", "-z"}
"""PHP's ``-d NAME=VALUE`` (``auto_prepend_file=/tmp/x.php``), ``-c INI``, ``-z FILE``."""
_VALUED_BY = {
    "php": _PHP_VALUED,
    "julia": _CODE_VALUED | {"-L", "--load", "-J", "--sysimage"},  # (`-L F` loads F first)
    "clojure": _CODE_VALUED - {"-M"},  # (`clojure -M -e CODE`: -M takes no word)
    "clj": _CODE_VALUED - {"-M"},
}  # fmt: skip
"""Options of one interpreter that take the next word, where they differ from the rest."""
_SCRIPT = re.compile(r"[/\\]|\.(py|pyw|pl|pm|rb|js|mjs|cjs|ts|php|lua|R|r|scpt|ps1)$")


def runs_inline_code(program: str, args: tuple[str, ...]) -> bool:
    """An interpreter given code on the command line before any script or module
    (``python -W x -c ..``, ``perl -pi -e ..``); arguments after a script are its own.
    A word that does not look like a script is read past: an option's value."""
    spec = code_flags(program)
    if spec is None:
        return False
    if is_python(program):
        return runs_code(args)  # as Python reads its options (the table's)
    letters, longs = spec
    valued = _VALUED_BY.get(program.rstrip("0123456789."), _CODE_VALUED)
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        skip = arg in valued
        if arg in longs or arg.split("=", 1)[0] in longs:
            return True
        if arg in ("-m", "--"):
            return False
        if arg.startswith("-") and not arg.startswith("--") and letters & set(arg[1:]):
            return True
        if not arg.startswith("-") and _SCRIPT.search(arg):
            return False
    return False
