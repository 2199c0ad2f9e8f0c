"""What the guard's caches across calls keep: what recurs, not what is seen once.

An agent runs the same commands again and again (`git status`), and a new one every call
too (``pytest -q tests/test_7.py``). A cache that keeps everything keeps every one-off, and
each kept one-off is a few objects the garbage collector walks at every collection until
the cache is cleared: for a new command every call, more than the cache saves
(``bench_guard``'s fresh decision row: 61 -> 55 us with the parse cache and the pieces'
readings keeping only what recurs). So a cache offers its key to `Sightings.again`, which
remembers only the key's hash (an int: nothing for the collector to walk), and keeps the
value the second time: a recurring command is kept from its second call on.
"""

from __future__ import annotations

from collections.abc import Hashable

__all__ = ["Sightings"]


class Sightings:
    """The hashes of the keys seen (at most ``size``, all forgotten when full). Two keys of
    one hash count as one: a value is then kept at its first sight, which is what a cache
    without sightings does, so nothing but the saving depends on it."""

    __slots__ = ("_seen", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self._seen: set[int] = set()

    def again(self, key: Hashable) -> bool:
        """Whether ``key`` was seen before; it is seen now."""
        code = hash(key)
        seen = self._seen
        if code in seen:
            return True
        if len(seen) >= self.size:
            seen.clear()
        seen.add(code)
        return False

    def forget(self) -> None:
        self._seen.clear()
