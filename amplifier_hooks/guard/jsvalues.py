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

from tree_sitter import Node

from amplifier_hooks.guard.decodes import js_decoded
from amplifier_hooks.guard.jsbindings import Bindings, Member
from amplifier_hooks.guard.jsliterals import arguments, node_text, string_text, unescape
from amplifier_hooks.guard.jsloops import Each
from amplifier_hooks.guard.jsmembers import DATA, LAMBDA, NAMED, member
from amplifier_hooks.guard.jsnames import BUILTIN_MODULES, GLOBALS, module_name
from amplifier_hooks.guard.pyvalues import UNKNOWN, Value

__all__ = ["Values"]

_RISKY = frozenset({"module", "function", "env", "unknown", "lambda"})
"""Kinds an operator does not turn into plain data (``cp || x`` may still be a module)."""
_MAX_DEPTH = 32
"""Nodes followed before a value is taken as unknown (``a = b``, ``b = a``)."""


class Values:
    """What each node of one tree stands for, worked out once per node."""

    __slots__ = ("cache", "listed", "names")

    def __init__(self, names: Bindings) -> None:
        self.names = names
        self.cache: dict[int, Value] = {}
        self.listed = {n: b.elements for n, b in names.items() if isinstance(b, Each)}

    def each(self, node: Node) -> list[Value]:
        """What ``node`` stands for, or (a loop's name over a literal array) each element."""
        listed = self.listed.get(node_text(node)) if node.type == "identifier" else None
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
            return self._named(node_text(node), depth)
        if kind in ("parenthesized_expression", "await_expression"):
            inner = [c for c in node.named_children if c.type != "comment"]
            return self.of(inner[0], depth + 1) if len(inner) == 1 else UNKNOWN
        if kind == "member_expression":
            prop = node.child_by_field_name("property")
            owner = self.of(node.child_by_field_name("object"), depth + 1)
            return member(owner, node_text(prop)) if prop is not None else UNKNOWN
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
            return Value("data", node_text(node) if kind == "number" else None)
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
                parts.append(unescape(node_text(child)))
            else:
                parts.append(node_text(child))
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
            if prop is not None and node_text(prop) == "toString" and owner.kind == "str":
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


def _required(spec: Value) -> Value:
    """What ``require(spec)`` returns: Node's own module, a ``.json`` file's data; code
    it runs is unknown."""
    if spec.kind != "str" or spec.text is None:
        return UNKNOWN
    name = module_name(spec.text)
    if name in BUILTIN_MODULES:
        return Value("module", name)
    return DATA if spec.text.endswith(".json") else UNKNOWN
