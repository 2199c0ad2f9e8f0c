"""The literal parts of inline JavaScript's syntax tree, read as the engine would: a string's
text with its escapes undone, an object literal's keys, a call's arguments. Its own module:
`jsvalues`, `jsbindings`, `jscalls` and `remotescripts` all read literals, none needs the others.
"""

from __future__ import annotations

from tree_sitter import Node

__all__ = ["arguments", "key_name", "node_text", "options", "string_text", "unescape"]

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def string_text(node: Node) -> str:
    """The text of a string literal, escapes undone."""
    parts: list[str] = []
    for child in node.named_children:
        text = node_text(child)
        parts.append(unescape(text) if child.type == "escape_sequence" else text)
    return "".join(parts)


def node_text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def key_name(key: Node | None) -> str | None:
    """The name a literal key spells (``{a: ..}``, ``{"a": ..}``, ``{a}``); None: computed."""
    if key is None:
        return None
    if key.type == "string":
        return string_text(key)
    if key.type in ("property_identifier", "shorthand_property_identifier_pattern",
                    "shorthand_property_identifier", "identifier"):  # fmt: skip
        return node_text(key)
    return None


def unescape(escape: str) -> str:
    body = escape[1:]
    if body[:1] in ("x", "u"):
        digits = body[1:].strip("{}")
        try:
            return chr(int(digits, 16))
        except ValueError:  # not a code point the text spells: kept as written
            return escape
    if body[:1] in ("\n", "\r"):
        return ""  # a line continuation
    return _ESCAPES.get(body, body)


def options(node: Node | None) -> dict[str, Node] | None:
    """An object literal's members by literal key (``{recursive: true}``); None: not an
    object literal, so what it holds is unknown."""
    if node is None or node.type != "object":
        return None
    found: dict[str, Node] = {}
    for child in node.named_children:
        if child.type == "pair":
            name, value = (
                key_name(child.child_by_field_name("key")),
                child.child_by_field_name("value"),
            )
            if name is not None and value is not None:
                found[name] = value
        elif child.type == "shorthand_property_identifier":
            found[node_text(child)] = child
        elif child.type == "spread_element":
            return None  # `{...o}`: any key may come from `o`
    return found


def arguments(node: Node) -> list[Node]:
    """A call's (or ``new``'s) arguments, comments left out; a tagged template's one."""
    args = node.child_by_field_name("arguments")
    if args is None:
        return []
    if args.type == "template_string":
        return [args]
    return [c for c in args.named_children if c.type != "comment"]
