"""The names a piece of inline Python binds, each to the one expression it is bound to.

A name bound at more than one place, by a parameter or in a way not followed is None:
its value is unknown (`pyvalues.evaluate`). Its own module: binding reads statements,
`pyvalues` reads expressions.
"""

from __future__ import annotations

import ast

from amplifier_hooks.guard.pyvalues import Bindings, Each, Value

__all__ = ["bind", "listed_each"]


def bind(nodes: list[ast.AST]) -> tuple[Bindings, bool]:
    """The names a tree of ``nodes`` (all of them: `nodes_of`) binds, and whether it
    imports ``*``. A name bound at more than one place (or by a loop, a parameter, a
    tuple) is None."""
    values: dict[str, ast.expr | Value] = {}
    sites: dict[str, int] = {}
    star = False

    def put(name: str, value: ast.expr | Value | None) -> None:
        if isinstance(value, Value) and name in sites and values.get(name) == value:
            return  # `import urllib.parse, urllib.request`: `urllib`, bound once
        sites[name] = sites.get(name, 0) + 1
        if value is not None:
            values[name] = value

    for node in nodes:
        if type(node) not in _BINDERS:
            continue  # most nodes: one look
        if isinstance(node, ast.Name):  # the binder met most, and most often read, not bound
            if not isinstance(node.ctx, ast.Load):
                put(node.id, None)  # its value, if a plain `name = expr`, is recorded below
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname is not None:
                    put(alias.asname, Value("module", alias.name))
                else:  # `import os.path` binds `os`
                    head = alias.name.split(".")[0]
                    put(head, Value("module", head))
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            for alias in node.names:
                if alias.name == "*":
                    star = True
                    put("*", Value("module", module))
                else:
                    put(alias.asname or alias.name, Value("function", f"{module}.{alias.name}"))
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    values[target.id] = node.value
        elif isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name):
            values[node.optional_vars.id] = node.context_expr
        elif isinstance(node, ast.comprehension | ast.For) and _globbed(_listed(node.iter)):
            if isinstance(node.target, ast.Name):  # each path a pattern yields: the pattern
                values[node.target.id] = _listed(node.iter)
        elif isinstance(node, ast.comprehension | ast.For):
            for part in ast.walk(node.target):  # `for i, line in enumerate(lines)`
                if isinstance(part, ast.Name):
                    values[part.id] = Each(node.iter)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            put(node.name, None)
        elif isinstance(node, ast.arg):
            put(node.arg, None)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            for name in node.names:
                put(name, None)
        elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
            put(node.name, None)
    found: Bindings = {name: values.get(name) if count == 1 else None
                       for name, count in sites.items()}  # fmt: skip
    return found, star


def _listed(node: ast.expr) -> ast.expr:
    """What ``sorted(X)``, ``list(X)``, ``reversed(X)`` hold: X's elements, in another
    order (``for p in sorted(Path.home().glob(".ssh/id_*"))`` yields the pattern's paths)."""
    while (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("sorted", "list", "reversed", "tuple", "set")
        and len(node.args) == 1
    ):
        node = node.args[0]
    return node


def _globbed(node: ast.expr) -> bool:
    """``node`` is a call of a path's ``glob``, ``rglob`` or ``iterdir``
    (`pyvalues._path_method`)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("glob", "rglob", "iterdir")
    )


_BINDERS = frozenset({ast.Import, ast.ImportFrom, ast.Name, ast.Assign, ast.withitem,
                      ast.comprehension, ast.For,
                      ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.arg,
                      ast.Global, ast.Nonlocal, ast.ExceptHandler, ast.MatchAs,
                      ast.MatchStar})  # fmt: skip
"""The kinds of node that bind a name."""


_MAX_LISTED = 16


def listed_each(names: Bindings) -> dict[str, list[ast.expr]]:
    """The loop names bound to each element of a literal list in turn (``for d in
    ["dist", str(Path.home())]``), with those elements: an act on such a name is an act
    on each (`pyreader`). Read before `evaluate` works the names out (it keeps their
    values in ``names``)."""
    found: dict[str, list[ast.expr]] = {}
    for name, bound in names.items():
        if isinstance(bound, Each) and isinstance(bound.iter, ast.List | ast.Tuple | ast.Set):
            elements = bound.iter.elts
            if 0 < len(elements) <= _MAX_LISTED and not any(
                isinstance(e, ast.Starred) for e in elements
            ):
                found[name] = list(elements)
    return found
