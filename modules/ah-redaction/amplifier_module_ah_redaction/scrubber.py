"""Walking a payload and scrubbing every string in it, without touching the original.

Containers are copied only along the paths where something changed, so an event with no
secrets costs one walk and no allocation, and the caller can tell "nothing found" by
identity. Long strings are memoised: a provider request repeats the whole conversation
every turn, and scanning the same megabytes again would add up.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from amplifier_module_ah_redaction.rules import MARKER_PREFIX, SECRET_KEY, Rule, marker

MAX_DEPTH = 64
"""Deeper nesting is left as it is: no real payload nests this far, and recursion must end."""

MIN_TEXT = 6
"""Strings shorter than this cannot hold anything a built-in rule matches."""

CACHE_MIN = 256
"""Strings at least this long are memoised."""


class Scrubber:
    """Applies ``rules`` to every string of a payload; ``field_rule`` also blanks the whole
    value of fields whose name says they hold a secret."""

    def __init__(
        self,
        rules: Sequence[Rule],
        *,
        field_rule: str | None,
        min_text: int = MIN_TEXT,
        cache_size: int = 512,
    ) -> None:
        self.rules = tuple(rules)
        self.field_rule = field_rule
        self.min_text = min_text
        self._field_marker = marker(field_rule) if field_rule else ""
        self._cached = functools.lru_cache(maxsize=cache_size)(self._scan)

    def scrub_text(self, text: str) -> tuple[str, Counter[str]]:
        """``text`` with secrets replaced, and the number of replacements per rule."""
        if len(text) < self.min_text:
            return text, Counter()
        if len(text) >= CACHE_MIN:
            result, counts = self._cached(text)
        else:
            result, counts = self._scan(text)
        return result, Counter(dict(counts))

    def scrub(self, value: Any) -> tuple[Any, Counter[str]]:
        """``value`` with secrets replaced (the same object if nothing was), and counts."""
        counts: Counter[str] = Counter()
        return self._walk(value, counts, 0, set()), counts

    def _scan(self, text: str) -> tuple[str, tuple[tuple[str, int], ...]]:
        found: list[tuple[str, int]] = []
        # Hints are checked against the original text: replacing only inserts markers,
        # which no rule matches, so it cannot create a candidate for a later rule.
        original, folded = text, text.lower()
        for rule in self.rules:
            if not rule.may_match(original, folded):
                continue
            text, count = rule.apply(text)
            if count:
                found.append((rule.name, count))
        return text, tuple(found)

    def _walk(self, value: Any, counts: Counter[str], depth: int, path: set[int]) -> Any:
        if isinstance(value, str):
            text, found = self.scrub_text(value)
            counts.update(found)
            return text
        if isinstance(value, Mapping):
            return self._walk_mapping(value, counts, depth, path)
        if isinstance(value, list | tuple):
            if depth >= MAX_DEPTH or id(value) in path:
                return value
            path.add(id(value))
            items = [self._walk(item, counts, depth + 1, path) for item in value]
            path.discard(id(value))
            if all(new is old for new, old in zip(items, value, strict=True)):
                return value
            return items if isinstance(value, list) else tuple(items)
        return value

    def _walk_mapping(
        self, value: Mapping[Any, Any], counts: Counter[str], depth: int, path: set[int]
    ) -> Any:
        if depth >= MAX_DEPTH or id(value) in path:
            return value
        path.add(id(value))
        changed = False
        out: dict[Any, Any] = {}
        for key, item in value.items():
            if self.field_rule and _is_secret_field(key, item):
                new: Any = self._field_marker
                counts[self.field_rule] += 1
            else:
                new = self._walk(item, counts, depth + 1, path)
            changed = changed or new is not item
            out[key] = new
        path.discard(id(value))
        return out if changed else value


@functools.lru_cache(maxsize=1024)
def _secret_name(key: str) -> bool:
    return SECRET_KEY.fullmatch(key) is not None


def _is_secret_field(key: Any, item: Any) -> bool:
    # Only scalar values are blanked; a container under a secret-looking name is walked
    # instead, so its structure (and anything harmless in it) survives.
    if not isinstance(key, str) or not _secret_name(key):
        return False
    if isinstance(item, str):
        return bool(item) and not item.startswith(MARKER_PREFIX)
    return isinstance(item, int | float) and not isinstance(item, bool)
