"""What a name or expression of inline Python stands for, as far as the text alone says.

The reader (`pyreader`) needs the path a call acts on and the function it calls. Both are
worked out here from Python's own syntax tree, never from the text: a literal string, a
``pathlib.Path`` built from literals (``Path.home() / ".ssh"``), ``os.path.join`` and
``expanduser`` of literals, and names bound once to one of these. Anything else (a
parameter, a value read at run time, a name bound twice) is unknown: a path the guard
cannot name is never one it can clear.
"""

from __future__ import annotations

import ast
import builtins
import posixpath
from typing import NamedTuple

from amplifier_hooks.guard.decodes import DECODERS, decode_literal
from amplifier_hooks.guard.pynames import (
    DATA_ATTRIBUTES,
    QUIET_CALLS,
    QUIET_METHODS,
    READER_OBJECTS,
    column_like,
)

__all__ = ["UNKNOWN", "Bindings", "Each", "Value", "evaluate", "is_data"]


class Value(NamedTuple):
    """What an expression is: ``kind`` is ``str`` (``text`` its content), ``path`` (a
    ``pathlib`` path, ``text`` its spelling with ``~`` for the home folder), ``module`` or
    ``function`` (``text`` the dotted name: ``os.path``, ``shutil.rmtree``), ``file`` (an
    open file; ``text`` its path or None), ``data`` (plain data: a number, a list), ``result`` (what
    a call of the function named ``text`` returns) or ``unknown``."""

    kind: str
    text: str | None = None


UNKNOWN = Value("unknown")
_DATA = Value("data")
_MAX_DEPTH = 32
"""Names followed to their values before one is taken as unknown (``a = b``, ``b = a``)."""

Bindings = dict[str, "ast.expr | Value | None"]
"""Each name the code binds: the one expression it is bound to, a value (an import), or
None (bound more than once, or in a way the reader does not follow)."""


class Each(ast.expr):
    """What a loop's name is bound to: each element of its iterable (``iter``)."""

    _fields = ("iter",)

    def __init__(self, iterable: ast.expr) -> None:
        super().__init__()
        self.iter = iterable


def evaluate(node: ast.expr, names: Bindings, depth: int = 0) -> Value:
    """What ``node`` stands for (`Value`); unknown where the text does not say."""
    if depth > _MAX_DEPTH:
        return UNKNOWN
    # (the kinds met most first: a name, an attribute, a call, a literal)
    if isinstance(node, ast.Name):
        return _named(node.id, names, depth)
    if isinstance(node, ast.Attribute):
        owner = evaluate(node.value, names, depth + 1)
        if owner.kind in ("module", "function") and owner.text is not None:
            return Value("function", f"{owner.text}.{node.attr}")
        if owner.kind == "result" and owner.text in READER_OBJECTS:  # `cp.read(path)`
            return Value("function", f"{owner.text}.{node.attr}")
        known = node.attr in DATA_ATTRIBUTES or column_like(node.attr)  # `df.y`: a column
        return _DATA if known and is_data(owner) else UNKNOWN
    if isinstance(node, ast.Call):
        return _called(node, names, depth)
    if isinstance(node, ast.Constant):
        return Value("str", node.value) if isinstance(node.value, str) else _DATA
    if type(node) in _DATA_NODES:
        return _DATA
    if isinstance(node, ast.JoinedStr):
        parts = [evaluate(v, names, depth + 1) for v in node.values]
        if all(p.kind == "str" for p in parts):
            return Value("str", "".join(p.text or "" for p in parts))
        return UNKNOWN
    if isinstance(node, ast.BinOp):
        return _binop(node, names, depth)
    if isinstance(node, Each):
        return _each(node.iter, names, depth)
    if isinstance(node, ast.Subscript):
        base = evaluate(node.value, names, depth + 1)
        if base == _ENVIRON and _constant(node.slice) in _HOME_VARIABLES:
            return _HOME  # `os.environ["HOME"]`
        return _DATA if base.kind in ("str", "data", "result", "function") else UNKNOWN
    return UNKNOWN


_DATA_NODES = frozenset({ast.List, ast.Tuple, ast.Dict, ast.Set, ast.Compare, ast.BoolOp,
                         ast.UnaryOp})  # fmt: skip
"""Expressions whose value is plain data (a literal collection, a test)."""


def is_data(value: Value) -> bool:
    """``value`` is plain data made from data (not a path: its methods act on files)."""
    return value.kind in ("str", "data", "file") or (
        value.kind == "result" and value.text in QUIET_CALLS
    )


def _each(iterable: ast.expr, names: Bindings, depth: int) -> Value:
    """An element of plain data is data (a line of a text, a row of a table). Paths listed
    into data (``sorted(Path.home().iterdir())``) are data too: the reader keeps every
    method of data that acts on a file loud (`pyreader._quiet_method`)."""
    return _DATA if is_data(evaluate(iterable, names, depth + 1)) else UNKNOWN


def _named(name: str, names: Bindings, depth: int) -> Value:
    if name not in names:
        if "*" in names and not hasattr(builtins, name):  # `from os import *; system(..)`
            star = names["*"]
            return Value("function", f"{star.text}.{name}") if isinstance(star, Value) else UNKNOWN
        return Value("function", name)  # a builtin (`print`, `open`, `len`)
    bound = names[name]
    if bound is None:
        return UNKNOWN
    if isinstance(bound, Value):
        return bound
    names[name] = UNKNOWN  # while it is worked out: a loop over itself (`for x in x`)
    value = evaluate(bound, names, depth + 1)
    names[name] = value  # a name is bound once: worked out once per reading
    return value


def _binop(node: ast.BinOp, names: Bindings, depth: int) -> Value:
    left = evaluate(node.left, names, depth + 1)
    right = evaluate(node.right, names, depth + 1)
    if isinstance(node.op, ast.Add) and left.kind == right.kind == "str":
        return Value("str", (left.text or "") + (right.text or ""))
    if isinstance(node.op, ast.Div) and left.kind == "path" and right.kind in ("str", "path"):
        return Value("path", _join(left.text or "", right.text or ""))
    return UNKNOWN if "unknown" in (left.kind, right.kind) else _DATA


_PATH_TYPES = frozenset({"pathlib.Path", "pathlib.PosixPath", "pathlib.PurePath"})
_HOME = Value("str", "~")
_ENVIRON = Value("function", "os.environ")
_HOME_VARIABLES = frozenset({"HOME", "USERPROFILE"})
"""The variables that hold the home folder: their value is ``~`` to the guard."""
_IMPORTERS = frozenset({"__import__", "importlib.import_module"})


def _constant(node: ast.expr | None) -> str | bytes | None:
    """The text of a literal string or bytes (None: anything else)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str | bytes):
        return node.value
    return None


def _called(node: ast.Call, names: Bindings, depth: int) -> Value:
    """The value a call returns, for the calls that build paths or open files."""
    func = node.func
    if isinstance(func, ast.Attribute):
        owner = evaluate(func.value, names, depth + 1)
        if owner.kind == "path":
            return _path_method(owner.text or "", func.attr, node, names, depth)
        if func.attr == "decode" and owner.kind == "str":
            return owner  # decoded bytes (`decodes`) as text
        if func.attr in QUIET_METHODS and (
            owner.kind in ("str", "data", "file")
            or (owner.kind == "result" and owner.text in QUIET_CALLS)
        ):
            return _DATA  # `cfg.get("tool", {})`, `df.isna()`: data from data
        if owner.kind == "function" and owner.text in _PATH_TYPES and func.attr in ("home", "cwd"):
            return Value("path", "~" if func.attr == "home" else ".")
    callee = evaluate(func, names, depth + 1)
    name = callee.text if callee.kind == "function" else None
    args = [evaluate(a, names, depth + 1) for a in node.args]
    texts = [a.text for a in args if a.kind in ("str", "path") and a.text is not None]
    whole = len(texts) == len(args) and not node.keywords
    if name is not None and node.args and name in _NAMED_BY_TEXT:
        return _named_by_text(name, node.args[0], args[0])
    if name in _PATH_TYPES:
        return Value("path", _join(*texts) if texts else ".") if whole else UNKNOWN
    if name in ("os.path.join", "posixpath.join") and whole and texts:
        return Value("str", _join(*texts))
    if name in ("os.path.expanduser", "os.path.abspath", "os.path.normpath", "os.fspath",
                "str") and whole and len(texts) == 1:  # fmt: skip
        return Value("str", texts[0])
    if name in ("os.getcwd", "os.path.curdir"):
        return Value("str", ".")
    if name in ("open", "io.open") and args and args[0].kind in ("str", "path"):
        return Value("file", args[0].text)
    return Value("result", name) if name is not None else UNKNOWN


_NAMED_BY_TEXT = DECODERS | _IMPORTERS | {"os.getenv", "os.environ.get"}
"""Calls whose value the literal they are given names: a module imported by its name,
the home folder's variable read, literal bytes decoded (`decodes`)."""


def _named_by_text(name: str, first: ast.expr, value: Value) -> Value:
    """``__import__("shutil")`` is the module ``shutil``; ``os.getenv("HOME")`` is ``~``;
    ``base64.b64decode("..")`` is the text it decodes to. Anything else: its result."""
    if name in _IMPORTERS:
        if value.kind != "str" or not value.text:
            return UNKNOWN
        # (`__import__("os.path")` returns `os`; `import_module` the submodule)
        return Value("module", value.text.split(".")[0] if name == "__import__" else value.text)
    if name in DECODERS:
        literal = _constant(first)
        decoded = decode_literal(name, literal) if literal is not None else None
        return Value("str", decoded) if decoded is not None else Value("result", name)
    if value.kind == "str" and value.text in _HOME_VARIABLES:
        return _HOME
    return Value("result", name)


def _path_method(path: str, method: str, node: ast.Call, names: Bindings, depth: int) -> Value:
    if method in ("expanduser", "resolve", "absolute"):
        return Value("path", path)
    if method in ("joinpath", "with_name", "with_suffix"):
        args = [evaluate(a, names, depth + 1) for a in node.args]
        if all(a.kind in ("str", "path") for a in args) and method == "joinpath":
            return Value("path", _join(path, *[a.text or "" for a in args]))
        return UNKNOWN
    if method == "open":
        return Value("file", path)
    if method == "iterdir" and not node.args:  # each entry of the folder: its `*`
        return Value("path", _join(path, "*"))
    if method in ("glob", "rglob") and len(node.args) == 1:
        # the paths it yields, as one pattern (`for p in Path("src").rglob("*.py")`)
        pattern = evaluate(node.args[0], names, depth + 1)
        if pattern.kind == "str" and pattern.text:
            deep = "**/" if method == "rglob" else ""
            return Value("path", _join(path, deep + pattern.text))
    if method in ("read_text", "read_bytes", "exists", "is_file", "is_dir"):
        return _DATA
    return UNKNOWN


def _join(*parts: str) -> str:
    """``os.path.join`` of ``parts``, ``~`` kept for the guard to place."""
    return posixpath.join(*parts) if parts else "."
