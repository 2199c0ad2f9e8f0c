"""tree-sitter-javascript for the readers of JavaScript (`jsreader`, `clientenv`,
`remotescripts`): one parser per thread (a Parser is not safe to share between threads),
the grammar's kind ids by name, and a bounded walk over a tree's nodes."""

from __future__ import annotations

import threading
from collections.abc import Iterable

import tree_sitter_javascript
from tree_sitter import Language, Node, Parser

__all__ = ["MAX_NODES", "javascript_parser", "kind_ids", "walked_nodes"]

MAX_NODES = 20000
"""Code with more syntax nodes than this is not read (64 KiB of code has fewer)."""
_local = threading.local()


def javascript_parser() -> Parser | None:
    """This thread's JavaScript parser; None when the installed tree-sitter cannot load the
    grammar."""
    found: Parser | None = getattr(_local, "parser", None)
    if found is None:
        try:
            found = Parser(Language(tree_sitter_javascript.language()))
        except (ValueError, TypeError):  # a grammar built for another tree-sitter
            return None
        _local.parser = found
    return found


def kind_ids(language: Language, names: Iterable[str]) -> frozenset[int]:
    """The ids of the named kinds of node called ``names``."""
    wanted = frozenset(names)
    return frozenset(k for k in range(language.node_kind_count)
                     if language.node_kind_is_named(k)
                     and language.node_kind_for_id(k) in wanted)  # fmt: skip


def walked_nodes(root: Node, watched: frozenset[int],
                 leaves: frozenset[int]) -> tuple[list[Node], dict[int, Node]] | None:  # fmt: skip
    """The nodes of the kinds ``watched``, in no particular order, and each node's parent
    by its id (tree-sitter finds a parent from the root down: a cost of the depth); kinds
    in ``leaves`` are not walked into. None: more than `MAX_NODES` nodes in all (walked
    with a stack: no recursion)."""
    found: list[Node] = []
    parents: dict[int, Node] = {}
    stack = [root]
    for _ in range(MAX_NODES):
        if not stack:
            return found, parents
        node = stack.pop()
        kind = node.kind_id
        if kind in watched:
            found.append(node)
        if kind not in leaves:
            children = node.named_children
            for child in children:
                parents[child.id] = node
            stack.extend(children)
    return None
