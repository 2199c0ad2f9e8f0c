"""The words every match of a pattern holds: a screen before a long regex's search.

Python's ``re`` tries each alternative of a pattern at each place in the text, so a
detector's pattern of forty alternatives costs milliseconds over a 20 KB file that holds
none of them (`benchmarks.bench_guard`'s written-files row). Every match of such a pattern
holds one of a few literal words (``verify_signature``, ``ignoreExpiration``, ...): a text
that holds none of them is not searched.

The words are read from the pattern itself (``re._parser``), so the screen can never say
"no match" where the search would find one. The text is compared lowered; a text that is
not ASCII is always searched, since case-insensitive matching folds some non-ASCII letters
into ASCII ones (the Kelvin sign into ``k``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any

__all__ = ["may_match"]

_SHORTEST = 3
"""A word shorter than this screens out too little to be worth the look."""
_SKIPPED = frozenset({sre.AT, sre.ASSERT, sre.ASSERT_NOT})
"""Nodes that match no text: neither part of a word nor a break in one."""


def may_match(pattern: re.Pattern[str], text: str) -> bool:
    """False only when ``pattern`` cannot match ``text``: the text holds none of the words
    every match of it holds."""
    words = _words(pattern)
    if words is None or not text.isascii():
        return True
    lowered = _lowered(text)
    return any(word in lowered for word in words)


@lru_cache(maxsize=4)
def _lowered(text: str) -> str:
    """(An edit's old and new text are screened by one pattern after another.)"""
    return text.lower()


@lru_cache(maxsize=1024)
def _words(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """Lowered words one of which every match of ``pattern`` holds (None: none found)."""
    if not isinstance(pattern.pattern, str):
        return None
    words = _required(_parser.parse(pattern.pattern, pattern.flags))
    if words is None or min(map(len, words)) < _SHORTEST:
        return None
    # a text that holds ``verify_signature`` holds ``verify_``: the shorter word is enough
    return tuple(sorted(w for w in words if not any(o != w and o in w for o in words)))


def _required(nodes: Any) -> frozenset[str] | None:
    """Words one of which every match of the sequence ``nodes`` holds: of its literal runs
    and its parts' own sets, the first whose words are all long enough (a pattern's first
    word is the one its author chose it by: ``send_file(`` before ``os.path.join(``)."""
    candidates: list[frozenset[str] | None] = []
    run: list[str] = []
    for op, arg in nodes:
        if op is sre.LITERAL and arg < 128:
            run.append(chr(arg).lower())
            continue
        if op in _SKIPPED:
            continue
        if run:
            candidates.append(frozenset({"".join(run)}))
            run = []
        if op is sre.SUBPATTERN:
            candidates.append(_required(arg[-1]))
        elif op is sre.ATOMIC_GROUP:
            candidates.append(_required(arg))
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT) and arg[0] >= 1:
            candidates.append(_required(arg[2]))
        elif op is sre.BRANCH:
            candidates.append(_either(arg[1]))
    if run:
        candidates.append(frozenset({"".join(run)}))
    found = [words for words in candidates if words]
    long_enough = [words for words in found if min(map(len, words)) >= _SHORTEST]
    return (long_enough or found)[0] if found else None


def _either(branches: Any) -> frozenset[str] | None:
    """The words of alternatives: one of each alternative's, or None if one has none."""
    words: set[str] = set()
    for branch in branches:
        found = _required(branch)
        if not found:
            return None
        words |= found
    return frozenset(words)
