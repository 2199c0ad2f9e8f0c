"""Inline JavaScript (``node -e``, ``deno eval``, ``bun -e``, a program on Node's input) read
with a real grammar, tree-sitter-javascript: what its calls do, where the text says it.

The reader of inline Python (`pyreader`) done for JavaScript, with the same records
(`codeacts`) and the same promise: inline code is never granted. A call whose effect is
known and whose arguments are literals is a command or a file access the guard already
judges: ``require("child_process").execSync("rm -rf ~")`` is that command,
``fs.rmSync(os.homedir(), {recursive: true})`` deletes the home folder,
``fs.readFileSync(".env")`` reads ``.env``, ``fetch(url)`` reaches the network,
``process.env.NAME`` is what ``printenv NAME`` prints. The code is *quiet* when every call
it makes changes nothing and reaches nothing (``console.log``, ``JSON.parse`` of a file it
reads, ``require`` of Node's own modules and of ``.json`` files, ``process.version``), no
module or function with an effect is handed around as a value, and nothing in it is
dynamic (``eval``, ``Function``, ``require`` of a computed name, ``constructor``, ``this``).
Only quiet code loses the guard's ask; it is still not granted.

Reading is bounded: code longer than `MAX_CODE`, with more than `MAX_NODES` nodes, that
does not parse, or whose grammar cannot be loaded, is not read (it stays asked).
"""

from __future__ import annotations

import shlex
import threading
from collections.abc import Callable
from typing import NamedTuple

from tree_sitter import Node, Parser

from amplifier_hooks.guard.codeacts import MAX_ACTS, MAX_CODE, NOT_READ, CodeAct, CodeReading
from amplifier_hooks.guard.jsbindings import BINDERS, bind
from amplifier_hooks.guard.jscalls import ACTS
from amplifier_hooks.guard.jsgrammar import MAX_NODES, javascript_parser, kind_ids, walked_nodes
from amplifier_hooks.guard.jsliterals import arguments, key_name, string_text
from amplifier_hooks.guard.jsmembers import NAMED
from amplifier_hooks.guard.jsnames import (
    BUILTIN_MODULES,
    DYNAMIC,
    NETWORK,
    PURE,
    QUIET_CALLS,
    QUIET_CONSTRUCTORS,
    QUIET_METHODS,
    RUNS_TEXT,
    UNSAFE_PROPERTIES,
    in_quiet_namespace,
    module_name,
    quiet,
)
from amplifier_hooks.guard.jsvalues import Values
from amplifier_hooks.guard.pyvalues import Value

__all__ = ["MAX_NODES", "read_javascript"]

_MAX_NESTED = 4
"""Literal code given to ``eval`` read inside code given to ``eval``, at most."""
_local = threading.local()


class _Grammar(NamedTuple):
    """This thread's parser (`jsgrammar`) and the grammar's kind ids the walk looks at."""

    parser: Parser
    watched: frozenset[int]
    """Kinds of node the walk checks or binds names at (any other is only walked through)."""
    leaves: frozenset[int]
    """Kinds of node with nothing inside to walk (a string's fragments, a number)."""


def _grammar() -> _Grammar | None:
    """This thread's `_Grammar`; None when the installed tree-sitter cannot load it."""
    found: _Grammar | None = getattr(_local, "grammar", None)
    if found is None:
        parser = javascript_parser()
        language = parser.language if parser is not None else None
        if parser is None or language is None:
            return None
        watched = kind_ids(language, frozenset(_HANDLERS) | _LOUD | BINDERS)
        found = _Grammar(parser, watched, kind_ids(language, _LEAVES))
        _local.grammar = found
    return found


def read_javascript(code: str, nested: int = 0) -> CodeReading:
    """What ``code`` does as far as its text says (`CodeReading`); code that does not
    parse, or is too long or too large, is not read (``parsed`` False, not quiet)."""
    if len(code) > MAX_CODE or "\x00" in code:
        return NOT_READ
    grammar = _grammar()
    try:
        tree = grammar.parser.parse(code.encode()) if grammar is not None else None
    except UnicodeEncodeError:  # a lone surrogate: no source Node would run
        return NOT_READ
    if grammar is None or tree is None or tree.root_node.has_error:
        return NOT_READ
    walked = walked_nodes(tree.root_node, grammar.watched, grammar.leaves)
    if walked is None:
        return NOT_READ
    return _Reader(*walked, nested).reading()


_LEAVES = frozenset({"string", "number", "regex", "comment", "property_identifier",
                     "statement_identifier", "hash_bang_line", "private_property_identifier",
                     "shorthand_property_identifier_pattern"})  # fmt: skip
_LOUD = frozenset(
    {"this", "super", "class", "class_declaration", "with_statement", "generator_function",
     "generator_function_declaration", "yield_expression", "meta_property",
     "debugger_statement", "export_statement", "decorator", "using_declaration",
     "jsx_element", "jsx_self_closing_element", "class_static_block", "field_definition"}
)  # fmt: skip
"""Syntax that defines code run out of sight or reaches outside the code's own names."""
_HOLDS = frozenset({"variable_declarator", "pair_pattern", "import_specifier",
                    "namespace_import", "import_clause", "expression_statement"})  # fmt: skip
"""Parents in which a module or function stays where the reader sees it (bound to a name
the reader follows, or left unused)."""
_CHDIR = frozenset({"process.chdir", "Deno.chdir"})
_MAX_WRAPPING = 8
"""Parentheses and ``await``s looked through to where a value goes (deeper wrapping is
taken as handing the value on)."""


class _Reader:
    """One walk over a parsed tree: its acts, and whether anything in it is not quiet."""

    __slots__ = ("acts", "chdir", "nested", "nodes", "parents", "quiet", "values")

    def __init__(self, nodes: list[Node], parents: dict[int, Node], nested: int) -> None:
        self.nodes = nodes
        self.parents = parents
        self.nested = nested
        self.values = Values(bind(nodes))
        self.acts: list[CodeAct] = []
        self.quiet = True
        self.chdir = False

    def reading(self) -> CodeReading:
        for node in self.nodes:
            handler = _HANDLERS.get(node.type)
            if handler is not None:
                handler(self, node)
            elif node.type in _LOUD:
                self.quiet = False
        return CodeReading(True, self.quiet, tuple(self.acts[:MAX_ACTS]), self.chdir)

    def _add(self, act: CodeAct) -> None:
        if act.does != "read" or act.target is None:
            self.quiet = False
        if len(self.acts) < MAX_ACTS:
            self.acts.append(act)

    def _passed(self, node: Node, value: Value) -> None:
        """A module, a function with an effect or the environment handed on as a value
        (``[fs].map(f => f.rmSync(p))``, ``JSON.stringify(process.env)``) is used where
        the reader does not see it: not quiet (the whole environment is read)."""
        if value.kind not in NAMED and value.kind != "env":
            return
        if value.kind == "function" and value.text in PURE:
            return
        if _held(node, self.parents):
            return
        if value.kind == "env":
            self._add(CodeAct("env", None))
        self.quiet = False

    def _name(self, node: Node) -> None:
        if node.text == b"arguments":
            self.quiet = False
        self._passed(node, self.values.of(node))

    def _member(self, node: Node) -> None:
        prop = node.child_by_field_name("property")
        self._property(node, None if prop is None else (prop.text or b"").decode())

    def _subscript(self, node: Node) -> None:
        key = self.values.of(node.child_by_field_name("index"))
        self._property(node, key.text if key.kind == "str" else None)

    def _property(self, node: Node, key: str | None) -> None:
        """``owner.key`` (``key`` None: computed at run time)."""
        if key in UNSAFE_PROPERTIES:
            self.quiet = False
            return
        owner = self.values.of(node.child_by_field_name("object"))
        if owner.kind == "env":
            self._add(CodeAct("env", key))
        elif owner.kind in NAMED:
            value = self.values.of(node)
            if key is None or (value.kind == "function" and not quiet(value.text or "")):
                self.quiet = False  # called or not: a call is judged in `_call`
            self._passed(node, value)

    def _store(self, node: Node) -> None:
        """``target = value`` on a module or the environment changes what later code
        (or a child process) runs: not quiet."""
        target = node.child_by_field_name("left") or node.child_by_field_name("argument")
        if target is not None and target.type in ("member_expression", "subscript_expression"):
            owner = self.values.of(target.child_by_field_name("object"))
            if owner.kind in NAMED or owner.kind in ("env", "unknown", "lambda"):
                self.quiet = False

    def _delete(self, node: Node) -> None:
        operator = node.child_by_field_name("operator")
        if operator is not None and operator.type == "delete":
            self._store(node)

    def _declarator(self, node: Node) -> None:
        """``const {GITHUB_TOKEN} = process.env``: each variable named is read."""
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name is None or name.type != "object_pattern" or self.values.of(value).kind != "env":
            return
        for child in name.named_children:
            key = child.child_by_field_name("key") if child.type == "pair_pattern" else child
            self._add(CodeAct("env", key_name(key)))  # `...rest`: the whole environment

    def _call(self, node: Node) -> None:
        func = node.child_by_field_name("function")
        if func is None:
            return
        if func.type == "import":  # `import("fs")`
            self._require(node)
        elif func.type in ("member_expression", "subscript_expression") and self.values.of(
            func.child_by_field_name("object")
        ).kind not in NAMED:  # fmt: skip
            self._method(func)
        else:
            callee = self.values.of(func)
            if callee.kind in NAMED and callee.text is not None:
                self._named(callee.text, node)
            elif callee.kind != "lambda":  # the code's own function: its body is read
                self.quiet = False
        self._passed(node, self.values.of(node))

    def _method(self, func: Node) -> None:
        """A method of a value that is no module: ``text.trim()``, ``Bun.file(p).json()``."""
        owner = self.values.of(func.child_by_field_name("object"))
        if func.type == "member_expression":
            prop = func.child_by_field_name("property")
            method = None if prop is None else (prop.text or b"").decode()
        else:
            key = self.values.of(func.child_by_field_name("index"))
            method = key.text if key.kind == "str" else None
        if owner.kind == "file" and method in ("delete", "unlink", "write", "writer"):
            self._add(CodeAct("delete" if method in ("delete", "unlink") else "write", owner.text))
        elif method not in QUIET_METHODS:
            self.quiet = False

    def _named(self, name: str, node: Node) -> None:
        head = name.partition(".")[0]
        if name == "require":
            self._require(node)
        elif name in RUNS_TEXT:
            self.quiet = False
            self._nested(node, last=name == "Function")
        elif name in DYNAMIC or head in DYNAMIC:
            self.quiet = False
        elif name in ACTS:
            for act in ACTS[name](self.values, node):
                self._add(act)
        elif name in NETWORK:
            args = arguments(node)
            url = self.values.of(args[0]) if args else None
            known = url is not None and url.kind == "str"
            self._add(CodeAct("network", url.text if known and url is not None else None))
        elif name in _CHDIR:
            self.quiet = False
            self.chdir = True
        elif name not in QUIET_CALLS and not in_quiet_namespace(name):
            self.quiet = False

    def _new(self, node: Node) -> None:
        callee = self.values.of(node.child_by_field_name("constructor"))
        name = callee.text if callee.kind in NAMED else None
        if name is None:
            self.quiet = False
        elif name in ACTS or name in NETWORK or name in RUNS_TEXT or name in DYNAMIC:
            self._named(name, node)
        elif name not in QUIET_CONSTRUCTORS and not in_quiet_namespace(name):
            self.quiet = False

    def _require(self, node: Node) -> None:
        args = arguments(node)
        self._module(self.values.of(args[0]) if args else None)

    def _import(self, node: Node) -> None:
        source = node.child_by_field_name("source")
        self._module(None if source is None else Value("str", string_text(source)))

    def _module(self, spec: Value | None) -> None:
        """Node's own modules load nothing else; a local ``.json`` file is read; any
        other module runs code the reader does not see (a local script: judged as run)."""
        if spec is None or spec.kind != "str" or spec.text is None:
            self.quiet = False
            return
        text = spec.text
        if module_name(text) in BUILTIN_MODULES:
            return
        if text in ("dotenv", "dotenv/config"):  # loads `.env` into `process.env`
            self._add(CodeAct("load-env", ".env"))
        local = text.startswith(("./", "../", "/", "~/"))
        if local and text.endswith(".json"):
            self._add(CodeAct("read", text))
            return
        self.quiet = False
        if local:
            self._add(CodeAct("run", f"node -- {shlex.quote(text)}"))

    def _nested(self, node: Node, last: bool) -> None:
        """``eval("require('fs').rmSync('x')")``: the literal code it runs, read too."""
        args = arguments(node)
        if not args or self.nested >= _MAX_NESTED:
            return
        value = self.values.of(args[-1] if last else args[0])
        if value.kind != "str" or value.text is None:  # text known only at run time
            self._add(CodeAct("eval", None, source="node"))
            return
        inner = read_javascript(value.text, self.nested + 1)
        for act in inner.acts:
            self._add(act)
        self.chdir = self.chdir or inner.chdir


def _held(node: Node, parents: dict[int, Node]) -> bool:
    """``node``'s value stays where the reader sees it: called, a member taken, bound to a
    name, or left unused."""
    child, parent = node, parents.get(node.id)
    for _ in range(_MAX_WRAPPING):
        if parent is None or parent.type not in ("parenthesized_expression", "await_expression"):
            break
        child, parent = parent, parents.get(parent.id)
    if parent is None:
        return False
    kind = parent.type
    if kind in _HOLDS:
        return True
    field = {"call_expression": "function", "member_expression": "object",
             "subscript_expression": "object", "new_expression": "constructor",
             "assignment_expression": "left"}.get(kind)  # fmt: skip
    return field is not None and parent.child_by_field_name(field) == child


_HANDLERS: dict[str, Callable[[_Reader, Node], None]] = {
    "identifier": _Reader._name,
    "shorthand_property_identifier": _Reader._name,
    "member_expression": _Reader._member,
    "subscript_expression": _Reader._subscript,
    "call_expression": _Reader._call,
    "new_expression": _Reader._new,
    "import_statement": _Reader._import,
    "assignment_expression": _Reader._store,
    "augmented_assignment_expression": _Reader._store,
    "update_expression": _Reader._store,
    "unary_expression": _Reader._delete,
    "variable_declarator": _Reader._declarator,
}
"""What the walk checks at each kind of node (any other kind: only what is inside it)."""
