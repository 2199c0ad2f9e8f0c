"""Shortening a call (``bash: python -m pytest -q tests/test_calc.py``) to a table cell at
whole words: ``bash: …test_calc.py``, never ``bash: pyth…st_calc.py``.

The start (the tool) and the end (the file, what a ``;`` chains behind an innocent start)
matter most, so the `…` goes in the middle; the cut falls where a word, a path component
or an option begins or ends. Only when no word-bounded cut fits is a word cut in the
middle (`shorten_middle`), so that something of the call is always shown.
"""

from __future__ import annotations

from amplifier_hooks.toolcalls import shorten_middle

__all__ = ["shorten_words"]

_BOUNDARY = frozenset(" \t/:=,;|&()[]{}\"'")


def shorten_words(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters, cut in the middle at word boundaries."""
    if len(text) <= width:
        return text
    if width <= 1:
        return "…"[: max(width, 0)]
    room = width - 1
    size = len(text)
    # A head ends where a boundary follows or precedes; a tail starts after a boundary.
    heads = [i for i in range(1, room + 1) if text[i] in _BOUNDARY or text[i - 1] in _BOUNDARY]
    tails = [j for j in range(size - room, size) if j > 0 and text[j - 1] in _BOUNDARY]
    best: tuple[int, int, int] | None = None
    for i in heads:
        fitting = [j for j in tails if j >= size - (room - i) and j > i]
        if fitting:
            j = min(fitting)
            kept = i + size - j
            if best is None or kept > best[0]:
                best = (kept, i, j)
    if best is not None:
        return text[: best[1]] + "…" + text[best[2] :].lstrip()
    # No head fits beside a tail: the longer of the start alone and the end alone.
    head = text[: max(heads)].rstrip() + "…" if heads else ""
    tail = "…" + text[min(tails) :].lstrip() if tails else ""
    if head or tail:
        return head if len(head) > len(tail) else tail
    return shorten_middle(text, width)
