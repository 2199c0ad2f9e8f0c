"""Inline Python read with Python's own grammar (`ast`): what its calls do, where the
text says it.

The guard never grants inline code: a grant would need to understand a whole program.
But a call whose effect is known and whose arguments are literals is a command or a file
access the guard already judges: ``os.system("mkfs.ext4 /dev/sda1")`` is that command,
``shutil.rmtree(Path.home())`` deletes the home folder, ``open(".env")`` reads ``.env``,
``urllib.request.urlopen(url)`` reaches the network. The reader lists these as `CodeAct`s
(`codepieces` turns them into pieces the rules judge; `pyacts` lists the calls whose
effect is known), and says whether the code is *quiet*: every call it makes is one that
changes nothing and reaches nothing (``print``, ``len``, ``json.load`` of a file it reads,
``sys.version``, ``platform`` queries) or is a data library's write of a path it names in
full (``df.to_csv("out/x.csv")``, ``fig.savefig(p)``: judged as any write of it;
``open(p, "w")`` stays loud), and nothing in it is dynamic (``eval``, ``exec``,
``__import__``, ``getattr``, a function or class defined, attribute access on a value the
reader does not know). An import runs the module as ``python -m`` would. Only quiet
code loses the ask; it is never granted.
"""

from __future__ import annotations

import ast
import builtins

from amplifier_hooks.guard import pydata
from amplifier_hooks.guard import pysyntax as syn
from amplifier_hooks.guard.codeacts import (
    MAX_ACTS,
    MAX_CODE,
    NOT_READ,
    CodeAct,
    CodeReading,
    plain_written_path,
)
from amplifier_hooks.guard.globplace import narrow
from amplifier_hooks.guard.pyacts import ACTS
from amplifier_hooks.guard.pybindings import bind, listed_each
from amplifier_hooks.guard.pyliteral import LITERAL_ACTS, literal_act
from amplifier_hooks.guard.pynames import (
    DATA_ATTRIBUTES,
    DYNAMIC,
    NETWORK,
    PURE_BUILTINS,
    QUIET_ATTRIBUTES,
    QUIET_CALLS,
    QUIET_METHODS,
    QUIET_PREFIXES,
    READ_CALLS,
    READER_OBJECTS,
    VERSION_ATTRIBUTES,
    canonical,
    column_like,
)
from amplifier_hooks.guard.pyparsed import parse_python
from amplifier_hooks.guard.pyquiet import LOADS_CODE, is_data, quiet_method
from amplifier_hooks.guard.pyshown import FILE_CALLS, PRINTS, file_acts, shown_acts
from amplifier_hooks.guard.pysqlite import read_only_sql
from amplifier_hooks.guard.pyvalues import Bindings, Value, evaluate
from amplifier_hooks.guard.pywalk import nodes_of
from amplifier_hooks.guard.sqlfiles import SQL_CALLS, code_sql_files

__all__ = ["MAX_CODE", "CodeAct", "CodeReading", "read_python"]


def read_python(code: str) -> CodeReading:
    """What ``code`` does as far as its text says (`CodeReading`); code that does not
    parse, or is too long, is not read (``parsed`` False, not quiet)."""
    if len(code) > MAX_CODE or "\x00" in code:
        return NOT_READ
    try:
        tree = parse_python(code)  # (once a decision: `pyparsed`)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return NOT_READ
    try:
        return _Reader(tree).reading()
    except RecursionError:
        return NOT_READ


class _Reader:
    """One walk over a parsed tree: its acts, and whether anything in it is not quiet."""

    __slots__ = ("acts", "called", "chdir", "each", "keyed", "names", "nodes", "quiet",
                 "tested", "values")  # fmt: skip

    def __init__(self, tree: ast.Module) -> None:
        self.nodes = nodes_of(tree)  # walked once: `bind` and `reading` share it
        self.names: Bindings
        self.names, star = bind(self.nodes)
        self.each = listed_each(self.names)  # loop names over a literal list: act on each
        self.quiet = not star
        self.acts: list[CodeAct] = []
        self.chdir = False
        self.values: dict[int, Value] = {}
        self.keyed: set[int] = set()
        """``os.environ`` nodes read one variable at a time (``[K]``, ``.get(K)``)."""
        self.tested: set[int] = set()
        """Nodes a name is only tested against (``'KEY' in os.environ``: a bool)."""
        self.called: set[int] = set()
        """The nodes that are a call's function (``df.to_csv`` in ``df.to_csv(p)``)."""

    def value(self, node: ast.expr) -> Value:
        """`evaluate`, once per node (a call's function is met as an attribute too)."""
        found = self.values.get(id(node))
        if found is None:
            found = self.values[id(node)] = evaluate(node, self.names)
        return found

    def reading(self) -> CodeReading:
        called, self.keyed, self.tested, handed = syn.marked(self.nodes)
        self.called = called
        for node in self.nodes:
            if type(node) in syn.INERT:
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
                    self._passed(node, id(node) in handed)
            elif isinstance(node, syn.LOUD):
                self.quiet = False
        return CodeReading(True, self.quiet, tuple(self.acts[:MAX_ACTS]), self.chdir)

    def _passed(self, node: ast.Name, handed: bool) -> None:
        """A builtin passed as a value (``map(open, paths, modes)``), or an imported
        function handed to a call (``map(system, lines)``, ``f = system; map(f, ..)``), is
        called where the reader does not see its arguments: only pure ones keep the code
        quiet (a name read otherwise, ``x: List[int]``, is no call)."""
        name = node.id
        if name not in self.names and hasattr(builtins, name) and name not in PURE_BUILTINS:
            self.quiet = False
        value = self.value(node) if handed and name in self.names else None
        if value is not None and value.kind == "function":
            dotted = canonical(value.text or "")
            self.quiet = self.quiet and (dotted in QUIET_CALLS or dotted in QUIET_ATTRIBUTES)

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        """Importing a module runs its own top level, as ``python -m NAME`` runs it (the
        project's ``app``, an installed library): no louder than that command, which the
        guard lets run. What the code then calls on it is judged call by call: a function
        of a module not listed quiet keeps the code asked. A relative import is not read."""
        if isinstance(node, ast.ImportFrom) and node.level != 0:
            self.quiet = False

    def _attribute(self, node: ast.Attribute) -> None:
        owner = self.value(node.value)
        if node.attr in VERSION_ATTRIBUTES and owner.kind == "module":
            return  # (called, it is judged as a call)
        if node.attr in syn.MODULE_FACTS and owner.kind == "module":
            return  # where a module was found, its name: a string
        if node.attr.startswith("__"):
            self.quiet = False
            return
        if owner.kind in ("module", "function"):
            dotted = f"{owner.text}.{node.attr}"
            if dotted == "os.environ" and id(node) in self.tested:
                return  # `'KEY' in os.environ`: whether a name is set, no value
            if dotted == "os.environ" and id(node) not in self.keyed:
                self.add(CodeAct("env", None))  # the whole environment, handed on
            if (
                dotted not in QUIET_ATTRIBUTES
                and dotted not in QUIET_CALLS
                and (dotted not in QUIET_PREFIXES)
                and not (
                    (
                        dotted in pydata.WRITE_CALLS
                        or dotted in pydata.TENSOR_LOADS
                        or dotted in LITERAL_ACTS
                    )
                    and id(node) in self.called
                )
            ):
                self.quiet = False  # called or not: a call is judged in `_call`
        elif owner.kind not in ("path", "file") and not self._called_quiet(node):
            self.quiet = False

    def _called_quiet(self, node: ast.Attribute) -> bool:
        """A quiet method of plain data (``json.load(f).get("x")``, ``"-".join(...)``), or
        an attribute of data that is data (``df.T``, ``a.shape``, a column ``df.y``:
        called, `_call` judges it)."""
        attr = node.attr
        called = id(node) in self.called
        written = attr in pydata.WRITE_METHODS and called  # (`_call` judges)
        column = not called and column_like(attr)  # `df.y`: data, never a method handed on
        return (attr in QUIET_METHODS or attr in DATA_ATTRIBUTES or written or column) and is_data(
            self.value(node.value)
        )

    def _call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute):
            owner = self.value(func.value)
            if owner.kind == "path":
                self._path_call(owner.text, func.attr, node)
                return
            if owner.kind == "file":
                if func.attr not in QUIET_METHODS:
                    self.quiet = False
                return
            named = owner.kind in ("module", "function") or owner.text in READER_OBJECTS
            if not named or owner.text in QUIET_ATTRIBUTES:  # (`cp.read(p)`: named by cp's kind)
                if func.attr == "execute" and not read_only_sql(self.text(node, 0, "sql")):
                    self.quiet = False  # `c.execute("drop table x")`: not a read
                elif func.attr in pydata.WRITE_METHODS and is_data(owner):
                    self._data_write(node, pydata.WRITE_METHODS[func.attr])
                elif not quiet_method(func.attr, node) or not is_data(owner):
                    self.quiet = False
                return
        callee = self.value(func)
        if callee.kind == "result" and callee.text in pydata.HUB_RESULTS:
            return  # `tok("some text")`: a tokenizer computes on its arguments
        if callee.kind != "function" or callee.text is None:
            self.quiet = False
            return
        name = canonical(callee.text)
        if name in DYNAMIC or name.split(".")[0] in DYNAMIC:
            self.quiet = False
            if name in syn.RUNS_TEXT:
                self._nested(node)
            return
        if name in PRINTS:  # a read printed is shown, as `cat` shows it
            self.acts.extend(shown_acts(node, self.value))
        act = ACTS.get(name)
        if act is not None:
            if not literal_act(node, name, self.texts(node), len(self.acts)):
                self.quiet = False
            act(self, node)
        elif name in FILE_CALLS:  # `dotenv_values()`: a read of `.env`; uploads
            self.quiet = False
            self.acts.extend(file_acts(name, node, self.value))
        elif name in ("open", "io.open"):
            self._open(node)
        elif name in READ_CALLS:
            if any(k.arg in LOADS_CODE for k in node.keywords):
                self.quiet = False  # `np.load(p, allow_pickle=True)`: a pickle runs code
            path = self.text(node, 0, "filepath_or_buffer")
            if path is not None and "://" in path:
                self.quiet = False
                self.add(CodeAct("network", path))
            else:
                self._file(path, "r")
        elif name in SQL_CALLS:  # `duckdb.sql("SELECT .. FROM 'x.parquet'")`: its files
            files = code_sql_files(self.text(node, 0, "query"))
            if files is None:
                self.quiet = False
            for path in files.reads if files else ():
                self._file(path, "r")
            for path in files.writes if files else ():
                self._file(path, "w")
        elif name in pydata.WRITE_CALLS:
            self._data_write(node, pydata.WRITE_CALLS[name])
        elif name in pydata.HUB_LOADS:
            self._hub_load(node, pydata.HUB_LOADS[name])
        elif name in pydata.HUB_DOWNLOADS:  # `snapshot_download("org/m", local_dir="m")`
            quiet, folder = pydata.hub_download(node, pydata.HUB_DOWNLOADS[name], self.text)
            self.quiet = self.quiet and quiet and (folder is None or plain_written_path(folder))
            if folder is not None:  # judged as a write of the folder (`tee -- models/m`)
                self.add(CodeAct("write", folder))
        elif name in pydata.TENSOR_LOADS:
            self._tensor_load(node, pydata.TENSOR_LOADS[name])
        elif name in NETWORK or name.split(".")[0] in ("requests", "httpx", "socket"):
            self.quiet = False
            self.add(CodeAct("network", syn.url([self.value(a) for a in node.args[:1]])))
        elif name not in QUIET_CALLS:
            self.quiet = False

    def _data_write(self, node: ast.Call, keyword: str) -> None:
        """``df.to_csv(path)``, ``fig.savefig(path)``: a write of a path named in full,
        judged as any write of it (`codepieces`: ``tee -- path``), keeps the code quiet.
        Given no file, pandas returns the text (``df.to_csv()``); an address (``s3://``),
        a pattern, a path the reader cannot name or a keyword that reaches elsewhere
        (``storage_options``) is loud."""
        if not node.args and all(k.arg != keyword for k in node.keywords):
            return
        path = self.text(node, 0, keyword)
        if path is not None and "://" in path:
            self.quiet = False
            self.add(CodeAct("network", path))
            return
        if not plain_written_path(path) or any(
            k.arg in LOADS_CODE or k.arg is None for k in node.keywords
        ):
            self.quiet = False
        self.add(CodeAct("write", path))

    def _hub_load(self, node: ast.Call, keywords: frozenset[str]) -> None:
        """``load_dataset("imdb")``, ``AutoTokenizer.from_pretrained("bert-base-uncased")``:
        a download by a literal hub name into the library's cache; anything else (a path, a
        computed name, ``trust_remote_code``) is loud."""
        named = pydata.hub_name(self.text(node))
        if not named or any(k.arg not in keywords for k in node.keywords):
            self.quiet = False

    def _tensor_load(self, node: ast.Call, keywords: frozenset[str]) -> None:
        """``torch.load(p, map_location="cpu", weights_only=True)``: a read of ``p`` by the
        restricted unpickler (`pydata.TENSOR_LOADS`); anything else is a pickle, loud."""
        restricted = False
        for keyword in node.keywords:
            literal = isinstance(keyword.value, ast.Constant)
            if keyword.arg == "weights_only" and literal:
                restricted = keyword.value.value is True  # type: ignore[attr-defined]
            elif keyword.arg not in keywords or not literal:
                self.quiet = False  # (a `map_location` function, `pickle_module`, `**kw`)
        if not restricted or len(node.args) != 1:
            self.quiet = False
        self._file(self.text(node, 0), "r")

    def _nested(self, node: ast.Call) -> None:
        """``exec("import os; os.system(..)")``: the literal code it runs, read too (it is
        shorter than the code around it, so reading ends); code only known when it runs is
        an ``eval`` act."""
        text = self.text(node)
        if text is None:  # computed (`exec(urlopen(URL).read())`): with a network call, the
            self.add(CodeAct("eval", None, source="python"))  # code fetched (`codepieces`)
            return
        inner = read_python(text)
        for act in inner.acts:
            self.add(act)
        self.chdir = self.chdir or inner.chdir

    def text(self, node: ast.Call, index: int = 0, keyword: str = "") -> str | None:
        """Argument ``index`` (or keyword ``keyword``) as literal text, or None."""
        value = syn.argument(node, index, keyword)
        return None if value is None else self._known(value)

    def texts(self, node: ast.Call, index: int = 0, keyword: str = "") -> list[str | None]:
        """`text`, or each element's of a literal list a loop walks (``for d in [..]``)."""
        value = syn.argument(node, index, keyword)
        each = self.each.get(value.id) if isinstance(value, ast.Name) else None
        return list(dict.fromkeys(map(self._known, tuple(each) if each else (value,))))

    def _known(self, node: ast.expr | None) -> str | None:
        found = self.value(node) if node is not None else None
        return found.text if found is not None and found.kind in ("str", "path") else None

    def add(self, act: CodeAct) -> None:
        if len(self.acts) < MAX_ACTS:
            self.acts.append(act)

    def _open(self, node: ast.Call) -> None:
        mode = self.text(node, 1, "mode") if len(node.args) > 1 or node.keywords else "r"
        path = self.text(node, 0, "file")
        self._file(path, mode)

    def _file(self, path: str | None, mode: str | None) -> None:
        if mode is None or any(c in mode for c in "wax+"):
            self.quiet = False  # (a handle any text is written through: a script, a config)
            self.add(CodeAct("append" if mode and "a" in mode else "write", path))
        else:
            if path is None or not narrow(path):
                self.quiet = False
            self.add(CodeAct("read", path))

    def _path_call(self, path: str | None, method: str, node: ast.Call) -> None:
        if method == "open":
            mode = self.text(node, 0, "mode") if node.args or node.keywords else "r"
            self._file(path, mode)
            return
        if method in ("read_text", "read_bytes"):
            if path is not None and not narrow(path):
                self.quiet = False
            self.add(CodeAct("read", path))
            return
        does = syn.PATH_METHODS.get(method)
        if does is not None:
            self.quiet = False
            self.add(CodeAct(does, path))
        elif method in ("rename", "replace", "symlink_to", "hardlink_to"):
            self.quiet = False
            other = self.text(node, 0, "target")
            moved = CodeAct("move", other, path) if method in ("rename", "replace") else None
            self.add(moved or CodeAct("link", path, other))
        elif method not in QUIET_METHODS:
            self.quiet = False
