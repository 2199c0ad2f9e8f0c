"""Brace lists in a word, as bash expands them before a program sees it: ``~/{a,b}`` is
``~/a ~/b``. A place is judged once per word bash would pass, so a protected file hidden in
a list is seen.
"""

from __future__ import annotations

import re

__all__ = ["BRACES", "MAX_EXPANSION", "expand_braces"]

BRACES = re.compile(r"\{[^{}]*(,|\.\.)[^{}]*\}")
_LIST = re.compile(r"\{([^{}]*,[^{}]*)\}")
MAX_EXPANSION = 64


_RANGE = re.compile(r"\{(-?\d{1,6})\.\.(-?\d{1,6})(?:\.\.(-?\d{1,6}))?\}")


def expand_braces(word: str) -> list[str]:
    """``~/{a,b}`` as bash expands it: ``~/a ~/b``; a range of numbers too (``v{0..12}``,
    ``{01..03}`` padded, ``{0..10..5}``); at most 64 words: anything larger stays one word,
    which `locate` places ``unknown``."""
    words = [word]
    while True:
        grown: list[str] = []
        changed = False
        for item in words:
            match = _LIST.search(item) or _RANGE.search(item)
            if match is None:
                grown.append(item)
                continue
            parts = _numbers(match) if match.re is _RANGE else match.group(1).split(",")
            if parts is None:
                return words
            changed = True
            head, tail = item[: match.start()], item[match.end() :]
            grown.extend(head + part + tail for part in parts)
        if not changed or len(grown) > MAX_EXPANSION:
            return words if changed else grown
        words = grown


def _numbers(match: re.Match[str]) -> list[str] | None:
    """The numbers of ``{A..B}`` or ``{A..B..STEP}``, as bash writes them (padded to the
    wider end when either is written with a leading zero); None past `MAX_EXPANSION`."""
    first, last = int(match.group(1)), int(match.group(2))
    step = abs(int(match.group(3) or 1)) or 1
    if abs(last - first) // step >= MAX_EXPANSION:
        return None
    ends = (match.group(1).lstrip("-"), match.group(2).lstrip("-"))
    width = (
        max(len(match.group(1)), len(match.group(2)))
        if any(len(e) > 1 and e.startswith("0") for e in ends)
        else 0
    )
    numbers = range(first, last + 1, step) if first <= last else range(first, last - 1, -step)
    return [f"{n:0{width}d}" if width else str(n) for n in numbers]
