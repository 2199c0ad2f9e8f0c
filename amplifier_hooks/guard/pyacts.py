"""The calls of inline Python whose effect is known (`ACTS`): what each does to the paths
or the command it is given, as `CodeAct`s (``shutil.rmtree(p)`` deletes the tree ``p``,
``os.system(s)`` runs ``s``). `pyreader` finds the calls; this table says what they do,
reading their arguments through the reader (`ActReader`)."""

from __future__ import annotations

import ast
import shlex
from collections.abc import Callable
from typing import Protocol

from amplifier_hooks.guard import pysyntax as syn
from amplifier_hooks.guard.codeacts import CodeAct
from amplifier_hooks.guard.pyvalues import Value

__all__ = ["ACTS", "ActFn", "ActReader"]


class ActReader(Protocol):
    """What an act needs of the reader: the arguments' values and a place for the acts."""

    chdir: bool

    def value(self, node: ast.expr) -> Value: ...

    def text(self, node: ast.Call, index: int = 0, keyword: str = "") -> str | None: ...

    def texts(self, node: ast.Call, index: int = 0, keyword: str = "") -> list[str | None]: ...

    def add(self, act: CodeAct) -> None: ...


ActFn = Callable[[ActReader, ast.Call], None]


def _command(reader: ActReader, node: ast.Call) -> None:
    """``os.system(s)``, ``subprocess.run(s or [words])``: the command it runs."""
    if not node.args:
        return reader.add(CodeAct("run", None))
    first = node.args[0]
    if isinstance(first, ast.List | ast.Tuple):
        words = [reader.value(e) for e in first.elts]
        if words and all(w.kind in ("str", "path") and w.text is not None for w in words):
            return reader.add(CodeAct("run", shlex.join(w.text or "" for w in words)))
        return reader.add(CodeAct("run", None))
    return reader.add(CodeAct("run", reader.text(node)))


def _exec(reader: ActReader, node: ast.Call) -> None:
    """``os.execvp(file, [words])``, ``os.spawnlp(mode, file, *words)``: a program."""
    words = [t for t in map(reader.value, node.args) if t.kind == "str"]
    reader.add(CodeAct("run", shlex.join(w.text or "" for w in words[1:]) if words else None))


def _one(does: str) -> ActFn:
    """An act on the call's first argument (on each, in a loop over a literal list)."""

    def act(reader: ActReader, node: ast.Call) -> None:
        for target in reader.texts(node):
            reader.add(CodeAct(does, target))

    return act


def _two(does: str) -> ActFn:
    """An act from the first argument to the second (``shutil.copy(src, dst)``)."""
    return lambda reader, node: reader.add(
        CodeAct(does, reader.text(node, 1, "dst"), reader.text(node, 0, "src"))
    )


def _chmod(reader: ActReader, node: ast.Call) -> None:
    mode = node.args[1] if len(node.args) > 1 else None
    value = mode.value if isinstance(mode, ast.Constant) else None
    text = oct(value)[2:] if isinstance(value, int) else None
    reader.add(CodeAct("chmod", reader.text(node), mode=text))


def _chdir(reader: ActReader, node: ast.Call) -> None:
    reader.chdir = True


ACTS: dict[str, ActFn] = {
    **{name: _command for name in syn.SHELL},
    **{name: _exec for name in syn.EXECS},
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
