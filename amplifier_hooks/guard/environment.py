"""A dump of the whole environment, which holds secrets: ``env``, ``printenv`` and ``set``
with nothing to run or name, and ``export``, ``declare`` and ``typeset`` with no name
(``export -p``; ``declare -f`` prints functions), unless what reads the dump shows no
value: only the names (``env | cut -d= -f1``), a count or nothing for a search by a name
(``env | grep -c '^CI='``), or the lines of well-known variables that hold no secret
(``env | grep PATH``, ``env | grep -E '^(PATH|LANG)='``). A search by any other word is
still a dump (``env | grep -i gemini`` prints whatever GEMINI_API_KEY holds), and a
search by a secret's word or a provider's name (``env | grep -i key``, ``gemini``) is a
search for secrets besides: it prints exactly them, as a dump after a ``.env`` is loaded
into the shell does (``source .env && set``). ``ps e`` (BSD's letter: ``ps axe``,
``ps eww``; macOS's ``-E``) prints every process's environment after its command: a dump;
so is ``npm run env`` (``yarn run env``), the script npm gives every package.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.providers import PROVIDERS
from amplifier_hooks.guard.secrets import secret_kind
from amplifier_hooks.guard.table import patterned
from amplifier_hooks.guard.table.options import read_options
from amplifier_hooks.guard.table.text import SEARCHES
from amplifier_hooks.guard.table.wrapping import WRAPPING
from amplifier_hooks.guard.valueless import names_only
from amplifier_hooks.secret_shapes import SECRET_KEY

__all__ = ["ENV_DUMP", "ENV_SECRETS", "mark_env_dumps", "secret_word"]

ENV_DUMP = "@env-dump"
ENV_SECRETS = "@env-secrets"
DUMPERS = frozenset({"env", "printenv", "set", "export", "declare", "typeset", "ps", "npm",
                     "yarn"})  # fmt: skip
_RUN_SCRIPT = frozenset({"run", "run-script", "rum", "urn"})
_LOADERS = frozenset({"source", "."})
_FUNCTIONS_ONLY = frozenset("fF")
"""``declare``'s and ``typeset``'s options that print functions, not variables."""
_SECRET = re.compile(
    r"key|token|secret|pass(?!thr|ive)|auth|cred|cookie|session|private|aws|api", re.I
)
"""(``PASSTHROUGH``, as in bitbake's ``BB_ENV_PASSTHROUGH_ADDITIONS``, passes names on.)"""
_WORDS = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_PLAIN = frozenset(
    {"PATH", "MANPATH", "INFOPATH", "PYTHONPATH", "GOPATH", "GOROOT", "CLASSPATH", "HOME",
     "JAVA_HOME", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TZ", "USER",
     "LOGNAME", "SHELL", "TERM", "COLORTERM", "PWD", "OLDPWD", "EDITOR", "VISUAL", "PAGER",
     "HOSTNAME", "TMPDIR", "DISPLAY", "SHLVL", "COLUMNS", "LINES", "VIRTUAL_ENV",
     "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "NODE_ENV", "CI", "XDG_CONFIG_HOME",
     "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "LD_LIBRARY_PATH", "PORT"}
)  # fmt: skip
"""Variables that hold no secret: a search for the lines naming only these shows none
(a word matches any line it is part of, so a variable named so by a person, with a
secret in it, would be a lie the search cannot tell; these names are the system's)."""
_NAME_ONLY = re.compile(r"\^?[A-Za-z_][A-Za-z0-9_]*=?")
"""A search for one variable by its name, for ``-c``/``-q``/``-l`` (anything else is an
oracle: ``grep -q '^KEY=a'``, then ``=b``, ...)."""
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_ANCHORED = re.compile(rf"\^(?:{_NAME}|\\?\({_NAME}(?:\\?\|{_NAME})*\\?\))=")
"""Lines of variables by their whole names: ``^PORT=``, ``^(A|B)=`` (``\\(A\\|B\\)``)."""


def mark_env_dumps(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """Every piece that prints the whole environment where the model reads it, marked."""
    out: list[Piece] = []
    for index, piece in enumerate(pieces):
        if piece.program in DUMPERS and _dumps(piece):
            found = _filtered(pieces, index)
            if found is not False and found != _NAMES:
                found = found or _env_file_loaded(pieces[:index])
                marks = (ENV_DUMP, ENV_SECRETS) if found else (ENV_DUMP,)
                piece = piece._replace(wrappers=(*piece.wrappers, *marks))
            elif found == _NAMES:  # the names, and the lines of a multi-line value whole
                piece = piece._replace(doubt=piece.doubt or _NAMES)
        out.append(piece)
    return tuple(out)


def _env_file_loaded(before: tuple[Piece, ...]) -> bool:
    """Whether a piece before the dump loads a ``.env`` into the shell (``source .env``,
    ``. ./.env.local``): the dump then prints its secrets exactly (``source .env && set``)."""
    return any(
        p.program in _LOADERS and any(secret_kind(a) == "env" for a in p.args) for p in before
    )


def _dumps(piece: Piece) -> bool:
    if piece.program in ("npm", "yarn"):  # `npm run env`: npm's own script lists them all
        words = [a for a in piece.args if not a.startswith("-")]
        return len(words) == 2 and words[0] in _RUN_SCRIPT and words[1] == "env"
    if piece.program == "ps":
        return _ps_environment(piece.args)
    if piece.program == "env":  # `env --help` prints no variable
        return not read_options(WRAPPING["env"], piece.args).has("info")
    if (
        piece.program == "set"
    ):  # `set -e`, `set -a`, `set -o pipefail` set options, printing nothing
        return not piece.args
    if piece.program in ("declare", "typeset") and any(
        a[:1] == "-" and not _FUNCTIONS_ONLY.isdisjoint(a[1:]) for a in piece.args
    ):
        return False
    if piece.program == "set":  # `set -a`, `set -euo pipefail` set options; `set` prints
        return not piece.args
    return not [a for a in piece.args if not a.startswith("-")]


_PS_VALUED = frozenset("oOpqtuUgGCs")
_PS_VALUED_LONG = frozenset({"sort", "format", "pid", "ppid", "user", "group", "tty", "cols"})
"""ps's option letters and long options whose value is the next word (``-o user``,
``axo user``, ``--sort user``): a value is never the environment letter."""


def _ps_environment(args: tuple[str, ...]) -> bool:
    """``ps e``, ``ps axe``, ``ps eww`` (BSD ``e``) and macOS's ``ps -E`` print each process's
    environment after its command line: every variable of every process, secrets too.
    (``ps -e`` is every process, with no environment, on Linux and macOS.)"""
    value_next = False
    for arg in args:
        if value_next:
            value_next = False
            continue
        if arg.startswith("--"):
            value_next = "=" not in arg and arg[2:] in _PS_VALUED_LONG
            continue
        if arg.startswith("-"):
            if "E" in arg[1:]:
                return True
            value_next = arg[-1:] in _PS_VALUED
            continue
        if "e" in arg and arg.isalpha():
            return True
        value_next = arg[-1:] in _PS_VALUED and arg.isalpha()
    return False


_NAMES = "cut without -s prints the lines of a value spread over lines whole"


def _filtered(pieces: tuple[Piece, ...], index: int) -> bool | str | None:
    """False when the dump flows only into a search for lines that name no secret, or
    into ``cut -s -d= -f1`` (no dump), `_NAMES` into ``cut -d= -f1`` (no dump, never
    granted), True when into a search for secrets, None otherwise (a dump)."""
    piece = pieces[index]
    if piece.pipes_to[:1] == ("cut",):  # `env | cut -d= -f1`: the names, not the values
        return _cut_names(pieces, index)
    # (the search is where the dump flows first; what the search prints may flow on)
    if not piece.pipes_to or piece.pipes_to[0] not in SEARCHES:
        return None
    at, sink = next(((i, p) for i, p in enumerate(pieces) if i > index
                     and p.program == piece.pipes_to[0]), (0, None))  # fmt: skip
    if sink is None or sink.dynamic:
        return None
    patterns, read = patterned(sink.program or "grep", sink.args)
    names = _cut_names(pieces, at) if sink.pipes_to[:1] == ("cut",) else None
    if names is not None and read.doubt is None:
        return names  # `env | grep -i _proxy | cut -d= -f1`: the found lines' names
    if read.has("invert") or not patterns or read.doubt is not None:  # -v: all but those
        return None
    if read.has("silent") and all(_NAME_ONLY.fullmatch(p) for p in patterns):
        return False  # `grep -q '^OPENAI_API_KEY='`: whether it is set, no value
    if any(secret_word(p) for p in patterns):
        return True
    if all(_plain(p) or _named(p) for p in patterns):
        return False
    return None


def _cut_names(pieces: tuple[Piece, ...], index: int) -> bool | str | None:
    """What the ``cut`` that ``pieces[index]`` flows into prints of the lines: names only
    (False), names and a multi-line value's lines (`_NAMES`), or anything (None)."""
    cut = next((p for p in pieces[index + 1 :] if p.program == "cut"), None)
    names = names_only(cut) if cut is not None else False
    return None if names is False else (False if names else _NAMES)


def _named(pattern: str) -> bool:
    """Whether ``pattern`` finds only variables by their whole name (``^PORT=``,
    ``^(NODE_ENV|PORT)=``): what ``printenv PORT`` prints, of names that hold no secret
    (a secret's name was found by `secret_word` first)."""
    found = _ANCHORED.fullmatch(pattern)
    return found is not None and not any(SECRET_KEY.match(n) for n in _WORDS.findall(pattern))


def secret_word(pattern: str) -> bool:
    """A secret's word (``key``, ``token``) or a provider's name (``gemini``, ``openai``:
    its keys are named by it) in ``pattern``."""
    if _SECRET.search(pattern):
        return True
    return any(w.upper() in PROVIDERS for w in _WORDS.findall(pattern) if len(w) > 2)


def _plain(pattern: str) -> bool:
    """Whether every name ``pattern`` searches for (``PATH``, ``^(PATH|LANG)=``) is one of
    the variables that hold no secret, and it has no other text."""
    words = _WORDS.findall(pattern)
    rest = _WORDS.sub("", pattern)
    return bool(words) and all(w.upper() in _PLAIN for w in words) and set(rest) <= set("^=()|\\$")
