"""Words without some of them, each taken away once: a value an option reads, or a
search's pattern, is one word of the command line, and the same text given again elsewhere
(``grep -e x x``: the pattern, then a file) is still its own word."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["minus"]


def minus(words: tuple[str, ...], taken: Iterable[str]) -> tuple[str, ...]:
    """``words`` in order, without one occurrence of each word of ``taken``."""
    left = list(taken)
    if not left:
        return words
    kept: list[str] = []
    for word in words:
        if word in left:
            left.remove(word)
        else:
            kept.append(word)
    return tuple(kept)
