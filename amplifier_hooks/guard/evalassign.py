"""Assignments as `evaluate` follows them: ``NAME=value``, ``NAME+=value``, arrays,
``declare``/``export``/``local``/``readonly`` (``-n``: another name for a variable), and
what a command not evaluated may have set (unknown after it).
"""

from __future__ import annotations

import re

from tree_sitter import Node

from amplifier_hooks.guard.evalscope import Ref, Scope, Unknown, Value
from amplifier_hooks.guard.evalwords import expand_string, expand_word

__all__ = ["UNSEEN", "Snapshot", "assignment", "declaration", "forget", "joined", "node_text",
           "unknown_after", "unseen"]  # fmt: skip

_NAME = re.compile(r"[A-Za-z_]\w*")


def node_text(node: Node | None, source: bytes) -> str:
    """The text of ``node`` in ``source``."""
    if node is None:
        return ""
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def assignment(scope: Scope, node: Node, source: bytes) -> None:
    """``NAME=value``, ``NAME+=value``, ``NAME=(words)``."""
    name_node = node.child_by_field_name("name")
    value = node.child_by_field_name("value")
    name = node_text(name_node, source) if name_node is not None else ""
    if _NAME.fullmatch(name) is None:
        raise Unknown("assignment")
    appends = source[name_node.end_byte : name_node.end_byte + 1] == b"+"  # type: ignore[union-attr]
    try:
        got = _value(scope, value, source)
    except Unknown:
        scope.assign(name, None)
        raise
    if appends:
        old = scope.lookup(name)
        if old is None or got is None:
            got = None
        elif isinstance(got, tuple):
            got = (*(old if isinstance(old, tuple) else (old,)), *got)
        elif isinstance(got, str):
            got = (old if isinstance(old, str) else "") + got
    scope.assign(name, got)


def _value(scope: Scope, value: Node | None, source: bytes) -> Value:
    if value is None:
        return ""
    if value.type == "array":
        words: list[str] = []
        for child in value.named_children:
            words += joined(expand_word(node_text(child, source), scope))
        return tuple(words)
    return expand_string(node_text(value, source), scope)


def declaration(scope: Scope, node: Node, source: bytes) -> None:
    """``declare``, ``export``, ``local``, ``typeset``, ``readonly``."""
    options = ""
    for child in node.named_children:
        if child.type == "word" and node_text(child, source).startswith(("-", "+")):
            options += node_text(child, source)
            continue
        if child.type == "variable_assignment":
            if "n" in options:
                name_node = child.child_by_field_name("name")
                target = expand_string(node_text(child.child_by_field_name("value"), source),
                                       scope)  # fmt: skip
                if name_node is not None and _NAME.fullmatch(target):
                    scope.variables[node_text(name_node, source)] = Ref(target)
                    continue
            assignment(scope, child, source)
        elif child.type == "variable_name" and (
            "n" in options or node.children[0].type in ("local", "declare", "typeset")
        ):  # (`local x`: empty in the function, or a name another may give)
            name = node_text(child, source)  # `declare -n v`: a reference to be bound
            scope.variables[name] = Ref(name) if "n" in options else None
        elif child.type not in ("variable_name", "word"):
            raise Unknown("declaration")


def forget(scope: Scope, node: Node, source: bytes) -> None:
    """A command that was not evaluated may have set the names it is given (and the
    positional parameters, or the folder)."""
    for child in node.named_children:
        text = node_text(child, source)
        name = text.partition("=")[0]
        if _NAME.fullmatch(name) is not None and name not in ("HOME", "PWD"):
            scope.variables[name] = None
    program = node_text(node.child_by_field_name("name"), source)
    if program in ("set", "shift"):
        scope.args = None
    if program in ("cd", "pushd", "popd"):
        scope.cwd = ""
    if program in UNSEEN:
        unseen(scope)


UNSEEN = frozenset({"eval", "source", ".", "mapfile", "readarray", "getopts", "let"})
"""Commands that may set names they do not write out (a script run in this shell, names
computed at run time): where one is not evaluated, nothing set before is known after it
(as `literals.sets_unseen` reads it)."""


def unseen(scope: Scope) -> None:
    """Every variable, the positional parameters and the folder unknown from here."""
    for name in scope.variables:
        scope.variables[name] = None
    scope.args = None
    scope.cwd = ""


def joined(fields: list[list[tuple[str, bool]]]) -> list[str]:
    """The words of expanded fields."""
    return ["".join(text for text, _ in f) for f in fields]


Snapshot = tuple[dict[str, Value], tuple[str, ...] | None, str]


def unknown_after(scope: Scope, before: Snapshot, after: Scope) -> None:
    """What a branch that may not run (``after``, from ``before``) changed, unknown in
    ``scope``."""
    variables, args, cwd = before
    for name in set(after.variables) | set(variables):
        if after.variables.get(name, "\0") != variables.get(name, "\0"):
            scope.variables[name] = None
    if after.args != args:
        scope.args = None
    if after.cwd != cwd:
        scope.cwd = ""
