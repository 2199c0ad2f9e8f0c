"""Counts in words: "1 rule", "2 rules". Every message that counts says it this way, so
none reads "1 rules"."""

from __future__ import annotations


def plural(count: int | float, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, the noun in the plural (``many``, else noun + "s") unless
    the count is exactly one. Thousands are separated and floats shown as ``:g``."""
    number = f"{count:,}" if isinstance(count, int) else f"{count:g}"
    return f"{number} {noun if count == 1 else (many or noun + 's')}"
