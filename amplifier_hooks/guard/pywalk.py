"""Every node of a tree of inline Python, walked once for the reader and the names it binds.

Its own module: the walk is shared by `pyreader`, `pybindings` and `appsource`, and it was
a third of reading inline Python (bench_guard's corpus table), so it is kept apart from
what the nodes mean.
"""

from __future__ import annotations

import ast

__all__ = ["nodes_of"]


def nodes_of(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` in `ast.walk`'s order (breadth first), but the leaves that
    only say how a name is used or which operator applies (``Load``, ``Add``: read from
    their parent's fields). The same walk without its generators: it was a third of
    reading inline Python (bench_guard's corpus table)."""
    nodes = [tree]
    fields_of = _CHILD_FIELDS.get
    for node in nodes:  # (the list grows as it is read: each node's children join its end)
        kind = type(node)
        fields = fields_of(kind)
        if fields is None:
            fields = _child_fields(kind)
        for name in fields:
            value = getattr(node, name, None)
            if isinstance(value, ast.AST):
                nodes.append(value)
            elif type(value) is list:
                nodes.extend([item for item in value if isinstance(item, ast.AST)])
    return nodes


_LEAF_FIELDS = frozenset({"ctx", "op", "ops"})
"""Fields that hold only such leaves (`ast.expr_context`, the operators)."""
_TEXT_FIELDS = {ast.Name: {"id"}, ast.Constant: {"value", "kind"}, ast.Attribute: {"attr"},
                ast.keyword: {"arg"}, ast.arg: {"arg", "type_comment"},
                ast.alias: {"name", "asname"}}  # fmt: skip
"""Fields of the kinds met most that hold a name or a value, never a node: `nodes_of`
does not look into them (a Name, a Constant and an Attribute are most of any tree; half
the walk's time was spent asking their texts whether they were nodes)."""
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}
"""The fields `nodes_of` reads of each kind of node, worked out the first time it meets one."""


def _child_fields(kind: type) -> tuple[str, ...]:
    texts = _TEXT_FIELDS.get(kind, ())
    fields: tuple[str, ...] = getattr(kind, "_fields", ())
    found = _CHILD_FIELDS[kind] = tuple(
        f for f in fields if f not in _LEAF_FIELDS and f not in texts
    )
    return found
