"""The tokens of a JSON text as VS Code reads its settings (JSONC: ``//`` and ``/* */``
comments, trailing commas), whole or a fragment an edit puts in.

An edit's new text is rarely a JSON document of its own (``"label": "watch",
"runOptions": {...},``), so a parser that needs the whole document cannot read it; its
tokens can still be read, and a key is a string followed by ``:``. `pairs` gives each key
with the token after it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import NamedTuple

__all__ = ["MAX_TEXT", "Token", "pairs", "tokens"]

MAX_TEXT = 256 * 1024
"""Longer text is not read (no token)."""
_PUNCT = frozenset("{}[]:,")
_STOPS = _PUNCT | {'"'}


class Token(NamedTuple):
    """A ``string`` (its decoded text), a ``punct`` (one of ``{}[]:,``) or a ``word``
    (a number, ``true``, ``null``, or anything else the text holds there)."""

    kind: str
    text: str


def tokens(text: str) -> Iterator[Token]:
    """The tokens of ``text``, comments left out; an unclosed string ends the text."""
    if len(text) > MAX_TEXT:
        return
    at, end = 0, len(text)
    while at < end:
        char = text[at]
        if char.isspace():
            at += 1
        elif text.startswith("//", at):
            newline = text.find("\n", at)
            at = end if newline < 0 else newline + 1
        elif text.startswith("/*", at):
            close = text.find("*/", at + 2)
            at = end if close < 0 else close + 2
        elif char == '"':
            close = _string_end(text, at)
            if close < 0:
                return
            yield Token("string", _decoded(text[at : close + 1]))
            at = close + 1
        elif char in _PUNCT:
            yield Token("punct", char)
            at += 1
        else:
            start = at
            while at < end and not text[at].isspace() and text[at] not in _STOPS:
                at += 1
            yield Token("word", text[start:at])


def pairs(text: str) -> Iterator[tuple[str, Token]]:
    """Each key of ``text`` (a string followed by ``:``) with the token of its value (a
    ``{`` or ``[`` where the value is an object or a list)."""
    window: list[Token] = []
    for token in tokens(text):
        window.append(token)
        if len(window) > 3:
            del window[0]
        if len(window) == 3 and window[0].kind == "string" and window[1] == _COLON:
            yield window[0].text, window[2]


_COLON = Token("punct", ":")


def _string_end(text: str, start: int) -> int:
    # (not `evaltext`'s quote scanners: a JSON string ends at a newline, holds no `$(...)`)
    at = start + 1
    while at < len(text):
        char = text[at]
        if char == "\\":
            at += 2
            continue
        if char == '"':
            return at
        if char == "\n":
            return -1
        at += 1
    return -1


def _decoded(quoted: str) -> str:
    try:
        value = json.loads(quoted)
    except ValueError:
        return quoted[1:-1]
    return value if isinstance(value, str) else quoted[1:-1]
