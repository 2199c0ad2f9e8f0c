"""Copy-on-write tables of registrations (handlers per event, contributors per channel).

Each key maps to an immutable tuple that is replaced on every change, so whoever is
iterating a tuple (an emit, a collection) keeps the set it started with.
"""

from __future__ import annotations

from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Remover(Generic[K, V]):
    """A callable that takes ``item`` out of ``table[key]`` (idempotent; drops empty keys).

    An object with slots rather than a closure: every registration of every session
    keeps one, and a closure is a function, a tuple and a cell per variable for the
    garbage collector to walk; this is one object.
    """

    __slots__ = ("_table", "_key", "_item")

    def __init__(self, table: dict[K, tuple[V, ...]], key: K, item: V) -> None:
        self._table = table
        self._key = key
        self._item = item

    def __call__(self) -> None:
        take_out(self._table, self._key, self._item)


def take_out(table: dict[K, tuple[V, ...]], key: K, item: V) -> None:
    """Take ``item`` out of ``table[key]`` (nothing if it is not there; drops empty keys)."""
    current = table.get(key, ())
    if item in current:
        remaining = tuple(v for v in current if v is not item)
        if remaining:
            table[key] = remaining
        else:
            del table[key]
