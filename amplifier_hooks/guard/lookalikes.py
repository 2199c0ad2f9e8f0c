"""Path names that read as another name: a letter from another script that looks like a
Latin one (``.cl\u0430ude``, the Cyrillic a), or an invisible character
(``.gem\u200bini`` with a zero-width space).

A person reading such a path sees a name the rules protect; the file system sees another,
so a rule on the name it shows does not apply and the grant it gets is not the one the
person reads. Such a path is asked (`losses` rule ``guard-lookalike-path``), never granted.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

__all__ = ["lookalike_path"]

_UNSEEN = ("Cf", "Cc")
"""Format characters (zero-width spaces and joiners, direction marks) and control ones (a
newline, a NUL): a person does not see them in a path, the file system reads them."""

_LOOKALIKE_SCRIPTS = ("CYRILLIC", "GREEK")
"""Scripts with letters that look like Latin ones."""

_WORDS = re.compile(r"[/\\._\-\s]+")
"""What splits a path into words (``пример.md`` mixes no scripts: each of its words is one)."""


def lookalike_path(paths: Iterable[str]) -> str | None:
    """The first of ``paths`` holding a character a person does not see (`_UNSEEN`) or a
    word of a name that mixes Latin letters with Cyrillic or Greek ones; None when every
    path reads as it shows."""
    for path in paths:
        if (path.isascii() and path.isprintable()) or "://" in path:  # a URL: its own rules
            continue
        if any(unicodedata.category(c) in _UNSEEN for c in path):
            return path
        if any(_mixed(word) for word in _WORDS.split(path)):
            return path
    return None


def _mixed(name: str) -> bool:
    latin = other = False
    for char in name:
        if not char.isalpha():
            continue
        if char.isascii():
            latin = True
            continue
        script = unicodedata.name(char, "").partition(" ")[0]
        if script == "LATIN":
            latin = True
        elif script in _LOOKALIKE_SCRIPTS:
            other = True
    return latin and other
