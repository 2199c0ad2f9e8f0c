"""The syntax inline Python's reader (`pyreader`) looks at: the kinds of node with
nothing to check in, the ones that make code loud, the calls that run a command or a
program, and the tests that only ask whether a name is set."""

from __future__ import annotations

import ast
from typing import NamedTuple

from amplifier_hooks.guard.pyvalues import Value

__all__ = ["EXECS", "INERT", "LOUD", "MODULE_FACTS", "ONE_VARIABLE", "PATH_METHODS",
           "RUNS_TEXT", "SHELL", "Marked", "argument", "marked", "url"]  # fmt: skip

ONE_VARIABLE = frozenset({"get", "pop", "setdefault", "__getitem__", "__contains__"})
"""Methods of ``os.environ`` that take one variable (the others hand on all of them)."""


INERT = frozenset({ast.Constant, ast.Load, ast.Store, ast.Expr, ast.keyword, ast.Subscript,
                    ast.BinOp, ast.Add, ast.Module, ast.Tuple, ast.List, ast.Dict,
                    ast.JoinedStr, ast.FormattedValue, ast.alias, ast.Compare, ast.If,
                    ast.With, ast.withitem, ast.Assign, ast.For, ast.comprehension})  # fmt: skip
"""Kinds of node the reader has nothing to check in (what is inside them is walked)."""

MODULE_FACTS = frozenset({"__file__", "__name__", "__path__"})
"""A module's own facts, strings: where it was found, its name."""

RUNS_TEXT = frozenset({"exec", "eval", "compile"})
"""Builtins whose first argument is Python code, read when it is a literal."""

LOUD = (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Await,
         ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal, ast.Delete)  # fmt: skip
"""Syntax that defines code or reaches outside its own names: not quiet."""

SHELL = ("os.system", "os.popen", "subprocess.run", "subprocess.call", "subprocess.Popen",
          "subprocess.check_call", "subprocess.check_output", "subprocess.getoutput",
          "subprocess.getstatusoutput", "pty.spawn", "commands.getoutput")  # fmt: skip
EXECS = ("os.execv", "os.execvp", "os.execve", "os.execvpe", "os.execl", "os.execlp",
          "os.spawnv", "os.spawnvp", "os.spawnl", "os.spawnlp", "os.posix_spawn",
          "os.posix_spawnp")  # fmt: skip
PATH_METHODS = {"unlink": "delete", "rmdir": "rmdir", "write_text": "write",
                 "write_bytes": "write", "touch": "write", "mkdir": "mkdir",
                 "chmod": "chmod", "lchmod": "chmod"}  # fmt: skip


def url(values: list[Value]) -> str | None:
    return values[0].text if values and values[0].kind == "str" else None


class Marked(NamedTuple):
    """What a reading needs to know of a tree's nodes before it reads them, found in one
    pass (four were a tenth of a reading)."""

    called: set[int]
    """The functions called."""
    keyed: set[int]
    """The ``os.environ``-like nodes read one key at a time (``[K]``, ``.get(K)``)."""
    tested: set[int]
    """The containers a string constant is only tested for membership in (``'K' in X``,
    ``'K' not in X``): the test's value is a bool, never a value of X."""
    handed: set[int]
    """The values handed to a call as its arguments."""


def marked(nodes: tuple[ast.AST, ...] | list[ast.AST]) -> Marked:
    """`Marked` of ``nodes``, in one pass."""
    found = Marked(set(), set(), set(), set())
    for node in nodes:
        if isinstance(node, ast.Call):
            found.called.add(id(node.func))
            found.handed.update(id(a) for a in (*node.args, *(k.value for k in node.keywords)))
        elif isinstance(node, ast.Subscript) or (
            isinstance(node, ast.Attribute) and node.attr in ONE_VARIABLE
        ):
            found.keyed.add(id(node.value))
        elif (
            isinstance(node, ast.Compare)
            and isinstance(node.left, ast.Constant)
            and isinstance(node.left.value, str)
            and len(node.ops) == 1
            and isinstance(node.ops[0], ast.In | ast.NotIn)
        ):
            found.tested.add(id(node.comparators[0]))
    return found


def argument(node: ast.Call, index: int, keyword: str) -> ast.expr | None:
    """A call's argument ``index``, or its keyword ``keyword`` when given so."""
    value: ast.expr | None = node.args[index] if index < len(node.args) else None
    for kw in node.keywords:
        if kw.arg == keyword and keyword:
            value = kw.value
    return value
