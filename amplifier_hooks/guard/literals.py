"""Variables a command sets to a literal before it uses them: ``BUILD_DIR=dist; rm -rf
"$BUILD_DIR"`` deletes ``dist``, and ``R=rm; $R -rf ~`` runs ``rm``.

A value is known only where the shell could give the variable no other: the variable is
set exactly once in the whole command, by a statement of the command's top level (run
unconditionally, before anything after it), to a literal (no expansion, substitution or
pattern); the command names it nowhere else but in plain reads after that statement
(``$X``, ``${X}``, ``${X:?}``): no ``read X``, ``for X in``, ``${X:=..}``, ``${!X}``,
``export``/``declare``/``unset``, nor a second assignment, conditional or not. A command
that names ``IFS`` knows no value (it changes how a value splits into words). Any other
read of a variable stays unknown: the guard treats it as such, never as harmless.
"""

from __future__ import annotations

import re
from contextvars import ContextVar

from tree_sitter import Node

__all__ = ["KNOWN", "PLAIN_READ", "Known", "known_values", "value_at"]

Known = dict[str, tuple[int, str]]
"""By name: the byte offset where the variable's one assignment ends, and its value."""

KNOWN: ContextVar[Known | None] = ContextVar("guard_known_values", default=None)
"""The known values of the command whose tree is being walked (`words.read_word` reads
them)."""

_NAME_CHARS = re.compile(rb"[A-Za-z0-9_]")
PLAIN_READ = re.compile(r"\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)(?::?\?[^}]*)?\})")
"""A read whose value is the variable's, or an error when it is unset (``${X:?msg}``)."""
_UNSAFE_VALUE = frozenset("$`\\{*?[~\n")
"""Characters that make a value's text something other than what the shell gives."""


def known_values(root: Node, source: bytes) -> Known | None:
    """The variables of the command ``root`` (its text ``source``) whose value is known, by
    name (None: none)."""
    if b"IFS" in source:
        return None
    found: dict[str, tuple[int, int, str] | None] = {}
    for child in root.named_children:
        if child.type != "variable_assignment":
            continue
        name_node = child.child_by_field_name("name")
        if name_node is None or name_node.type != "variable_name":
            continue
        name = source[name_node.start_byte : name_node.end_byte].decode("utf-8", "replace")
        value = _literal(child, name_node, source)
        found[name] = (None if name in found or value is None
                       else (name_node.start_byte, child.end_byte, value))  # fmt: skip
    known: Known = {}
    for name, seen in found.items():
        if seen is not None and _only_plain_reads(name, source, seen[0], seen[1]):
            known[name] = (seen[1], seen[2])
    return known or None


def _literal(assignment: Node, name: Node, source: bytes) -> str | None:
    """The value ``NAME=value`` gives, when it is a literal."""
    after = source[name.end_byte : name.end_byte + 1]
    if after != b"=":  # `X+=y`, `X[1]=y`
        return None
    value = assignment.child_by_field_name("value")
    if value is None:
        return ""
    raw = source[value.start_byte : value.end_byte].decode("utf-8", "replace")
    if value.type == "word":
        text = raw
    elif value.type == "raw_string":
        text = raw[1:-1]
    elif value.type == "string" and all(
        c.type == "string_content" for c in value.named_children
    ):  # fmt: skip
        text = raw[1:-1]
    else:
        return None
    if not _UNSAFE_VALUE.isdisjoint(text):
        return None
    return text


def _only_plain_reads(name: str, source: bytes, assigned_at: int, assigned_end: int) -> bool:
    """Whether ``source`` names ``name`` only in its one assignment (its name at byte
    ``assigned_at``) and in plain reads after it."""
    encoded = name.encode()
    start = 0
    while True:
        at = source.find(encoded, start)
        if at < 0:
            return True
        start = at + len(encoded)
        before = source[at - 1 : at] if at else b""
        after = source[start : start + 1]
        if (before and _NAME_CHARS.fullmatch(before)) or (after and _NAME_CHARS.fullmatch(after)):
            continue  # part of a longer name or word
        if at == assigned_at:
            continue
        if at < assigned_end:
            return False
        opening = at - 1 if before == b"$" else at - 2 if source[at - 2 : at] == b"${" else -1
        if opening < 0:
            return False
        window = source[opening : start + 300].decode("utf-8", "replace")
        match = PLAIN_READ.match(window)
        if match is None or (match.group(1) or match.group(2)) != name:
            return False


def value_at(name: str, offset: int) -> str | None:
    """The known value of ``name`` read at byte ``offset`` of the command being walked."""
    known = KNOWN.get()
    if known is None:
        return None
    seen = known.get(name)
    if seen is None or offset < seen[0]:
        return None
    return seen[1]

