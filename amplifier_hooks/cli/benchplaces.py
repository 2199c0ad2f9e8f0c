"""Where a bench case's shell words point (`benchspace`): a path a command names after it
``cd``s elsewhere is relative to that folder, and a simple glob names the files it would
match. Without these, the workspace holds nothing behind ``cd src && rm -rf com`` or
``rm src/*.py``, and a grant there means less than it would in a person's repository.

- ``cd DIR && ...`` / ``cd DIR; ...`` (also ``||``, ``&``, a new line): the words after
  it are read from DIR; ``cd`` with no operand, ``cd -`` or a DIR with shell syntax in it
  (``$X``, a glob) leaves them unknown and read from the workspace as before.
- A glob whose only special characters are ``*``/``?`` in its last part (``src/*.py``,
  ``build/*``, ``?.log``) names one file it matches: each ``*``/``?`` becomes ``a``, a
  lone ``*`` a file ``a.txt``.
"""

from __future__ import annotations

import posixpath
import re

__all__ = ["CD_PROGRAMS", "cd_bases", "glob_example", "placed"]

CD_PROGRAMS = frozenset({"cd", "chdir", "pushd", "set-location", "sl"})
"""Programs that change the folder the next commands run in (PowerShell's in lower case)."""
_AFTER = frozenset({";", "&&", "||", "&"})
"""Separators after which the next command runs in the folder a ``cd`` chose."""
_SEPARATORS = _AFTER | frozenset({"|", "(", ")", "|&", ";;"})
_PLAIN_DIR = re.compile(r"[\w.+~/-]+")
_SIMPLE_GLOB = re.compile(r"[\w.+-]*[*?][\w.*?+-]*")


def cd_bases(words: list[str]) -> list[str | None]:
    """For each of ``words``, the folder a ``cd`` earlier in the command moved to (as
    written, ``~/x``, ``/abs`` or relative to the workspace), or None (the workspace)."""
    bases: list[str | None] = []
    base: str | None = None
    start = True
    in_cd = False
    pending: str | None = None  # where the ``cd`` whose command has not ended moves
    operands = 0
    for word in words:
        bases.append(base)
        if word in _SEPARATORS:
            if in_cd and word in _AFTER:
                base = pending  # None: no plain folder, read from the workspace again
            in_cd, pending, start, operands = False, None, True, 0
        elif start:
            start, in_cd = False, word.lower() in CD_PROGRAMS
        elif in_cd and not (word.startswith("-") and operands == 0):
            operands += 1  # ``cd -P dir``: an option before it; ``cd a b``: no folder
            pending = _moved(base, word) if operands == 1 else None
    return bases


def _moved(base: str | None, word: str) -> str | None:
    """The folder ``cd word`` moves to from ``base``, or None when it is not plain."""
    if not _PLAIN_DIR.fullmatch(word) or (word[0] == "~" and word[:2] != "~/" and word != "~"):
        return None
    joined = word if word.startswith(("/", "~")) or base is None else posixpath.join(base, word)
    if joined == "~":
        return "~/"
    normal = posixpath.normpath(joined)
    if normal == "." or normal.startswith(".."):
        return None  # the workspace itself, or above it: read as before
    return normal


def placed(base: str | None, word: str) -> str:
    """``word`` as named from the workspace, when a ``cd`` moved to ``base``."""
    if base is None or word.startswith(("/", "~", "-")):
        return word
    return posixpath.join(base, word)


def glob_example(word: str) -> str | None:
    """A file a simple glob ``word`` matches (``src/*.py`` -> ``src/a.py``), or None."""
    if "*" not in word and "?" not in word:
        return None
    above, _, name = word.rpartition("/")
    if "*" in above or "?" in above or not _SIMPLE_GLOB.fullmatch(name):
        return None
    if name == "*":
        made = "a.txt"
    elif set(name) <= {"*", "?"}:
        return None  # ``**``, ``***`` (a patch text's marks): no name to match
    else:
        made = name.replace("*", "a").replace("?", "a")
    return f"{above}/{made}" if above or word.startswith("/") else made
