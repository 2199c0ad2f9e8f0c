"""Reading OpenClaw's ``openclaw.json`` (JSON5) with where each value sits in the text.

Install and uninstall change the user's file by inserting and removing text, never by
writing a parsed copy back: OpenClaw's own ``config patch`` drops JSON5 comments, and a
user's file must come back byte for byte. So the reader keeps, for every object member
and array element, its offsets in the text (`Node`), and values are read as JSON5 says:
comments (``//``, ``/* */``), unquoted and single-quoted keys, single-quoted strings,
trailing commas, hexadecimal numbers, ``Infinity`` and ``NaN``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Json5Error", "Member", "Node", "parse"]


class Json5Error(ValueError):
    """Text that is not JSON5; the message says where."""


@dataclass
class Member:
    """One ``key: value`` of an object: the key's text starts at ``start``."""

    key: str
    start: int
    value: Node


@dataclass
class Node:
    """A value and where it is: ``text[start:end]`` (for an object or array, from its
    opening bracket to just past its closing one)."""

    start: int
    end: int
    value: Any = None
    members: list[Member] = field(default_factory=list)
    """An object's members, in order."""
    items: list[Node] = field(default_factory=list)
    """An array's elements, in order."""
    kind: str = "scalar"
    """``object``, ``array`` or ``scalar``."""

    def get(self, key: str) -> Node | None:
        """The value of the last member named ``key`` (JSON5: the last one wins)."""
        found = [m.value for m in self.members if m.key == key]
        return found[-1] if found else None


_NUMBER = re.compile(
    r"[+-]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|Infinity|NaN)"
)
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "0": "\0"}
_HEX_ESCAPES = {"u": 4, "x": 2}
"""``\\uXXXX`` and ``\\xXX``: how many hex digits follow."""
_HEX = re.compile(r"[0-9a-fA-F]+")
_MAX_DEPTH = 200


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def error(self, what: str, at: int | None = None) -> Json5Error:
        where = self.at if at is None else at
        line = self.text.count("\n", 0, where) + 1
        column = where - (self.text.rfind("\n", 0, where) + 1) + 1
        return Json5Error(f"{what} at line {line} column {column}")

    def skip(self) -> None:
        """Past whitespace and comments."""
        text = self.text
        while self.at < len(text):
            char = text[self.at]
            if char.isspace() or char == "\ufeff":
                self.at += 1
            elif text.startswith("//", self.at):
                end = text.find("\n", self.at)
                self.at = len(text) if end < 0 else end + 1
            elif text.startswith("/*", self.at):
                end = text.find("*/", self.at + 2)
                if end < 0:
                    raise self.error("a comment that never ends")
                self.at = end + 2
            else:
                return

    def value(self, depth: int = 0) -> Node:
        if depth > _MAX_DEPTH:
            raise self.error("nested too deeply")
        self.skip()
        if self.at >= len(self.text):
            raise self.error("a value expected, the text ended")
        char = self.text[self.at]
        if char == "{":
            return self.object(depth)
        if char == "[":
            return self.array(depth)
        if char in "\"'":
            start = self.at
            text = self.string()
            return Node(start, self.at, text)
        return self.scalar()

    def closes(self, node: Node, bracket: str) -> bool:
        """Whether ``bracket`` closes ``node`` here (then read past it: the node ends)."""
        if not self.text.startswith(bracket, self.at):
            return False
        self.at += 1
        node.end = self.at
        return True

    def object(self, depth: int) -> Node:
        node = Node(self.at, self.at, {}, kind="object")
        self.at += 1
        while True:
            self.skip()
            if self.closes(node, "}"):
                node.value = {m.key: m.value.value for m in node.members}
                return node
            start = self.at
            key = self.key()
            self.skip()
            if not self.text.startswith(":", self.at):
                raise self.error("':' expected after a key")
            self.at += 1
            node.members.append(Member(key, start, self.value(depth + 1)))
            self.skip()
            if self.text.startswith(",", self.at):
                self.at += 1
            elif not self.text.startswith("}", self.at):
                raise self.error("',' or '}' expected")

    def array(self, depth: int) -> Node:
        node = Node(self.at, self.at, [], kind="array")
        self.at += 1
        while True:
            self.skip()
            if self.closes(node, "]"):
                node.value = [item.value for item in node.items]
                return node
            node.items.append(self.value(depth + 1))
            self.skip()
            if self.text.startswith(",", self.at):
                self.at += 1
            elif not self.text.startswith("]", self.at):
                raise self.error("',' or ']' expected")

    def key(self) -> str:
        if self.at < len(self.text) and self.text[self.at] in "\"'":
            return self.string()
        found = _IDENTIFIER.match(self.text, self.at)
        if found is None:
            raise self.error("a key expected")
        self.at = found.end()
        return found.group()

    def string(self) -> str:
        quote = self.text[self.at]
        start = self.at
        self.at += 1
        parts: list[str] = []
        text = self.text
        while True:
            if self.at >= len(text):
                raise self.error("a string that never ends", start)
            char = text[self.at]
            if char == quote:
                self.at += 1
                return "".join(parts)
            if char == "\n":
                raise self.error("a line break inside a string", self.at)
            if char != "\\":
                parts.append(char)
                self.at += 1
                continue
            escaped = text[self.at + 1 : self.at + 2]
            self.at += 2
            width = _HEX_ESCAPES.get(escaped)
            if width is not None:
                digits = text[self.at : self.at + width]
                if len(digits) != width or not _HEX.fullmatch(digits):
                    raise self.error(f"a bad \\{escaped} escape", self.at - 2)
                parts.append(chr(int(digits, 16)))
                self.at += width
            elif escaped in ("\n", "\r"):
                if escaped == "\r" and text.startswith("\n", self.at):
                    self.at += 1  # a line continuation
            else:
                parts.append(_ESCAPES.get(escaped, escaped))

    def scalar(self) -> Node:
        start = self.at
        for word, value in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, start) and not _continues(self.text, start + len(word)):
                self.at = start + len(word)
                return Node(start, self.at, value)
        found = _NUMBER.match(self.text, start)
        if found is None or _continues(self.text, found.end()):
            raise self.error("a value expected")
        self.at = found.end()
        return Node(start, self.at, _number(found.group()))


def _continues(text: str, at: int) -> bool:
    return at < len(text) and (text[at].isalnum() or text[at] in "_$")


def _number(text: str) -> float | int:
    sign = -1 if text.startswith("-") else 1
    bare = text.lstrip("+-")
    if bare in ("Infinity", "NaN"):
        return sign * float("inf") if bare == "Infinity" else float("nan")
    if bare[:2] in ("0x", "0X"):
        return sign * int(bare, 16)
    if any(c in bare for c in ".eE"):
        return sign * float(bare)
    return sign * int(bare)


def parse(text: str) -> Node:
    """The JSON5 value in ``text``, with where each part is; `Json5Error` saying where
    the text stops being JSON5."""
    reader = _Reader(text)
    node = reader.value()
    reader.skip()
    if reader.at != len(text):
        raise reader.error("more after the value")
    return node
