"""Copy-on-write tables of registrations (handlers per event, contributors per channel).

Each key maps to an immutable tuple that is replaced on every change, so whoever is
iterating a tuple (an emit, a collection) keeps the set it started with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def remover(table: dict[K, tuple[V, ...]], key: K, item: V) -> Callable[[], None]:
    """A function that takes ``item`` out of ``table[key]`` (idempotent; drops empty keys)."""

    def remove() -> None:
        current = table.get(key, ())
        if item in current:
            remaining = tuple(v for v in current if v is not item)
            if remaining:
                table[key] = remaining
            else:
                del table[key]

    return remove
