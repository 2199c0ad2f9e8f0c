"""Python text parsed once per decision, for every reader of it.

Python an edit adds to a ``.py`` file is parsed by `appsource` (what it runs hidden or
sends) and again by the Python reader (`pyreader`: what it does). ``ast.parse`` of an
18 KB module is 5 to 7 ms, a third of judging its write (``bench_guard``'s written-files
row with a module that names ``subprocess``: about 20 ms at 60d1924). Within a decision
(`memo`) a text is parsed once; outside one nothing is remembered. The tree is shared, so
its readers only read it (none changes a node). A text that does not parse raises the
same error at every parse.
"""

from __future__ import annotations

import ast

from amplifier_hooks.guard.memo import resolved

__all__ = ["parse_python"]

_TREE = "python-tree"
"""Tags this module's entries in the decision's memo (paths are remembered there too)."""
_FAILURES = (SyntaxError, ValueError, RecursionError)
"""What ``ast.parse`` raises for a text it cannot read (remembered, raised again)."""


class _Failed:
    """What a text that does not parse raised, so a second parse raises it too."""

    __slots__ = ("error",)

    def __init__(self, error: SyntaxError | ValueError | RecursionError) -> None:
        self.error = error


def parse_python(code: str) -> ast.Module:
    """``ast.parse(code)``, made once per decision; raises what it raises."""
    memo = resolved()
    if memo is None:
        return ast.parse(code)
    key = (_TREE, code)
    found = memo.get(key)
    if found is None:
        try:
            found = memo[key] = ast.parse(code)
        except _FAILURES as error:
            memo[key] = _Failed(error)
            raise
    if isinstance(found, _Failed):
        raise found.error.with_traceback(None)
    tree: ast.Module = found
    return tree
