"""Loops of inline JavaScript over a literal array: ``for (const d of ["dist",
os.homedir()]) fs.rmSync(d, ..)`` deletes each element, so the loop's name stands for
each in turn (`jsvalues.Values.each`), and an act on it is an act on each (`jscalls`).
An array with a spread (``[...dirs]``), or longer than `MAX_LISTED`, names no element."""

from __future__ import annotations

from typing import NamedTuple

from tree_sitter import Node

__all__ = ["MAX_LISTED", "Each", "listed"]

MAX_LISTED = 16


class Each(NamedTuple):
    """A loop's name bound to each element of a literal array in turn."""

    elements: tuple[Node, ...]


def listed(loop: Node) -> Each | None:
    """``for (const d of [..])`` over a literal array of at most `MAX_LISTED` elements,
    none spread: each element (None: any other loop)."""
    operator = loop.child_by_field_name("operator")
    array = loop.child_by_field_name("right")
    left = loop.child_by_field_name("left")
    if operator is None or operator.type != "of" or array is None or array.type != "array":
        return None
    elements = tuple(c for c in array.named_children if c.type != "comment")
    if left is None or left.type != "identifier" or not 0 < len(elements) <= MAX_LISTED:
        return None
    return None if any(e.type == "spread_element" for e in elements) else Each(elements)
