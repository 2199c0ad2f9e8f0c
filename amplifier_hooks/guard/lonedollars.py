"""A ``$NAME`` that tree-sitter-bash splits off its word.

After a literal and an expansion or a quoted part, in one word (``a$A$B/c``,
``cat${IFS}$HOME/x``, ``x'q'$B/c``), tree-sitter-bash 0.25 ends the word at the ``$`` and
reads what follows as a word of its own: two arguments where bash reads one (``cat '$'
HOME/x``: a relative path, where bash reads ``/home/dev/x``). Each such ``$NAME`` is
written ``${NAME}``, which bash reads the same, and the tree then reads the word whole.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from amplifier_hooks.guard.grammar import parser, stand_in

__all__ = ["bash_tree", "brace", "lone_dollars"]

_GLUED = re.compile(rb"(?<=[A-Za-z0-9_}')\"])\$(?=[A-Za-z_0-9@*#?!$-])")
"""A ``$`` right after a word's character, before a parameter's name: where the split can
happen (the tree says whether it did)."""
_NAME = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?!$-]")


def lone_dollars(root: Node, source: bytes) -> tuple[tuple[int, int], ...]:
    """Where each ``$NAME`` the tree of ``source`` (``root``) split off its word has its
    name: (start, end) byte offsets; () almost always (the cheap pattern first)."""
    if b"$" not in source:
        return ()
    spots: list[tuple[int, int]] = []
    for match in _GLUED.finditer(source):
        at = match.start()
        node = root.descendant_for_byte_range(at, at + 1)
        if node is None or node.type != "$" or node.parent is None:
            continue
        if node.parent.type not in ("concatenation", "command_name", "word"):
            continue  # (the `$` of a `$NAME` the tree read whole)
        name = _NAME.match(source, at + 1)
        if name is not None:
            spots.append((at + 1, name.end()))
    return tuple(spots)


def brace(source: bytes, spots: tuple[tuple[int, int], ...]) -> bytes:
    """``source`` with the name at each of ``spots`` (`lone_dollars`) in braces."""
    out = bytearray(source)
    for start, end in reversed(spots):
        out[end:end] = b"}"
        out[start:start] = b"{"
    return bytes(out)


def bash_tree(source: bytes) -> tuple[Node, bytes]:
    """The syntax tree of ``source`` (its characters outside the BMP stood in for:
    `grammar.stand_in`) and the text its offsets are in: ``source`` itself, or with its
    split-off ``$NAME`` braced."""
    parsed = stand_in(source)
    root = parser().parse(parsed).root_node
    spots = lone_dollars(root, parsed)
    if not spots:
        return root, source
    return parser().parse(brace(parsed, spots)).root_node, brace(source, spots)
