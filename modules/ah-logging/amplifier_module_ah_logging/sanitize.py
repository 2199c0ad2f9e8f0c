"""Turning arbitrary event data into a JSON-safe, redacted, bounded copy.

Event data is whatever a runtime put in it: pydantic models, bytes, paths, cycles, huge
strings, secrets under well-known names. The log must hold none of the secrets, stay one
line per event, and never fail to serialise, so everything is converted here, once.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from collections.abc import Callable, Iterable, Mapping
from fnmatch import fnmatchcase
from typing import Any

REDACTED = "[REDACTED]"
MAX_DEPTH = 32

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SEPARATORS = re.compile(r"[^a-z0-9*?\[\]]+")


def _words(name: str) -> tuple[str, ...]:
    normal = _SEPARATORS.sub("_", _CAMEL.sub("_", name).lower())
    return tuple(w for w in normal.split("_") if w)


class KeyMatcher:
    """Decides whether a field's value is redacted, by the field's name.

    A configured name matches a key when its words appear in the key's words, in order and
    side by side, ignoring case and separators: ``token`` matches ``access_token`` and
    ``X-Auth-Token`` but not ``max_tokens``; ``api_key`` matches ``apiKey`` and
    ``OPENAI_API_KEY``. A name with glob characters is matched against the whole key
    instead (lowercased, ``-`` and spaces read as ``_``).
    """

    def __init__(self, names: Iterable[str]) -> None:
        self._globs: list[str] = []
        self._phrases: list[tuple[str, ...]] = []
        for name in names:
            if any(c in name for c in "*?["):
                self._globs.append("_".join(_words(name)) if _words(name) else name.lower())
            else:
                words = _words(name)
                if words:
                    self._phrases.append(words)
        self._cache: dict[str, bool] = {}

    @staticmethod
    @functools.lru_cache(maxsize=16)
    def shared(names: tuple[str, ...]) -> KeyMatcher:
        """One matcher per list of names, for every session of a process (its answers
        depend on the names alone, so what one session learned serves the next)."""
        return KeyMatcher(names)

    @property
    def known(self) -> Mapping[str, bool]:
        """The answers given so far, by key (read-only: for a walk over many keys, which
        looks here first and calls only on a key not seen yet)."""
        return self._cache

    def __call__(self, key: str) -> bool:
        hit = self._cache.get(key)
        if hit is None:
            hit = self._match(key)
            if len(self._cache) < 4096:
                self._cache[key] = hit
        return hit

    def _match(self, key: str) -> bool:
        words = _words(key)
        joined = "".join(words)
        for phrase in self._phrases:
            size = len(phrase)
            if any(words[i : i + size] == phrase for i in range(len(words) - size + 1)):
                return True
            if joined == "".join(phrase):  # APIKEY, apikey
                return True
        flat = "_".join(words)
        return any(fnmatchcase(flat, glob) for glob in self._globs)


class Sanitizer:
    """Makes the JSON-safe copy; ``scrub`` (optional) rewrites each string first."""

    def __init__(
        self,
        redact: Callable[[str], bool],
        max_chars: int | None,
        scrub: Callable[[str], Any] | None = None,
    ) -> None:
        self.redact = redact
        self.max_chars = max_chars
        self.scrub = scrub

    def __call__(self, value: Any) -> Any:
        texts = self._clean_texts(value)
        if texts is None:
            return self._convert(value, 0, set())
        limit = self.max_chars
        if limit is None or all(len(text) <= limit for text in texts):
            return value
        return _cut_copy(value, self.cut, limit, {})

    def _clean_texts(self, value: Any) -> set[str] | None:
        """The strings of ``value`` when its safe copy is it with its long strings cut
        (else None): plain JSON data only (`_plain_json`), no key to redact, and the
        scrub says it changes none of its strings, asked once for all of them
        (``scrub.unchanged``, offered by ah-redaction; a scrub without it is asked string
        by string on the full road). A hook input is such data, and most of it is
        clean, so most records skip the conversion and a scrub call per string: a clean
        record is written as it is, or (a tool's long result) with only what holds a
        long string copied, that string cut."""
        scrub = self.scrub
        unchanged = None
        if scrub is not None:
            unchanged = getattr(scrub, "unchanged", None)
            if not callable(unchanged):
                return None
        texts: set[str] = set()
        redact = self.redact
        known = redact.known if type(redact) is KeyMatcher else {}
        if not _plain_json(value, known, redact, texts, 0):
            return None
        if unchanged is None:
            return texts
        try:
            return texts if unchanged(texts) is True else None
        except Exception:  # the full road scrubs, or withholds, string by string
            return None

    def text(self, value: str) -> str:
        """A string as it is logged: scrubbed, then cut to ``max_chars``."""
        if self.scrub is not None:
            scrubbed = self.scrub(value)
            if isinstance(scrubbed, str):
                value = scrubbed
        return self.cut(value)

    def cut(self, value: str) -> str:
        """A string cut to ``max_chars``, not scrubbed (for text that is not payload)."""
        limit = self.max_chars
        if limit is not None and len(value) > limit:
            return f"{value[:limit]}…[+{len(value) - limit} chars]"
        return value

    def _convert(self, value: Any, depth: int, path: set[int]) -> Any:
        # By type(value), not isinstance: a payload object can fake its __class__, and
        # what it claims to be must not decide what reaches the JSON encoder.
        kind = type(value)
        if kind is str:  # most values: looked at first
            return self.text(value)
        if value is None or kind is bool or kind is int:
            return value
        if issubclass(kind, bool | int):
            return value
        if issubclass(kind, str):
            return self.text(_plain(value))
        if issubclass(kind, float):
            return value if math.isfinite(value) else float.__repr__(value)
        if issubclass(kind, bytes | bytearray | memoryview):
            return f"<{len(value)} bytes>"
        if depth >= MAX_DEPTH:
            return "<max depth>"
        if id(value) in path:
            return "<cycle>"
        container = _as_container(value)
        if container is None:
            return self.text(_to_text(value))
        path.add(id(value))
        try:
            if isinstance(container, Mapping):
                out: dict[str, Any] = {}
                redact, text, convert = self.redact, self.text, self._convert
                for key, item in container.items():
                    name = _plain(key if isinstance(key, str) else str(key))
                    if redact(name):
                        out[name] = REDACTED
                    elif type(item) is str:
                        out[name] = text(item)
                    else:
                        out[name] = convert(item, depth + 1, path)
                return out
            return [self._convert(item, depth + 1, path) for item in container]
        finally:
            path.discard(id(value))


def _plain_json(
    value: Any,
    known: Mapping[str, bool],
    redact: Callable[[str], bool],
    texts: set[str],
    depth: int,
) -> bool:
    """True when ``value`` is made of plain JSON values only (by exact type: a payload
    object cannot pass for one) and no key of it is redacted (``known`` answers for the
    keys ``redact`` was asked before); its strings are added to ``texts``. Depth is
    bounded as in the conversion, so a cycle ends here too (False)."""
    kind = type(value)
    if kind is str:
        texts.add(value)
        return True
    if value is None or kind is int or kind is bool:
        return True
    if kind is float:
        return math.isfinite(value)
    if depth >= MAX_DEPTH - 1:
        return False
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str:
                return False
            hit = known.get(key)
            if hit is None:
                hit = redact(key)
            if hit:
                return False
            if type(item) is str:
                texts.add(item)
            elif not _plain_json(item, known, redact, texts, depth + 1):
                return False
        return True
    if kind is list:
        return all(_plain_json(item, known, redact, texts, depth + 1) for item in value)
    return False


def _cut_copy(value: Any, cut: Callable[[str], str], limit: int, done: dict[int, Any]) -> Any:
    """``value`` (plain JSON data, `_plain_json`'s) with each string longer than
    ``limit`` cut: only the lists and objects that hold one are copied, each once (an
    object the data holds twice, a tool's result as ``tool_result`` and ``result``, is
    copied once; ``done`` maps the id of each one copied so far to its copy)."""
    kind = type(value)
    if kind is str:
        return cut(value) if len(value) > limit else value
    if kind is not dict and kind is not list:
        return value
    ident = id(value)
    if ident in done:
        return done[ident]
    if kind is dict:
        out: Any = None
        for key, item in value.items():
            kind = type(item)
            if kind is str:
                if len(item) <= limit:
                    continue
                new = cut(item)
            elif kind is dict or kind is list:
                new = _cut_copy(item, cut, limit, done)
                if new is item:
                    continue
            else:
                continue
            if out is None:
                out = dict(value)
            out[key] = new
    else:
        items = [_cut_copy(item, cut, limit, done) for item in value]
        changed = any(a is not b for a, b in zip(items, value, strict=True))
        out = items if changed else None
    done[ident] = value if out is None else out
    return done[ident]


def _as_container(value: Any) -> Mapping[Any, Any] | list[Any] | None:
    """The mapping or sequence view of a structured value, or None for a plain one."""
    if isinstance(value, Mapping):
        return value
    if isinstance(value, list | tuple | set | frozenset):
        return list(value)
    dump = getattr(value, "model_dump", None)  # pydantic models
    if callable(dump):
        try:
            dumped = dump()
        except Exception:
            return None
        return dumped if isinstance(dumped, Mapping) else None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name, None) for f in dataclasses.fields(value)}
    return None


def _plain(text: str) -> str:
    # A str subclass may override any method the scrub calls: only its characters count.
    # (A payload object that only claims to be a str makes this raise: it is withheld.)
    return text if type(text) is str else str.__str__(text)


def _to_text(value: object) -> str:
    # A payload object whose __str__ raises must not cost the whole record.
    try:
        return _plain(str(value))
    except Exception:
        return f"<unprintable {type(value).__name__}>"
