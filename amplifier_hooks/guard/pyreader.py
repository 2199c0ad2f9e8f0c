"""Inline Python read with Python's own grammar (`ast`): what its calls do, where the
text says it.

The guard never grants inline code: a grant would need to understand a whole program.
But a call whose effect is known and whose arguments are literals is a command or a file
access the guard already judges: ``os.system("mkfs.ext4 /dev/sda1")`` is that command,
``shutil.rmtree(Path.home())`` deletes the home folder, ``open(".env")`` reads ``.env``,
``urllib.request.urlopen(url)`` reaches the network. The reader lists these as `CodeAct`s
(`codepieces` turns them into pieces the rules judge), and says whether the code is
*quiet*: every call it makes is one that changes nothing and reaches nothing (``print``,
``len``, ``json.load`` of a file it reads, ``sys.version``, ``platform`` queries), every
module it imports is one such, and nothing in it is dynamic (``eval``, ``exec``,
``__import__``, ``getattr``, a function or class defined, attribute access on a value the
reader does not know). Only quiet code loses the guard's ask; it is still not granted.
"""

from __future__ import annotations

import ast
import builtins
import shlex
from collections.abc import Callable

from amplifier_hooks.guard.codeacts import MAX_ACTS, MAX_CODE, NOT_READ, CodeAct, CodeReading
from amplifier_hooks.guard.globplace import narrow
from amplifier_hooks.guard.pynames import (
    DATA_ATTRIBUTES,
    DYNAMIC,
    NETWORK,
    PURE_BUILTINS,
    QUIET_ATTRIBUTES,
    QUIET_CALLS,
    QUIET_METHODS,
    QUIET_MODULES,
    QUIET_PREFIXES,
    READ_CALLS,
    VERSION_ATTRIBUTES,
    canonical,
)
from amplifier_hooks.guard.pyquiet import LOADS_CODE, is_data, quiet_method
from amplifier_hooks.guard.pyvalues import Bindings, Value, bind, evaluate, nodes_of
from amplifier_hooks.guard.sqlfiles import SQL_CALLS, code_sql_files

__all__ = ["MAX_CODE", "CodeAct", "CodeReading", "read_python"]

_ONE_VARIABLE = frozenset({"get", "pop", "setdefault", "__getitem__", "__contains__"})
"""Methods of ``os.environ`` that take one variable (the others hand on all of them)."""


def read_python(code: str) -> CodeReading:
    """What ``code`` does as far as its text says (`CodeReading`); code that does not
    parse, or is too long, is not read (``parsed`` False, not quiet)."""
    if len(code) > MAX_CODE or "\x00" in code:
        return NOT_READ
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return NOT_READ
    try:
        return _Reader(tree).reading()
    except RecursionError:
        return NOT_READ


class _Reader:
    """One walk over a parsed tree: its acts, and whether anything in it is not quiet."""

    __slots__ = ("acts", "chdir", "keyed", "names", "nodes", "quiet", "tested", "values")

    def __init__(self, tree: ast.Module) -> None:
        self.nodes = nodes_of(tree)  # walked once: `bind` and `reading` share it
        self.names: Bindings
        self.names, star = bind(self.nodes)
        self.quiet = not star
        self.acts: list[CodeAct] = []
        self.chdir = False
        self.values: dict[int, Value] = {}
        self.keyed: set[int] = set()
        """``os.environ`` nodes read one variable at a time (``[K]``, ``.get(K)``)."""
        self.tested: set[int] = set()
        """Nodes a name is only tested against (``'KEY' in os.environ``: a bool)."""

    def _value(self, node: ast.expr) -> Value:
        """`evaluate`, once per node (a call's function is met as an attribute too)."""
        found = self.values.get(id(node))
        if found is None:
            found = self.values[id(node)] = evaluate(node, self.names)
        return found

    def reading(self) -> CodeReading:
        called, self.keyed, self.tested = _marked(self.nodes)
        for node in self.nodes:
            if type(node) in _INERT:
                continue
            if isinstance(node, ast.Call):
                self._call(node)
            elif isinstance(node, ast.Attribute):
                self._attribute(node)
            elif isinstance(node, ast.Import | ast.ImportFrom):
                self._import(node)
            elif isinstance(node, ast.Name):
                if node.id in DYNAMIC or node.id.startswith("__"):
                    self.quiet = False
                elif id(node) not in called and isinstance(node.ctx, ast.Load):
                    self._passed(node.id)
            elif isinstance(node, _LOUD):
                self.quiet = False
        return CodeReading(True, self.quiet, tuple(self.acts[:MAX_ACTS]), self.chdir)

    def _passed(self, name: str) -> None:
        """A builtin passed as a value (``map(open, paths, modes)``) is called where the
        reader does not see its arguments: only pure ones keep the code quiet."""
        if name not in self.names and hasattr(builtins, name) and name not in PURE_BUILTINS:
            self.quiet = False

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        else:
            modules = [node.module or ""] if node.level == 0 else [""]
        if any(m not in QUIET_MODULES for m in modules):
            self.quiet = False

    def _attribute(self, node: ast.Attribute) -> None:
        owner = self._value(node.value)
        if node.attr in VERSION_ATTRIBUTES and owner.kind == "module":
            return  # (called, it is judged as a call)
        if node.attr.startswith("__"):
            self.quiet = False
            return
        if owner.kind in ("module", "function"):
            dotted = f"{owner.text}.{node.attr}"
            if dotted == "os.environ" and id(node) in self.tested:
                return  # `'KEY' in os.environ`: whether a name is set, no value
            if dotted == "os.environ" and id(node) not in self.keyed:
                self._add(CodeAct("env", None))  # the whole environment, handed on
            if (
                dotted not in QUIET_ATTRIBUTES
                and dotted not in QUIET_CALLS
                and (dotted not in QUIET_PREFIXES)
            ):
                self.quiet = False  # called or not: a call is judged in `_call`
        elif owner.kind not in ("path", "file") and not self._called_quiet(node):
            self.quiet = False

    def _called_quiet(self, node: ast.Attribute) -> bool:
        """A quiet method of plain data (``json.load(f).get("x")``, ``"-".join(...)``), or
        an attribute of data that is data (``df.T``, ``a.shape``: called, `_call` judges it)."""
        attr = node.attr
        return (attr in QUIET_METHODS or attr in DATA_ATTRIBUTES) and is_data(
            self._value(node.value)
        )

    def _call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute):
            owner = self._value(func.value)
            if owner.kind == "path":
                self._path_call(owner.text, func.attr, node)
                return
            if owner.kind == "file":
                if func.attr not in QUIET_METHODS:
                    self.quiet = False
                return
            if owner.kind not in ("module", "function") or owner.text in QUIET_ATTRIBUTES:
                if not quiet_method(func.attr, node) or not is_data(owner):
                    self.quiet = False
                return
        callee = self._value(func)
        if callee.kind != "function" or callee.text is None:
            self.quiet = False
            return
        name = canonical(callee.text)
        if name in DYNAMIC or name.split(".")[0] in DYNAMIC:
            self.quiet = False
            if name in _RUNS_TEXT:
                self._nested(node)
            return
        act = _ACTS.get(name)
        if act is not None:
            self.quiet = False
            act(self, node)
        elif name in ("open", "io.open"):
            self._open(node)
        elif name in READ_CALLS:
            if any(k.arg in LOADS_CODE for k in node.keywords):
                self.quiet = False  # `np.load(p, allow_pickle=True)`: a pickle runs code
            path = self._text(node, 0, "filepath_or_buffer")
            if path is not None and "://" in path:
                self.quiet = False
                self._add(CodeAct("network", path))
            else:
                self._file(path, "r")
        elif name in SQL_CALLS:  # `duckdb.sql("SELECT .. FROM 'x.parquet'")`: its files
            files = code_sql_files(self._text(node, 0, "query"))
            if files is None:
                self.quiet = False
            for path in files.reads if files else ():
                self._file(path, "r")
            for path in files.writes if files else ():
                self._file(path, "w")
        elif name in NETWORK or name.split(".")[0] in ("requests", "httpx", "socket"):
            self.quiet = False
            self._add(CodeAct("network", _url(self._args(node)[:1])))
        elif name not in QUIET_CALLS:
            self.quiet = False

    def _nested(self, node: ast.Call) -> None:
        """``exec("import os; os.system(..)")``: the literal code it runs, read too (it is
        shorter than the code around it, so reading ends)."""
        text = self._text(node)
        if text is None:
            return
        inner = read_python(text)
        for act in inner.acts:
            self._add(act)
        self.chdir = self.chdir or inner.chdir

    def _args(self, node: ast.Call) -> list[Value]:
        return [self._value(a) for a in node.args]

    def _text(self, node: ast.Call, index: int = 0, keyword: str = "") -> str | None:
        """Argument ``index`` (or keyword ``keyword``) as literal text, or None."""
        value: ast.expr | None = node.args[index] if index < len(node.args) else None
        for kw in node.keywords:
            if kw.arg == keyword and keyword:
                value = kw.value
        if value is None:
            return None
        found = self._value(value)
        return found.text if found.kind in ("str", "path") else None

    def _add(self, act: CodeAct) -> None:
        if len(self.acts) < MAX_ACTS:
            self.acts.append(act)

    def _open(self, node: ast.Call) -> None:
        mode = self._text(node, 1, "mode") if len(node.args) > 1 or node.keywords else "r"
        path = self._text(node, 0, "file")
        self._file(path, mode)

    def _file(self, path: str | None, mode: str | None) -> None:
        if mode is None or any(c in mode for c in "wax+"):
            self.quiet = False
            self._add(CodeAct("append" if mode and "a" in mode else "write", path))
        else:
            if path is None or not narrow(path):
                self.quiet = False
            self._add(CodeAct("read", path))

    def _path_call(self, path: str | None, method: str, node: ast.Call) -> None:
        if method == "open":
            mode = self._text(node, 0, "mode") if node.args or node.keywords else "r"
            self._file(path, mode)
            return
        if method in ("read_text", "read_bytes"):
            if path is not None and not narrow(path):
                self.quiet = False
            self._add(CodeAct("read", path))
            return
        does = _PATH_METHODS.get(method)
        if does is not None:
            self.quiet = False
            self._add(CodeAct(does, path))
        elif method in ("rename", "replace", "symlink_to", "hardlink_to"):
            self.quiet = False
            other = self._text(node, 0, "target")
            moved = CodeAct("move", other, path) if method in ("rename", "replace") else None
            self._add(moved or CodeAct("link", path, other))
        elif method not in QUIET_METHODS:
            self.quiet = False

    def _command(self, node: ast.Call) -> None:
        """``os.system(s)``, ``subprocess.run(s or [words])``: the command it runs."""
        if not node.args:
            return self._add(CodeAct("run", None))
        first = node.args[0]
        if isinstance(first, ast.List | ast.Tuple):
            words = [self._value(e) for e in first.elts]
            if words and all(w.kind in ("str", "path") and w.text is not None for w in words):
                return self._add(CodeAct("run", shlex.join(w.text or "" for w in words)))
            return self._add(CodeAct("run", None))
        return self._add(CodeAct("run", self._text(node)))

    def _exec(self, node: ast.Call) -> None:
        """``os.execvp(file, [words])``, ``os.spawnlp(mode, file, *words)``: a program."""
        texts = [self._value(a) for a in node.args]
        words = [t for t in texts if t.kind == "str"]
        self._add(CodeAct("run", shlex.join(w.text or "" for w in words[1:]) if words else None))


ActFn = Callable[[_Reader, ast.Call], None]


def _one(does: str) -> ActFn:
    """An act on the call's first argument."""
    return lambda reader, node: reader._add(CodeAct(does, reader._text(node)))


def _two(does: str) -> ActFn:
    """An act from the first argument to the second (``shutil.copy(src, dst)``)."""
    return lambda reader, node: reader._add(
        CodeAct(does, reader._text(node, 1, "dst"), reader._text(node, 0, "src"))
    )


def _chmod(reader: _Reader, node: ast.Call) -> None:
    mode = node.args[1] if len(node.args) > 1 else None
    value = mode.value if isinstance(mode, ast.Constant) else None
    text = oct(value)[2:] if isinstance(value, int) else None
    reader._add(CodeAct("chmod", reader._text(node), mode=text))


def _chdir(reader: _Reader, node: ast.Call) -> None:
    reader.chdir = True


_INERT = frozenset({ast.Constant, ast.Load, ast.Store, ast.Expr, ast.keyword, ast.Subscript,
                    ast.BinOp, ast.Add, ast.Module, ast.Tuple, ast.List, ast.Dict,
                    ast.JoinedStr, ast.FormattedValue, ast.alias, ast.Compare, ast.If,
                    ast.With, ast.withitem, ast.Assign, ast.For, ast.comprehension})  # fmt: skip
"""Kinds of node the reader has nothing to check in (what is inside them is walked)."""

_RUNS_TEXT = frozenset({"exec", "eval", "compile"})
"""Builtins whose first argument is Python code, read when it is a literal."""

_LOUD = (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Await,
         ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal, ast.Delete)  # fmt: skip
"""Syntax that defines code or reaches outside its own names: not quiet."""

_SHELL = ("os.system", "os.popen", "subprocess.run", "subprocess.call", "subprocess.Popen",
          "subprocess.check_call", "subprocess.check_output", "subprocess.getoutput",
          "subprocess.getstatusoutput", "pty.spawn", "commands.getoutput")  # fmt: skip
_EXECS = ("os.execv", "os.execvp", "os.execve", "os.execvpe", "os.execl", "os.execlp",
          "os.spawnv", "os.spawnvp", "os.spawnl", "os.spawnlp", "os.posix_spawn",
          "os.posix_spawnp")  # fmt: skip
_ACTS: dict[str, ActFn] = {
    **{name: _Reader._command for name in _SHELL},
    **{name: _Reader._exec for name in _EXECS},
    "shutil.rmtree": _one("delete-tree"),
    "os.remove": _one("delete"), "os.unlink": _one("delete"),
    "os.rmdir": _one("rmdir"), "os.removedirs": _one("rmdir"),
    "os.mkdir": _one("mkdir"), "os.makedirs": _one("mkdir"),
    "os.truncate": _one("write"), "os.chown": _one("write"), "shutil.chown": _one("write"),
    "os.mkfifo": _one("write"), "os.mknod": _one("write"),
    "shutil.copy": _two("copy"), "shutil.copy2": _two("copy"),
    "shutil.copyfile": _two("copy"), "shutil.copytree": _two("copy"),
    "shutil.move": _two("move"), "os.rename": _two("move"), "os.replace": _two("move"),
    "os.renames": _two("move"), "os.symlink": _two("link"), "os.link": _two("link"),
    "os.chmod": _chmod, "os.lchmod": _chmod, "os.chdir": _chdir,
}  # fmt: skip
"""Calls with a known effect on the paths or the command they are given."""
_PATH_METHODS = {"unlink": "delete", "rmdir": "rmdir", "write_text": "write",
                 "write_bytes": "write", "touch": "write", "mkdir": "mkdir",
                 "chmod": "chmod", "lchmod": "chmod"}  # fmt: skip


def _url(values: list[Value]) -> str | None:
    return values[0].text if values and values[0].kind == "str" else None


def _marked(nodes: list[ast.AST]) -> tuple[set[int], set[int], set[int]]:
    """In one pass over ``nodes`` (three were a tenth of a reading): the functions called,
    the ``os.environ`` nodes read one variable at a time (``[K]``, ``.get(K)``), and the
    containers a string constant is only tested for membership in (``'K' in X``, ``'K'
    not in X``: the test's value is a bool, never a value of X)."""
    called: set[int] = set()
    keyed: set[int] = set()
    tested: set[int] = set()
    for node in nodes:
        if isinstance(node, ast.Call):
            called.add(id(node.func))
        elif isinstance(node, ast.Subscript) or (
            isinstance(node, ast.Attribute) and node.attr in _ONE_VARIABLE
        ):
            keyed.add(id(node.value))
        elif (
            isinstance(node, ast.Compare)
            and isinstance(node.left, ast.Constant)
            and isinstance(node.left.value, str)
            and len(node.ops) == 1
            and isinstance(node.ops[0], ast.In | ast.NotIn)
        ):
            tested.add(id(node.comparators[0]))
    return called, keyed, tested
