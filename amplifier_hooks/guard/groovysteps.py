"""A Jenkinsfile's shell steps and shared libraries, read from its Groovy tokens.

A pipeline's ``sh 'make test'`` (or ``sh(script: "...", returnStdout: true)``) runs on a
Jenkins agent, inside ``withCredentials`` blocks that hold the job's secrets. The guard
reads Groovy only as far as it must: its comments, its string literals (single, double
and triple quoted, with their escapes) and its words; the literal given to ``sh`` is the
step's script. A GString's ``${env.NAME}`` reads as the shell's ``${NAME}``, any other
``${...}`` as a value known only on Jenkins. Text the reader cannot follow (a string
left open) is not read: None (the write is never granted either way).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

__all__ = ["jenkins_libraries", "jenkins_steps"]

_STEPS = frozenset({"sh"})
"""The steps whose string is a POSIX shell script (``bat`` and ``powershell`` are not)."""
_WORD = re.compile(r"[A-Za-z_@][A-Za-z0-9_]*")
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"', "$": "$"}
_ENV = re.compile(r"\$\{\s*env\.([A-Za-z_][A-Za-z0-9_]*)\s*\}")
_EXPRESSION = re.compile(r"\$\{[^}]*\}")
_NAMED = re.compile(r"\$\{[A-Za-z_]\w*\}")


class Token(NamedTuple):
    """A word (``sh``, ``@Library``), a string literal's value, or one other character."""

    kind: str  # "word", "string", "other"
    value: str


def jenkins_steps(text: str) -> tuple[str, ...] | None:
    """The scripts of the ``sh`` steps in ``text`` (None: it cannot be read)."""
    tokens = _tokens(text)
    if tokens is None:
        return None
    found: list[str] = []
    for index, token in enumerate(tokens):
        if token.kind == "word" and token.value in _STEPS:
            script = _argument(tokens, index + 1, "script")
            if script is not None:
                found.append(script)
    return tuple(found)


def jenkins_libraries(text: str) -> tuple[str, ...] | None:
    """The shared libraries ``@Library(...)`` and ``library '...'`` load, as written
    (``name@ref``); None: the text cannot be read."""
    tokens = _tokens(text)
    if tokens is None:
        return None
    found: list[str] = []
    for index, token in enumerate(tokens):
        if token.kind == "word" and token.value in ("@Library", "library"):
            end = _closing(tokens, index + 1)
            found.extend(t.value for t in tokens[index + 1 : end] if t.kind == "string")
    return tuple(found)


def _argument(tokens: list[Token], start: int, name: str) -> str | None:
    """The string a step is given: the literal right after it, or in its parentheses the
    one named ``name`` (or the first one given by position)."""
    if start >= len(tokens):
        return None
    first = tokens[start]
    if first.kind == "string":
        return first.value
    if first.value != "(":
        return None
    end = _closing(tokens, start)
    inner = tokens[start + 1 : end]
    for i, token in enumerate(inner[:-2]):
        if token == Token("word", name) and inner[i + 1].value == ":":
            value = inner[i + 2]
            return value.value if value.kind == "string" else None
    if inner and inner[0].kind == "string":
        return inner[0].value
    return None


def _closing(tokens: list[Token], start: int) -> int:
    """The index just past the parenthesis that closes the one at ``start`` (or ``start``
    + 1: no parenthesis there, only the word's next token)."""
    if start >= len(tokens) or tokens[start].value != "(":
        return min(start + 1, len(tokens))
    depth = 0
    for index in range(start, len(tokens)):
        value = tokens[index].value if tokens[index].kind == "other" else ""
        depth += value == "("
        depth -= value == ")"
        if depth == 0:
            return index
    return len(tokens)


def _tokens(text: str) -> list[Token] | None:
    try:
        return list(_lexed(text))
    except ValueError:
        return None


def _lexed(text: str) -> Iterator[Token]:
    index, size = 0, len(text)
    while index < size:
        char = text[index]
        if char.isspace():
            index += 1
        elif text.startswith("//", index):
            end = text.find("\n", index)
            index = size if end < 0 else end
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            if end < 0:
                raise ValueError("an open comment")
            index = end + 2
        elif char in "'\"":
            triple = text.startswith(char * 3, index)
            value, index = _string(text, index + (3 if triple else 1), char * (3 if triple else 1))
            yield Token("string", _as_shell(value) if char == '"' else value)
        elif (word := _WORD.match(text, index)) is not None:
            yield Token("word", word.group())
            index = word.end()
        else:
            yield Token("other", char)
            index += 1


def _string(text: str, index: int, quote: str) -> tuple[str, int]:
    """A literal's value from ``index`` to its closing ``quote``, and the index after it."""
    out: list[str] = []
    while index < len(text):
        if text.startswith(quote, index):
            return "".join(out), index + len(quote)
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            following = text[index + 1]
            out.append(_ESCAPES.get(following, "\\" + following))
            index += 2
            continue
        if char == "\n" and len(quote) == 1:
            raise ValueError("a string left open at a line's end")
        out.append(char)
        index += 1
    raise ValueError("a string left open")


def _as_shell(value: str) -> str:
    """A GString's value as the shell sees it: ``${env.X}`` is the variable X, any other
    expression a value known only on Jenkins."""
    value = _ENV.sub(lambda m: "${" + m.group(1) + "}", value)
    return _EXPRESSION.sub(
        lambda m: m.group() if _NAMED.fullmatch(m.group()) else "${JENKINS_EXPRESSION}", value
    )
