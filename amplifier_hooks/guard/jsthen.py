"""A module loaded and handed on to a callback: ``import("fs").then(f => f.rmSync(..))``
calls ``fs.rmSync``, as ``require("fs").rmSync(..)`` does, so the callback's one bare
parameter is bound to the ``import(..)`` (or ``require(..)``) call (`jsbindings.bind`)."""

from __future__ import annotations

from tree_sitter import Node

__all__ = ["then_loaded"]


def then_loaded(node: Node) -> Node | None:
    """The ``import(..)``/``require(..)`` call whose module the arrow function ``node``'s
    one bare parameter is given by ``.then`` (None: any other function)."""
    if node.type != "arrow_function" or node.child_by_field_name("parameter") is None:
        return None
    args = node.parent
    call = args.parent if args is not None and args.type == "arguments" else None
    func = call.child_by_field_name("function") if call is not None else None
    if args is None or func is None or func.type != "member_expression":
        return None
    prop, loaded = func.child_by_field_name("property"), func.child_by_field_name("object")
    if prop is None or prop.text != b"then" or loaded is None:
        return None
    if args.named_children[:1] != [node] or loaded.type != "call_expression":
        return None
    head = loaded.child_by_field_name("function")
    if head is None or not (head.type == "import" or head.text == b"require"):
        return None
    return loaded
