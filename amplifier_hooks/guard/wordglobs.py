"""Globs on a command's words, as a rule's ``args`` and ``env`` write them (``*.ssh/*``,
``--force*``, ``*TOKEN*``): `fnmatch` globs, in any case, ``*`` crossing anything.

The same globs as one regex each (`fnmatch.translate`, ``re.I``) cost a scan of the word
per glob: on a long word (inline code given to ``python3 -c``, tens of ``*NAME*`` globs)
that was the largest cost of judging it (bench_guard's corpus table). A glob of literal
text and ``*`` only is matched here by plain string tests on the word in lower case
instead; that is exactly the regex's answer when both the glob and the word are ASCII
(case folding then is ``str.lower``). Any other glob, and any other word (or a short one),
meets the regex.
"""

from __future__ import annotations

import re
from fnmatch import translate

__all__ = ["WordGlobs"]

Shape = tuple[str, str, tuple[str, ...], str]
"""A ``*`` glob in lower case: its longest text (a word without it cannot match: one
quick test first), its text before the first ``*``, the texts between its ``*``s in
order, its text after the last ``*``."""


_SHORT = 12
"""Words shorter than this meet the one regex: on them it is as quick as the string tests
or quicker (most words: ``-q``, ``status``); on longer ones it is slower, growing with the
word."""


class WordGlobs:
    """Several globs: `match` says whether any holds for the whole of a word."""

    __slots__ = ("_exact", "_firsts", "_inner", "_least", "_regex", "_rest", "_shapes")

    def __init__(self, patterns: tuple[str, ...]) -> None:
        exact: set[str] = set()
        inner: list[str] = []
        shapes: list[Shape] = []
        rest: list[str] = []
        for pattern in patterns:
            if not pattern.isascii() or "?" in pattern or "[" in pattern:
                rest.append(pattern)
                continue
            parts = pattern.lower().split("*")
            if len(parts) == 1:
                exact.add(parts[0])
            elif len(parts) == 3 and not parts[0] and not parts[2]:
                inner.append(parts[1])  # `*TEXT*`: the most common by far
            else:
                middle = tuple(p for p in parts[1:-1] if p)
                shapes.append((max(parts, key=len), parts[0], middle, parts[-1]))
        self._exact = frozenset(exact)
        self._inner = tuple(inner)
        self._shapes = tuple(shapes)
        self._rest = _regex(tuple(rest))
        self._regex = _regex(patterns)
        """Every glob: what a short word, or one that is not ASCII, meets."""
        self._firsts = _firsts(patterns)
        self._least = min(map(_least, patterns), default=0)
        """The fewest characters a word that meets one of them has: a shorter one (``-q``
        against ``*ddl-auto=create*``) meets none, told without a regex (`bench_guard`'s
        fresh row: two rules' regexes on ``-q``)."""

    def match(self, word: str) -> bool:
        if len(word) < self._least:
            return False
        firsts = self._firsts
        if firsts is not None and word[:1] not in firsts and word[:1].isascii():
            return False
        if len(word) < _SHORT or not word.isascii():
            return self._regex is not None and self._regex.match(word) is not None
        low = word.lower()
        if low in self._exact:
            return True
        for text in self._inner:
            if text in low:
                return True
        for longest, head, middle, tail in self._shapes:
            if longest in low and _holds(low, head, middle, tail):
                return True
        return self._rest is not None and self._rest.match(word) is not None


def _firsts(patterns: tuple[str, ...]) -> frozenset[str] | None:
    """The first letters, in either case, a word needs to meet one of ``patterns`` when
    each starts with an ASCII letter or sign, not a wildcard (None: they do not). Most
    words meet most globs' first letter nowhere (``status`` and ``core.pager=*``): one set
    lookup, not a regex. An ASCII letter is only ever its two cases to ``re.I``; a word
    that starts with any other letter meets the regex (U+017F is an ``s`` to it)."""
    found: set[str] = set()
    for pattern in patterns:
        first = pattern[:1]
        if not first or first in "*?[" or not first.isascii():
            return None
        found.update((first.lower(), first.upper()))
    return frozenset(found)


def _least(pattern: str) -> int:
    """The fewest characters a word matching ``pattern`` has, or fewer: each character
    before its first ``[`` but ``*`` takes one (``?`` any one, any other itself; ``re.I``
    folds a character to one character), and a set and what follows it are not counted."""
    return len(pattern.partition("[")[0].replace("*", ""))


def _holds(low: str, head: str, middle: tuple[str, ...], tail: str) -> bool:
    """Whether ``low`` is ``head``, then ``middle``'s texts in order, then ``tail``, with
    anything around them (the leftmost place of each is as good as any)."""
    end = len(low) - len(tail)
    if end < len(head) or not low.startswith(head) or not low.endswith(tail):
        return False
    start = len(head)
    for text in middle:
        found = low.find(text, start, end)
        if found < 0:
            return False
        start = found + len(text)
    return True


def _regex(patterns: tuple[str, ...]) -> re.Pattern[str] | None:
    if not patterns:
        return None
    # Case does not matter: git's config keys (core.sshCommand) are case-insensitive.
    return re.compile("|".join(f"(?:{translate(p)})" for p in patterns), re.DOTALL | re.I)
