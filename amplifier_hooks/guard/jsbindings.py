"""The names a piece of inline JavaScript binds, each to what it is bound to (a node, a
module, a member of either), or None where it is bound more than once or by a parameter.
Its own module: binding reads declarations and patterns, `jsvalues` reads expressions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from tree_sitter import Node

from amplifier_hooks.guard.jsliterals import key_name, node_text, string_text
from amplifier_hooks.guard.jsloops import Each, listed
from amplifier_hooks.guard.jsmembers import LAMBDA, member
from amplifier_hooks.guard.jsnames import BUILTIN_MODULES, module_name
from amplifier_hooks.guard.jsthen import then_loaded
from amplifier_hooks.guard.pyvalues import Value

__all__ = ["BINDERS", "Bindings", "Bound", "Member", "bind"]


class Member(NamedTuple):
    """A name bound by destructuring: member ``key`` of what ``base`` is."""

    base: Node | Member | None
    key: str


Bound = Node | Value | Member | Each | None
Bindings = dict[str, Bound]
"""Each name the code binds: what it is bound to, or None (bound more than once, or in a
way the reader does not follow)."""


def bind(nodes: list[Node]) -> Bindings:
    """The names a tree of ``nodes`` (all of its named nodes) binds. A name bound at more
    than one place (or by a parameter, a loop, a catch) is None."""
    values: dict[str, Bound] = {}
    sites: dict[str, int] = {}

    def put(name: str, value: Bound) -> None:
        sites[name] = sites.get(name, 0) + 1
        values[name] = value

    for node in nodes:
        kind = node.type
        if kind not in BINDERS:
            continue  # most nodes: one look
        if kind == "variable_declarator":
            _pattern(node.child_by_field_name("name"), node.child_by_field_name("value"), put)
        elif kind == "assignment_expression":
            _pattern(node.child_by_field_name("left"), node.child_by_field_name("right"), put)
        elif kind in ("augmented_assignment_expression", "update_expression"):
            target = node.child_by_field_name("left") or node.child_by_field_name("argument")
            _pattern(target, None, put)
        elif kind == "function_declaration":
            name = node.child_by_field_name("name")
            if name is not None:
                put(node_text(name), LAMBDA)
            _pattern(node.child_by_field_name("parameters"), None, put)
        elif kind == "import_statement":
            _imports(node, put)
        elif kind == "for_in_statement" and (each := listed(node)) is not None:
            put(node_text(node.child_by_field_name("left") or node), each)
        elif (loaded := then_loaded(node)) is not None:  # `import("fs").then(f => ..)`
            _pattern(node.child_by_field_name("parameter"), loaded, put)
        else:  # parameters, loop and catch variables, classes, generators: unknown
            for field in ("parameters", "parameter", "left", "name"):
                _pattern(node.child_by_field_name(field), None, put)
    return {name: values[name] if count == 1 else None for name, count in sites.items()}


BINDERS = frozenset({"variable_declarator", "assignment_expression",
                      "augmented_assignment_expression", "update_expression",
                      "function_declaration", "import_statement", "arrow_function",
                      "function_expression", "function", "generator_function",
                      "generator_function_declaration", "method_definition", "catch_clause",
                      "for_in_statement", "class_declaration", "class"})  # fmt: skip
"""The kinds of node that bind a name."""

_Put = Callable[[str, Bound], None]


def _pattern(target: Node | None, source: Node | Member | None, put: _Put) -> None:
    """Bind the names of ``target`` (a name, or a destructuring pattern) to what
    ``source`` holds at their place (``{a, b: c}``: members ``a`` and ``b``)."""
    if target is None:
        return
    kind = target.type
    if kind in ("identifier", "shorthand_property_identifier_pattern"):
        put(node_text(target), source)
    elif kind == "object_pattern":
        for child in target.named_children:
            if child.type == "shorthand_property_identifier_pattern":
                put(
                    node_text(child),
                    Member(source, node_text(child)) if source is not None else None,
                )
            elif child.type == "pair_pattern":
                name = key_name(child.child_by_field_name("key"))
                inner = Member(source, name) if name is not None and source is not None else None
                _pattern(child.child_by_field_name("value"), inner, put)
            else:
                _pattern(child, None, put)
    elif kind in ("formal_parameters", "array_pattern", "rest_pattern", "assignment_pattern",
                  "object_assignment_pattern"):  # fmt: skip
        for child in target.named_children:
            if child.type != "property_identifier":
                _pattern(child, None, put)


def _imports(node: Node, put: _Put) -> None:
    """``import fs from "fs"``, ``import * as fs``, ``import {rmSync as rm}``: Node's own
    modules are known; another module is code the reader does not see."""
    source = node.child_by_field_name("source")
    spec = module_name(string_text(source)) if source is not None else ""
    known = spec in BUILTIN_MODULES
    for clause in node.named_children:
        if clause.type != "import_clause":
            continue
        for child in clause.named_children:
            if child.type == "identifier":  # the default export
                put(node_text(child), Value("module", spec) if known else None)
            elif child.type == "namespace_import":
                for local in child.named_children:
                    put(node_text(local), Value("module", spec) if known else None)
            elif child.type == "named_imports":
                for spec_node in child.named_children:
                    imported = spec_node.child_by_field_name("name")
                    alias = spec_node.child_by_field_name("alias")
                    if imported is None:
                        continue
                    value = member(Value("module", spec), node_text(imported)) if known else None
                    put(node_text(alias or imported), value)
