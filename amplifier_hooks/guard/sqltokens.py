"""SQL read as the server reads it: words, quoted literals and marks, comments left out.

A statement's effect is told by its words in order (``COPY t TO PROGRAM 'cmd'``), never by
a pattern over its text: a word inside a literal (``'drop table'``), a comment or a quoted
identifier is not a keyword. Literals come back with their quotes undone (``''`` is one
quote; PostgreSQL's ``$tag$...$tag$`` too); a dialect's other quoting (``"x"``, ```x```,
``[x]``) is an identifier. Text the reader cannot close (a literal left open) ends the
reading: what follows is one literal, never keywords. Where dialects differ on a comment
(``#``, ``--x``, MySQL's ``/*! ... */`` that it runs), the text is read as words, so a
comment never hides a statement from the guard.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["Token", "statements", "tokens"]


class Token(NamedTuple):
    """One token: ``kind`` is ``word`` (upper-cased in ``text``), ``literal`` (its value),
    ``ident`` (a quoted identifier's name) or ``mark`` (punctuation, one character)."""

    kind: str
    text: str


_WORD = re.compile(r"[A-Za-z_][\w$]*|\d[\w.]*")
_DOLLAR = re.compile(r"\$([A-Za-z_]\w*)?\$")
_CLOSE = {'"': '"', "`": "`", "[": "]"}
MAX_TEXT = 64 * 1024


def tokens(sql: str) -> list[Token]:
    """The tokens of ``sql`` (its first `MAX_TEXT` characters), comments left out."""
    text, found, i = sql[:MAX_TEXT], [], 0
    n = len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif text.startswith("--", i) and (i + 2 == n or text[i + 2].isspace()):
            end = text.find("\n", i)  # (MySQL's `1--1` is arithmetic, its `#` is PostgreSQL's
            i = n if end < 0 else end + 1  # xor: neither is taken for a comment, to hide nothing)
        elif text.startswith("/*", i) and not text.startswith("/*!", i):  # MySQL runs /*! */
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif c == "'":
            value, i = _quoted(text, i)
            found.append(Token("literal", value))
        elif c == "$" and (dollar := _DOLLAR.match(text, i)):
            tag = dollar.group(0)
            end = text.find(tag, dollar.end())
            end = n if end < 0 else end
            found.append(Token("literal", text[dollar.end() : end]))
            i = end + len(tag)
        elif c in _CLOSE:
            end = text.find(_CLOSE[c], i + 1)
            end = n if end < 0 else end
            found.append(Token("ident", text[i + 1 : end]))
            i = end + 1
        elif word := _WORD.match(text, i):
            found.append(Token("word", word.group(0).upper()))
            i = word.end()
        else:
            found.append(Token("mark", c))
            i += 1
    return found


def _quoted(text: str, start: int) -> tuple[str, int]:
    """The value of the literal opening at ``start`` (``''`` and ``\\'`` a quote) and
    where the text resumes after it."""
    parts: list[str] = []
    i = start + 1
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):  # MySQL's and E'' literals' escape
            parts.append(text[i + 1])
            i += 2
        elif c == "'" and text.startswith("''", i):
            parts.append("'")
            i += 2
        elif c == "'":
            return "".join(parts), i + 1
        else:
            parts.append(c)
            i += 1
    return "".join(parts), len(text)


def statements(sql: str) -> list[list[Token]]:
    """The statements of ``sql``, each its tokens (split at ``;`` outside literals)."""
    found: list[list[Token]] = [[]]
    for token in tokens(sql):
        if token == Token("mark", ";"):
            found.append([])
        else:
            found[-1].append(token)
    return [statement for statement in found if statement]
