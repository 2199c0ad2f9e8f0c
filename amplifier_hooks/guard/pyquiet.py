"""Python that only computes on data (`pyreader`): which calls on a value change nothing,
and which values are plain data, so inline code that reads a table and prints a sum is
quiet (no ask, never a grant)."""

from __future__ import annotations

import ast

from amplifier_hooks.guard.pynames import QUIET_ATTRIBUTES, QUIET_CALLS, QUIET_METHODS
from amplifier_hooks.guard.pyvalues import Value

__all__ = ["LOADS_CODE", "is_data", "quiet_method"]

LOADS_CODE = frozenset({"allow_pickle", "engine", "storage_options", "filesystem", "uri"})
"""Keywords of a read call that may run code or reach elsewhere (a pickle, another
reader, a remote file system, a SQLite URI naming another file and mode)."""
_PATH_ONLY = frozenset({"read_text", "read_bytes"})
"""Quiet methods of a path that, called on data the reader cannot name (``sorted(paths)[0]``),
read a file it cannot judge."""


def quiet_method(method: str, node: ast.Call) -> bool:
    """A method that changes nothing, called on data: ``s.replace(old, new)`` is a
    string's (a path's ``replace(target)`` moves a file), no path's ``read_text``."""
    if method == "replace":
        return len(node.args) >= 2
    return method in QUIET_METHODS and method not in _PATH_ONLY


def is_data(value: Value) -> bool:
    """``value`` is plain data, whose quiet methods change nothing: a literal, a path, a
    file opened for reading, what a quiet call returns, a quiet module attribute."""
    if value.kind in ("str", "data", "path", "file"):
        return True
    if value.kind == "result":
        return value.text in QUIET_CALLS
    return value.kind == "function" and value.text in QUIET_ATTRIBUTES
