"""Inline Python whose only loud statements are commands the guard reads whole.

``python3 -c 'import subprocess; subprocess.run(["git", "status", "--short"])'`` and
``python3 -c "import shutil; shutil.rmtree('build', ignore_errors=True)"``: the reader
(`pyreader`) lists their acts (a literal argv run, a literal path deleted), which
`codepieces` turns into the pieces ``git status --short`` and ``rm -rf -- build`` the
rules judge; but it calls the code loud, so it is asked as inline code. Here, a
statement that is only such a call (its result unused), with a literal argument and
keywords that change neither what runs nor where (``check``, ``text``,
``capture_output``, ``ignore_errors``), is taken out, with the imports of its module;
if what is left the reader finds quiet, the code is judged as its acts (no ask of its
own, never granted). Anything else in the code, a name bound to those modules, or any
other keyword (``cwd``, ``shell``, ``env``, ``onerror``) keeps it asked. A write of
literal text to a literal path (`pywrites`) is taken out the same way.
"""

from __future__ import annotations

import ast

from amplifier_hooks.guard.codeacts import MAX_CODE
from amplifier_hooks.guard.codereaders import Reader, read_once
from amplifier_hooks.guard.pyparsed import parse_python
from amplifier_hooks.guard.pywrites import WRITE_NAMES, literal_write

__all__ = ["effects_only"]

_CALLS: dict[tuple[str, str], frozenset[str]] = {
    ("subprocess", "run"): frozenset({"check", "text", "capture_output"}),
    ("subprocess", "call"): frozenset({"text"}),
    ("subprocess", "check_call"): frozenset({"text"}),
    ("shutil", "rmtree"): frozenset({"ignore_errors"}),
}
"""The calls read whole (module, function), with the keywords they may be given."""
_MODULES = frozenset(module for module, _ in _CALLS) | WRITE_NAMES
"""The names the statements read whole rely on (``open`` too: `pywrites`)."""


def effects_only(reader: Reader, code: str) -> bool:
    """Whether ``code`` is quiet but for statements that are calls of `_CALLS` with a
    literal first argument (the acts the reader lists for them are judged as commands)."""
    if len(code) > MAX_CODE:
        return False
    try:
        tree = parse_python(code)  # (the reader's tree: `pyparsed`; only read here)
    except (SyntaxError, ValueError, RecursionError):
        return False
    if _rebinds(tree):
        return False
    rest: list[ast.stmt] = []
    found = False
    for statement in tree.body:
        if isinstance(statement, ast.Import) and all(
            a.name in _MODULES and a.asname is None for a in statement.names
        ):
            continue
        if isinstance(statement, ast.Expr) and (
            _read_call(statement.value) or literal_write(statement.value)
        ):
            found = True
            continue
        rest.append(statement)
    if not found:
        return False
    if not rest:
        return True
    reading = read_once(reader, ast.unparse(ast.Module(body=rest, type_ignores=[])))
    return reading.parsed and reading.quiet


def _read_call(node: ast.expr) -> bool:
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return False
    owner = node.func.value
    if not isinstance(owner, ast.Name):
        return False
    keywords = _CALLS.get((owner.id, node.func.attr))
    if keywords is None or len(node.args) != 1:
        return False
    if any(k.arg not in keywords or not isinstance(k.value, ast.Constant) for k in node.keywords):
        return False
    first = node.args[0]
    if owner.id == "shutil":
        return isinstance(first, ast.Constant) and isinstance(first.value, str)
    return (
        isinstance(first, ast.List)
        and bool(first.elts)
        and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in first.elts)
    )


def _rebinds(tree: ast.Module) -> bool:
    """Whether a name of those modules is bound to anything else (an assignment, an
    ``import x as subprocess``, a function's or loop's name)."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Name)
            and node.id in _MODULES
            and not isinstance(node.ctx, ast.Load)
        ):
            return True
        if isinstance(node, ast.alias) and node.asname in _MODULES:
            return True  # (`import os as subprocess`)
        if isinstance(node, ast.ImportFrom) and any(
            (a.asname or a.name) in _MODULES for a in node.names
        ):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and (
            node.name in _MODULES
        ):
            return True
    return False
