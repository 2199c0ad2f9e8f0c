"""The text operations of bash's parameter expansion, on known text: patterns (``*``,
``?``, ``[...]``) as regular expressions (`globregex`), ``#``/``##``/``%``/``%%`` removal, ``/``
replacement; and where a quoted part, a ``$(...)`` or a ``${...}`` ends in a word.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.evalscope import Unknown
from amplifier_hooks.guard.globregex import glob_regex

__all__ = ["MAX_PATTERN_WORK", "ansi_end", "closing_brace", "closing_paren", "closing_quote",
           "remove_pattern", "replace_pattern", "split_replace"]  # fmt: skip


MAX_PATTERN_WORK = 4096
"""A pattern's stars times the text's length: past it, the match is not worked out (a
pattern of many ``*`` over a long value would take long)."""


def _bounded(text: str, pattern: str) -> None:
    if (pattern.count("*") + 1) * len(text) > MAX_PATTERN_WORK:
        raise Unknown("pattern work")


def remove_pattern(text: str, op: str, pattern: str) -> str:
    """``${x#p}``, ``${x##p}``, ``${x%p}``, ``${x%%p}``."""
    _bounded(text, pattern)
    regex = re.compile(glob_regex(pattern), re.S)
    ends = range(len(text) + 1)
    if op in ("#", "##"):
        order = reversed(ends) if op == "##" else ends
        for end in order:
            if regex.fullmatch(text, 0, end):
                return text[end:]
        return text
    order = ends if op == "%%" else reversed(ends)
    for start in order:
        if regex.fullmatch(text, start):
            return text[:start]
    return text


def split_replace(word: str) -> tuple[str, str, str]:
    at = 0
    while at < len(word):
        if word[at] == "\\":
            at += 2
            continue
        if word[at] == "/":
            return word[:at], "/", word[at + 1 :]
        at += 1
    return word, "", ""


def replace_pattern(text: str, op: str, pattern: str, replacement: str) -> str:
    """``${x/p/r}``, ``${x//p/r}``, ``${x/#p/r}``, ``${x/%p/r}``."""
    if not pattern:
        return text
    _bounded(text, pattern)
    regex = glob_regex(pattern)
    if op == "/#":
        return re.sub(f"\\A(?:{regex})", lambda _: replacement, text, count=1, flags=re.S)
    if op == "/%":
        found = [m for m in re.finditer(f"(?=((?:{regex})\\Z))", text, re.S)]
        if not found:
            return text
        start = found[0].start()
        return text[:start] + replacement
    return re.sub(f"(?:{regex})", lambda _: replacement, text, count=0 if op == "//" else 1,
                  flags=re.S)  # fmt: skip


def closing_quote(text: str, at: int) -> int:
    """Where the double quote opened before ``at`` closes."""
    while at < len(text):
        char = text[at]
        if char == "\\":
            at += 2
            continue
        if char == '"':
            return at
        if char == "$" and text[at + 1 : at + 2] == "(":
            at = closing_paren(text, at + 2) + 1
            continue
        if char == "`":
            end = text.find("`", at + 1)
            at = (end if end > 0 else len(text)) + 1
            continue
        at += 1
    raise Unknown("quote")


def ansi_end(text: str, at: int) -> int:
    """Where the ``$'`` opened before ``at`` closes."""
    # (not `jsontokens._string_end`: bash's quotes run over newlines, and a `"` holds `$(..)`)
    while at < len(text):
        if text[at] == "\\":
            at += 2
            continue
        if text[at] == "'":
            return at
        at += 1
    raise Unknown("quote")


def closing_paren(text: str, at: int) -> int:
    """Where the ``$(`` or ``(`` opened before ``at`` closes."""
    return _closing(text, at, "(", ")")


def closing_brace(text: str, at: int) -> int:
    """Where the ``${`` opened before ``at`` closes."""
    return _closing(text, at, "{", "}")


def _closing(text: str, at: int, opening: str, closing: str) -> int:
    depth = 1
    while at < len(text):
        char = text[at]
        if char == "\\":
            at += 2
            continue
        if char == "'":
            end = text.find("'", at + 1)
            if end < 0:
                break
            at = end + 1
            continue
        if char == '"':
            at = closing_quote(text, at + 1) + 1
            continue
        if char == opening:
            depth += 1
        elif char == closing:
            depth -= 1
            if depth == 0:
                return at
        at += 1
    raise Unknown(f"no closing {closing}")
