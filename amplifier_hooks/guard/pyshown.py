"""The files inline Python reads or uploads through a library that names them itself, and
the files whose text it prints.

``dotenv_values()`` reads ``.env``; ``HfFolder.get_token()`` reads the Hugging Face
token: each is judged as the read it is (`SECRET_READERS`); ``wandb.save(p)`` and
``mlflow.log_artifact(p)`` send ``p`` to the tracker's server (`UPLOADS`). A read printed
(``print(open(".env").read())``, ``print(dotenv_values())``) shows the file's text
where the model reads it, as ``cat`` does: the act is ``show`` (`codepieces` marks the
piece `CODE_SHOWS`, and `secrets.shows_text` counts it as shown). A read the code keeps
to itself (``len(open(".env").read())``) is a read, not shown.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from amplifier_hooks.guard.codeacts import CodeAct
from amplifier_hooks.guard.pyvalues import Value

__all__ = ["FILE_CALLS", "PRINTS", "SECRET_READERS", "file_acts", "reader_path", "shown_acts",
           "shown_paths"]  # fmt: skip

_HF_TOKEN = "~/.cache/huggingface/token"
SECRET_READERS: dict[str, tuple[str, str]] = {
    # call: (the keyword naming the file, the file read when none is given)
    "dotenv.dotenv_values": ("dotenv_path", ".env"),
    "dotenv.main.dotenv_values": ("dotenv_path", ".env"),
    "dotenv.load_dotenv": ("dotenv_path", ".env"),
    "dotenv.main.load_dotenv": ("dotenv_path", ".env"),
    "huggingface_hub.HfFolder.get_token": ("", _HF_TOKEN),
    "huggingface_hub.get_token": ("", _HF_TOKEN),
    "huggingface_hub.utils.get_token": ("", _HF_TOKEN),
}
"""Library calls that read a file of secrets by a name they know."""
UPLOADS: dict[str, str] = {
    # call: the keyword naming the file (or folder) it uploads, its first argument
    "wandb.save": "glob_str",
    "mlflow.log_artifact": "local_path",
    "mlflow.log_artifacts": "local_dir",
    "mlflow.tracking.MlflowClient.log_artifact": "local_path",
}
"""Experiment trackers' calls that send a file to their server: a read of the file and
a network call (`codepieces` judges the file as sent: ``curl --data-binary @.env``)."""
FILE_CALLS = frozenset(SECRET_READERS) | frozenset(UPLOADS)
PRINTS = frozenset({"print", "pprint.pprint", "pprint.pp", "sys.stdout.write", "logging.info",
                    "logging.warning", "rich.print"})  # fmt: skip
"""Calls that show their arguments where the model reads them."""
_READ_METHODS = frozenset({"read", "readlines", "readline", "read_text", "read_bytes"})
_MAX_NODES = 256
_ENVIRON = Value("function", "os.environ")
_SUMMARIES = frozenset({"len", "bool", "hash", "sum", "min", "max", "any", "all", "type",
                        "hashlib.sha256", "hashlib.sha1", "hashlib.md5", "id"})  # fmt: skip
"""Calls whose value tells nothing of the text they are given (a length, a digest)."""

Evaluate = Callable[[ast.expr], Value]


def file_acts(name: str, node: ast.Call, value: Evaluate) -> list[CodeAct]:
    """What the library call ``name`` (one of `FILE_CALLS`) does: reads its file (into
    the environment: ``load_dotenv``), and for an upload sends it."""
    if name in SECRET_READERS:
        does = "load-env" if name.endswith("load_dotenv") else "read"
        return [CodeAct(does, reader_path(name, node, value))]
    given = next((k.value for k in node.keywords if k.arg == UPLOADS[name]), None)
    found = value(given or node.args[0]) if given or node.args else None
    path = found.text if found is not None and found.kind in ("str", "path") else None
    return [CodeAct("read", path), CodeAct("network", None)]


def reader_path(name: str, node: ast.Call, value: Evaluate) -> str | None:
    """The file the secret reader ``name`` reads (None: named at run time)."""
    keyword, default = SECRET_READERS[name]
    given: ast.expr | None = node.args[0] if node.args and keyword else None
    for kw in node.keywords:
        if kw.arg == keyword and keyword:
            given = kw.value
    if given is None:
        return default
    found = value(given)
    return found.text if found.kind in ("str", "path") else None


def shown_acts(node: ast.Call, value: Evaluate) -> list[CodeAct]:
    """What the printing call ``node`` shows: files (`shown_paths`), and the whole
    environment (``print(os.environ)``, ``print(dict(os.environ))``)."""
    acts = [CodeAct("show", path) for path in shown_paths(node, value)]
    args = [a.args[0] if isinstance(a, ast.Call) and len(a.args) == 1 else a for a in node.args]
    if any(value(a) == _ENVIRON for a in args):
        acts.append(CodeAct("show-env", None))
    return acts


def shown_paths(node: ast.Call, value: Evaluate) -> list[str]:
    """The files whose text the printing call ``node`` shows: a file's read in its
    arguments (``open(p).read()``, ``Path(p).read_text()``, ``f.read()`` of a file
    opened by name), a secret reader's call, or a name bound to one (its default file)."""
    found: list[str] = []
    todo: list[ast.AST] = [*node.args, *(k.value for k in node.keywords)]
    for _ in range(_MAX_NODES):
        if not todo:
            break
        inner = todo.pop()
        if isinstance(inner, ast.Compare) or _summary(inner, value):
            continue  # `len(open(".env").read())`, `"KEY" in ..`: a number, a test
        path = _shown(inner, value)
        if path is not None and path not in found:
            found.append(path)
        todo.extend(ast.iter_child_nodes(inner))
    return found


def _summary(node: ast.AST, value: Evaluate) -> bool:
    """A call that prints a summary of its argument, not its text (`_SUMMARIES`)."""
    if not isinstance(node, ast.Call):
        return False
    called = value(node.func)
    return called.kind == "function" and called.text in _SUMMARIES


def _shown(node: ast.AST, value: Evaluate) -> str | None:
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _READ_METHODS:
            owner = value(func.value)
            return owner.text if owner.kind in ("file", "path") else None
        called = value(node)
        if called.kind == "result" and called.text in SECRET_READERS:
            return reader_path(called.text, node, value)
    elif isinstance(node, ast.Name):
        bound = value(node)
        if bound.kind == "result" and bound.text in SECRET_READERS:
            return SECRET_READERS[bound.text][1]
    return None
