"""What a name or expression of inline JavaScript stands for, as far as the text alone says.

The reader (`jsreader`) needs the path a call acts on and the function it calls. Both are
worked out here from the syntax tree tree-sitter-javascript builds, never from the text: a
string literal, a template whose every part is known, ``+`` of strings, ``path.join`` of
them, ``os.homedir()`` and ``process.env.HOME`` (``~``), ``require("fs")``, a module's
member, and names bound once to one of these (``const {rmSync: rm} = require("fs")``).
Anything else (a parameter, a value read at run time, a name bound twice) is unknown: a
path the guard cannot name is never one it can clear.

Values are `pyvalues.Value`s, one vocabulary for both readers; kinds beyond Python's:
``module`` (``text``: the canonical module: ``fs``), ``function`` (a dotted name: a global,
or a member of a module: ``fs.rm``), ``lambda`` (a function the code itself defines, whose
body the reader reads), ``env`` (``process.env``) and ``file`` (``Bun.file(path)``).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import NamedTuple

from tree_sitter import Node

from amplifier_hooks.guard.decodes import js_decoded
from amplifier_hooks.guard.jsloops import Each, listed
from amplifier_hooks.guard.jsnames import (
    BUILTIN_MODULES,
    GLOBALS,
    QUIET_ATTRIBUTES,
    canonical,
    module_name,
)
from amplifier_hooks.guard.jsthen import then_loaded
from amplifier_hooks.guard.pyvalues import UNKNOWN, Value

__all__ = ["BINDERS", "NAMED", "Bindings", "Member", "Values", "arguments", "bind",
           "key_name", "member", "options", "string_text"]  # fmt: skip

DATA = Value("data")
LAMBDA = Value("lambda")
ENV = Value("env")
NAMED = frozenset({"module", "function"})
"""Kinds that name something the reader looks up in its tables."""
_RISKY = frozenset({"module", "function", "env", "unknown", "lambda"})
"""Kinds an operator does not turn into plain data (``cp || x`` may still be a module)."""
_MAX_DEPTH = 32
"""Nodes followed before a value is taken as unknown (``a = b``, ``b = a``)."""
_SUBMODULES = frozenset({"promises", "posix", "default"})


class Member(NamedTuple):
    """A name bound by destructuring: member ``key`` of what ``base`` is."""

    base: Node | Member | None
    key: str


Bound = Node | Value | Member | Each | None
Bindings = dict[str, Bound]
"""Each name the code binds: what it is bound to, or None (bound more than once, or in a
way the reader does not follow)."""

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def string_text(node: Node) -> str:
    """The text of a string literal, escapes undone."""
    parts: list[str] = []
    for child in node.named_children:
        text = _text(child)
        parts.append(_unescape(text) if child.type == "escape_sequence" else text)
    return "".join(parts)


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def key_name(key: Node | None) -> str | None:
    """The name a literal key spells (``{a: ..}``, ``{"a": ..}``, ``{a}``); None: computed."""
    if key is None:
        return None
    if key.type == "string":
        return string_text(key)
    if key.type in ("property_identifier", "shorthand_property_identifier_pattern",
                    "shorthand_property_identifier", "identifier"):  # fmt: skip
        return _text(key)
    return None


def _unescape(escape: str) -> str:
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
            found[_text(child)] = child
        elif child.type == "spread_element":
            return None  # `{...o}`: any key may come from `o`
    return found


class Values:
    """What each node of one tree stands for, worked out once per node."""

    __slots__ = ("cache", "listed", "names")

    def __init__(self, names: Bindings) -> None:
        self.names = names
        self.cache: dict[int, Value] = {}
        self.listed = {n: b.elements for n, b in names.items() if isinstance(b, Each)}

    def each(self, node: Node) -> list[Value]:
        """What ``node`` stands for, or (a loop's name over a literal array) each element."""
        listed = self.listed.get(_text(node)) if node.type == "identifier" else None
        return [self.of(e) for e in listed] if listed else [self.of(node)]

    def of(self, node: Node | None, depth: int = 0) -> Value:
        """What ``node`` stands for; unknown where the text does not say."""
        if node is None or depth > _MAX_DEPTH:
            return UNKNOWN
        found = self.cache.get(node.id)
        if found is None:
            found = self.cache[node.id] = self._evaluate(node, depth)
        return found

    def _evaluate(self, node: Node, depth: int) -> Value:
        kind = node.type
        if kind == "string":
            return Value("str", string_text(node))
        if kind == "template_string":
            return self._template(node, depth)
        if kind in ("identifier", "shorthand_property_identifier"):
            return self._named(_text(node), depth)
        if kind in ("parenthesized_expression", "await_expression"):
            inner = [c for c in node.named_children if c.type != "comment"]
            return self.of(inner[0], depth + 1) if len(inner) == 1 else UNKNOWN
        if kind == "member_expression":
            prop = node.child_by_field_name("property")
            owner = self.of(node.child_by_field_name("object"), depth + 1)
            return member(owner, _text(prop)) if prop is not None else UNKNOWN
        if kind == "subscript_expression":
            owner = self.of(node.child_by_field_name("object"), depth + 1)
            key = self.of(node.child_by_field_name("index"), depth + 1)
            if key.kind == "str" and key.text is not None:
                return member(owner, key.text)
            return DATA if owner.kind in ("str", "data", "result") else UNKNOWN
        if kind == "call_expression":
            return self._called(node, depth)
        if kind == "new_expression":
            callee = self.of(node.child_by_field_name("constructor"), depth + 1)
            return Value("result", callee.text) if callee.kind in NAMED else UNKNOWN
        if kind == "binary_expression":
            return self._binary(node, depth)
        if kind in ("arrow_function", "function_expression", "function"):
            return LAMBDA
        if kind in ("number", "true", "false", "null", "undefined", "array", "object",
                    "regex", "unary_expression", "update_expression"):  # fmt: skip
            return Value("data", _text(node) if kind == "number" else None)
        return UNKNOWN

    def _template(self, node: Node, depth: int) -> Value:
        parts: list[str] = []
        for child in node.named_children:
            if child.type == "template_substitution":
                inner = [c for c in child.named_children if c.type != "comment"]
                value = self.of(inner[0], depth + 1) if len(inner) == 1 else UNKNOWN
                if value.kind != "str" or value.text is None:
                    return UNKNOWN
                parts.append(value.text)
            elif child.type == "escape_sequence":
                parts.append(_unescape(_text(child)))
            else:
                parts.append(_text(child))
        return Value("str", "".join(parts))

    def _binary(self, node: Node, depth: int) -> Value:
        operator = node.child_by_field_name("operator")
        left = self.of(node.child_by_field_name("left"), depth + 1)
        right = self.of(node.child_by_field_name("right"), depth + 1)
        if operator is not None and operator.type == "+" and left.kind == right.kind == "str":
            return Value("str", (left.text or "") + (right.text or ""))
        return UNKNOWN if {left.kind, right.kind} & _RISKY else DATA

    def _named(self, name: str, depth: int) -> Value:
        if name not in self.names:
            if name in ("undefined", "NaN", "Infinity"):
                return DATA
            return Value("function", name) if name in GLOBALS else UNKNOWN
        bound = self.names[name]
        if bound is None:
            return UNKNOWN
        if isinstance(bound, Value):
            return bound
        if isinstance(bound, Each):
            return UNKNOWN  # (one at a time: `each`)
        value = self._member(bound, depth) if isinstance(bound, Member) else self.of(
            bound, depth + 1)  # fmt: skip
        self.names[name] = value  # a name is bound once: worked out once per reading
        return value

    def _member(self, bound: Member, depth: int) -> Value:
        base = bound.base
        if base is None or depth > _MAX_DEPTH:
            return UNKNOWN
        owner = self._member(base, depth + 1) if isinstance(base, Member) else self.of(
            base, depth + 1)  # fmt: skip
        return member(owner, bound.key)

    def _called(self, node: Node, depth: int) -> Value:
        """The value a call returns, for the calls that build paths or name modules."""
        func = node.child_by_field_name("function")
        args = arguments(node)
        if func is not None and func.type == "import":
            return _required(self.of(args[0], depth + 1) if args else UNKNOWN)
        if func is not None and func.type == "member_expression" and not args:
            prop = func.child_by_field_name("property")  # a decoded text's `.toString()`
            owner = self.of(func.child_by_field_name("object"), depth + 1)
            if prop is not None and _text(prop) == "toString" and owner.kind == "str":
                return owner
        callee = self.of(func, depth + 1)
        if callee.kind not in NAMED or callee.text is None:
            return DATA if callee.kind in ("str", "data", "result", "file") else UNKNOWN
        name = callee.text
        if name == "require":
            return _required(self.of(args[0], depth + 1) if args else UNKNOWN)
        if name in ("os.homedir", "process.cwd", "Deno.cwd", "os.tmpdir"):
            return Value("str", {"os.homedir": "~", "os.tmpdir": "/tmp"}.get(name, "."))
        values = [self.of(a, depth + 1) for a in args]
        texts = [v.text for v in values if v.kind == "str" and v.text is not None]
        whole = len(texts) == len(values)
        decoded = js_decoded(name, texts) if whole else None  # hidden from a reader
        if decoded is not None:
            return Value("str", decoded)
        if name in ("path.join", "path.resolve", "path.normalize") and whole and texts:
            return Value("str", posixpath.join(*texts))
        if name == "Bun.file":
            return Value("file", texts[0] if texts and values[0].kind == "str" else None)
        if name == "Deno.env.get" and texts == ["HOME"]:
            return Value("str", "~")
        return Value("result", name)


def member(owner: Value, key: str) -> Value:
    """Member ``key`` of what ``owner`` is: a module's function, a submodule, the
    environment's ``HOME``; plain data's member is data."""
    if owner.kind in NAMED and owner.text is not None:
        if owner.kind == "module" and key in _SUBMODULES:
            return owner
        dotted = canonical(f"{owner.text}.{key}")
        if dotted in ("process.env", "Bun.env"):
            return ENV
        return DATA if dotted in QUIET_ATTRIBUTES else Value("function", dotted)
    if owner.kind == "env":
        return Value("str", "~") if key == "HOME" else UNKNOWN
    return DATA if owner.kind in ("str", "data", "result", "file") else UNKNOWN


def _required(spec: Value) -> Value:
    """What ``require(spec)`` returns: Node's own module, a ``.json`` file's data; code
    it runs is unknown."""
    if spec.kind != "str" or spec.text is None:
        return UNKNOWN
    name = module_name(spec.text)
    if name in BUILTIN_MODULES:
        return Value("module", name)
    return DATA if spec.text.endswith(".json") else UNKNOWN


def arguments(node: Node) -> list[Node]:
    """A call's (or ``new``'s) arguments, comments left out; a tagged template's one."""
    args = node.child_by_field_name("arguments")
    if args is None:
        return []
    if args.type == "template_string":
        return [args]
    return [c for c in args.named_children if c.type != "comment"]


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
                put(_text(name), LAMBDA)
            _pattern(node.child_by_field_name("parameters"), None, put)
        elif kind == "import_statement":
            _imports(node, put)
        elif kind == "for_in_statement" and (each := listed(node)) is not None:
            put(_text(node.child_by_field_name("left") or node), each)
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
        put(_text(target), source)
    elif kind == "object_pattern":
        for child in target.named_children:
            if child.type == "shorthand_property_identifier_pattern":
                put(_text(child), Member(source, _text(child)) if source is not None else None)
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
                put(_text(child), Value("module", spec) if known else None)
            elif child.type == "namespace_import":
                for local in child.named_children:
                    put(_text(local), Value("module", spec) if known else None)
            elif child.type == "named_imports":
                for spec_node in child.named_children:
                    imported = spec_node.child_by_field_name("name")
                    alias = spec_node.child_by_field_name("alias")
                    if imported is None:
                        continue
                    value = member(Value("module", spec), _text(imported)) if known else None
                    put(_text(alias or imported), value)
