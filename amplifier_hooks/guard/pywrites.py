"""Inline Python statements that write literal text to a literal path, read whole.

``json.dump({'users': []}, open('tests/fixtures/empty.json', 'w'))`` and
``pathlib.Path('src/v.txt').write_text('1.4.1')`` do what ``tee -- PATH`` does with a
text the code spells out: the reader (`pyreader`) lists the write, which `codepieces`
turns into that command for the rules to judge (a write into ``.git/hooks`` is stopped
as the shell's would be). Only these shapes, of a data file's path relative to the
workspace (``.json``, ``.txt``, ``.md``, ``.csv``: no ``..``, not absolute, no ``~``, no
hidden folder, no file a tool runs later), are read so: an absolute path (``/tmp/x.sh``, a script
to run next), a path or text that is computed (``os.path.expanduser``, a name, an
f-string), any other keyword, or a text holding a credential by its shape keeps the code
asked. A bare ``open(P, 'w').write(T)`` stays asked as inline code (the shipped corpus
asks it: `inline-python-writes-file-asked`).
"""

from __future__ import annotations

import ast
import posixpath

from amplifier_hooks.guard.buildfiles import runs_later
from amplifier_hooks.guard.keyedsecrets import keyed_secrets
from amplifier_hooks.secret_shapes import credentials_in

__all__ = ["WRITE_NAMES", "literal_write"]

WRITE_NAMES = frozenset({"json", "pathlib", "open"})
"""The names these statements rely on: bound to anything else, the code stays asked."""
_MODES = frozenset({"w", "wt", "a", "at"})
_DUMP_KEYWORDS = frozenset({"indent", "sort_keys", "ensure_ascii"})
_TEXT_KEYWORDS = frozenset({"encoding"})
_DATA_SUFFIXES = frozenset({".json", ".txt", ".md", ".csv", ".tsv", ".log"})
"""The files read whole are data: their text is not kept (`codeacts`), so a file a tool
runs later (``Makefile``, ``package.json``: `buildfiles.runs_later`, whose text the
shell's write is judged by), code, or a hidden folder's settings stays asked."""


def literal_write(node: ast.expr) -> bool:
    """Whether ``node`` is a call that writes literal text (no credential in it) to a
    literal path, in one of the shapes above."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return False
    func, owner = node.func, node.func.value
    if isinstance(owner, ast.Name) and (owner.id, func.attr) == ("json", "dump"):
        return (
            len(node.args) == 2
            and _keywords_ok(node, _DUMP_KEYWORDS)
            and _plain_text(node.args[0])
            and _opened_for_write(node.args[1])
        )
    if func.attr == "write_text":
        return _one_text(node) and _literal_path(owner)
    return False


def _one_text(node: ast.Call) -> bool:
    return (
        len(node.args) == 1
        and _keywords_ok(node, _TEXT_KEYWORDS)
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
        and _plain_text(node.args[0])
    )


def _keywords_ok(node: ast.Call, allowed: frozenset[str]) -> bool:
    return all(k.arg in allowed and isinstance(k.value, ast.Constant) for k in node.keywords)


def _plain_text(node: ast.expr) -> bool:
    """A literal (``ast.literal_eval`` reads it) whose text holds no credential."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    text = repr(value)
    return not credentials_in(text) and not keyed_secrets(text)


def _literal_path(node: ast.expr) -> bool:
    """``pathlib.Path('a/b')``: a path spelled out."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and (node.func.value.id, node.func.attr) == ("pathlib", "Path")
        and len(node.args) == 1
        and not node.keywords
        and _string(node.args[0])
    )


def _opened_for_write(node: ast.expr) -> bool:
    """``open('a/b', 'w')``: a path spelled out, opened to write or append text."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "open"
        and len(node.args) == 2
        and _keywords_ok(node, _TEXT_KEYWORDS)
        and _string(node.args[0])
        and isinstance(node.args[1], ast.Constant)
        and node.args[1].value in _MODES
    )


def _string(node: ast.expr) -> bool:
    """A data file's path spelled out, relative to the workspace and inside it, in no
    hidden folder, that no tool runs later."""
    if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
        return False
    path = node.value
    parts = path.split("/")
    return (
        bool(path)
        and path[0] not in "/~"
        and not any(part.startswith(".") for part in parts)  # (also `..`)
        and posixpath.splitext(path)[1] in _DATA_SUFFIXES
        and runs_later(path) is None
    )
