"""Walking a payload and scrubbing every string in it, without touching the original.

Containers are copied only along the paths where something changed, so an event with no
secrets costs one walk and no allocation, and the caller can tell "nothing found" by
identity. Long strings are memoised: a provider request repeats the whole conversation
every turn, and scanning the same megabytes again would add up.

The walk never hands back a subtree it did not scrub, whatever the payload's shape:

- it keeps its own stack instead of recursing, so there is no depth past which data passes
  through as it is (nor a RecursionError that would make the hook fail open);
- a container met again on the way down (a cycle) is cut and replaced with `CYCLE`,
  because the copy of it that would hold the scrubbed data does not exist yet;
- a container shared by several parents is walked once and its scrubbed copy reused, so
  a payload built by doubling a list 64 times costs 64 steps, not 2**64.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from amplifier_module_ah_redaction.rules import MARKER_PREFIX, SECRET_KEY, Rule, marker

CYCLE_RULE = "cycle"
CYCLE = marker(CYCLE_RULE)
"""What a reference back to an enclosing container is replaced with (counted as a rule:
the data changed)."""

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
        self._cached = functools.lru_cache(maxsize=cache_size)(self._look)
        self._hinted = _Hinted(self.rules)

    def scrub_text(self, text: str) -> tuple[str, Counter[str]]:
        """``text`` with secrets replaced, and the number of replacements per rule."""
        result, found = self._text(text)
        return result, Counter(dict(found))

    def text(self, text: str) -> str:
        """``text`` with secrets replaced (the same object if nothing was)."""
        return self._text(text)[0]

    def unchanged(self, texts: Iterable[str]) -> bool:
        """True when `text` would hand back every one of ``texts`` as it is; False when
        it may not (then scrub them one by one). Answered with one look at all of them
        joined: when no rule's hint occurs in the joined text, none occurs in any one of
        them, and a rule without its hint never runs (a caller with many short strings,
        ah-logging's record, saves a call per string)."""
        hinted = self._hinted
        if not hinted.joinable:
            return False
        short = []
        for text in texts:
            if len(text) >= CACHE_MIN:
                # Through the memo: a tool result is looked at again (the event log, a
                # second field holding the same text), and then it is a lookup.
                if self._cached(text)[1]:
                    return False
            elif len(text) >= self.min_text:
                short.append(text)
        return not hinted.may_match("\0".join(short))

    def scrub(self, value: Any) -> tuple[Any, Counter[str]]:
        """``value`` with secrets replaced (the same object if nothing was), and counts."""
        counts: Counter[str] = Counter()
        if isinstance(value, str):
            text, found = self._text(value)
            if found:
                counts.update(dict(found))
            return text, counts
        if not isinstance(value, Mapping | list | tuple):
            return value, counts
        return self._walk(value, counts), counts

    def _text(self, text: str) -> tuple[str, tuple[tuple[str, int], ...]]:
        if len(text) >= CACHE_MIN:  # the memo first: a long text costs a look once
            return self._cached(text)
        if len(text) < self.min_text or not self._hinted.may_match(text):
            return text, ()
        return self._scan(text)

    def _look(self, text: str) -> tuple[str, tuple[tuple[str, int], ...]]:
        """`_scan` of a text with a rule's hint in it (memoised for long texts)."""
        if not self._hinted.may_match(text):
            return text, ()
        return self._scan(text)

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
        # Nothing replaced: the text itself (a match a rule refused is copied back equal,
        # and callers tell "nothing found" by identity).
        return (text if found else original), tuple(found)

    def _walk(
        self, root: Mapping[Any, Any] | list[Any] | tuple[Any, ...], counts: Counter[str]
    ) -> Any:
        done: dict[int, Any] = {}  # id of a container walked already -> its result
        stack = [_Frame(root)]
        open_ids = {id(root)}  # the containers on the stack: meeting one again is a cycle
        while True:
            frame = stack[-1]
            descend: Any = None
            for key, item in frame.items:
                if isinstance(item, str):
                    if frame.is_mapping and self.field_rule and _is_secret_field(key, item):
                        new: Any = self._field_marker
                        counts[self.field_rule] += 1
                    else:
                        new, found = self._text(item)
                        if found:
                            counts.update(dict(found))
                elif isinstance(item, Mapping | list | tuple):
                    ident = id(item)
                    if ident in done:
                        new = done[ident]
                    elif ident in open_ids:
                        new = CYCLE
                        counts[CYCLE_RULE] += 1
                    else:
                        descend = item
                        frame.key = key
                        break
                elif frame.is_mapping and self.field_rule and _is_secret_field(key, item):
                    new = self._field_marker
                    counts[self.field_rule] += 1
                else:
                    new = item
                frame.add(key, item, new)
            if descend is not None:
                stack.append(_Frame(descend))
                open_ids.add(id(descend))
                continue
            result = frame.result()
            stack.pop()
            ident = id(frame.source)
            open_ids.discard(ident)
            done[ident] = result
            if not stack:
                return result
            parent = stack[-1]
            parent.add(parent.key, frame.source, result)


class _Hinted:
    """Whether any rule may run on a text: one look for the hints of every rule
    (`_finder`) per way of comparing (as written, lowercased). Most strings of an
    event (paths, names, ids) hold no hint, and are then done without a look at each rule;
    a text with a hint goes through each rule's own test, as before."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.always = any(not rule.hints for rule in rules)
        exact = {h for rule in rules if not rule.fold_hints for h in rule.hints}
        folded = {h for rule in rules if rule.fold_hints for h in rule.hints}
        # Texts joined by NUL hold a hint only if one of them does, when no hint holds a
        # NUL and every hint is ASCII: ``lower()`` treats each character alone but for the
        # Greek final sigma, which looks at its neighbours (and lowers to non-ASCII).
        self.joinable = not self.always and all(
            hint.isascii() and "\0" not in hint for hint in (*exact, *folded)
        )
        self._exact = _finder(exact)
        self._folded = _finder(folded)

    def may_match(self, text: str) -> bool:
        if self.always:
            return True
        if self._exact is not None and self._exact(text):
            return True
        # Compared with text.lower(), exactly as `Rule.may_match` does.
        return self._folded is not None and self._folded(text.lower())


_COMMON = " etaoinsrlhdcu\n_mpfgy.,=()b\"'wv:k-/x#0123456789j[]{}q*z"
"""Characters from the most to the least common in prose and source code (roughly); any
other (a capital, most symbols) counts as rarer than all of them."""


_ONE_LOOK = 512
"""Texts shorter than this are looked at with one pattern of every hint."""


def _rarity(char: str) -> int:
    found = _COMMON.find(char)
    return len(_COMMON) if found < 0 else found


def _finder(hints: set[str]) -> Callable[[str], bool] | None:
    """Whether a text holds any of ``hints`` (None: there are none).

    Each hint is looked for from its rarest character (its anchor): one pattern per
    anchor, starting with it, the rest of each hint after it and a look behind for the
    part before (``J(?<=eyJ)``). A pattern that starts with one character is searched
    for it first at the speed of a plain substring search, and a text without the
    anchor is passed over at once; one pattern of every hint (an alternation) would
    try each position of the text in turn, and most of them start a hint in common
    text (``e``, ``s``, ``g``)."""
    if not hints:
        return None
    kept = {hint for hint in hints if not any(o != hint and o in hint for o in hints)}
    tails: dict[str, list[str]] = {}
    for hint in sorted(kept):
        at = max(range(len(hint)), key=lambda i: _rarity(hint[i]))
        behind = f"(?<={re.escape(hint)})" if at else ""
        tails.setdefault(hint[at], []).append(re.escape(hint[at + 1 :]) + behind)
    patterns = [
        (anchor, re.escape(anchor) + _either(found))
        for anchor, found in sorted(tails.items(), key=lambda item: -_rarity(item[0]))
    ]
    searches = tuple((anchor, re.compile(pattern).search) for anchor, pattern in patterns)
    # A short text (a path, a name): one look with every pattern at once costs less
    # than one call per anchor.
    at_once = re.compile("|".join(pattern for _, pattern in patterns)).search

    def find(text: str) -> bool:
        if len(text) < _ONE_LOOK:
            return at_once(text) is not None
        return any(anchor in text and search(text) is not None for anchor, search in searches)

    return find


def _either(patterns: list[str]) -> str:
    if "" in patterns:
        return ""  # a hint that is its anchor alone: any other adds nothing
    return patterns[0] if len(patterns) == 1 else "(?:" + "|".join(patterns) + ")"


class _Frame:
    """One container being walked: where the walk is in it, and its copy so far."""

    __slots__ = ("source", "is_mapping", "items", "out", "changed", "key")

    def __init__(self, source: Mapping[Any, Any] | list[Any] | tuple[Any, ...]) -> None:
        self.source = source
        self.is_mapping = isinstance(source, Mapping)
        self.items: Iterator[tuple[Any, Any]] = (
            iter(source.items()) if isinstance(source, Mapping) else enumerate(source)
        )
        self.out: Any = {} if self.is_mapping else []
        self.changed = False
        self.key: Any = None  # the key of the child being walked

    def add(self, key: Any, old: Any, new: Any) -> None:
        if new is not old:
            self.changed = True
        if self.is_mapping:
            self.out[key] = new
        else:
            self.out.append(new)

    def result(self) -> Any:
        if not self.changed:
            return self.source
        if isinstance(self.source, tuple):
            return tuple(self.out)
        return self.out


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
