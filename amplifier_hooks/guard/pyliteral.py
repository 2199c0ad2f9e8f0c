"""Inline Python calls whose whole effect is one file act on a literal path, judged as
the shell command doing it (`codepieces`), so the code stays quiet (`pyreader`).

``shutil.rmtree("build", ignore_errors=True)`` is ``rm -rf -- build``, for a tree that is
the project's own output by its name (`ignored_kind`: ``build``, ``dist``,
``.pytest_cache``), relative and not above the working folder; a source tree deleted
(``rmtree("src")``: work lost) stays asked. ``os.makedirs("out", exist_ok=True)`` is
``mkdir -p -- out``. A computed path, a pattern, an address, a keyword given a value the
text does not show (an ``onerror`` function) or the function handed on under another name
stays loud, as every other call with an effect does (a command run, ``os.system("ls")``,
keeps the code asked: `codecalls`).
"""

from __future__ import annotations

import ast

from amplifier_hooks.guard.codeacts import MAX_ACTS, plain_written_path
from amplifier_hooks.guard.ignorednames import ignored_kind

__all__ = ["LITERAL_ACTS", "literal_act"]

LITERAL_ACTS = frozenset({"shutil.rmtree", "os.makedirs", "os.mkdir"})
"""Every call `literal_act` may find literal."""
_KEYWORDS = {
    "shutil.rmtree": frozenset({"ignore_errors"}),
    "os.makedirs": frozenset({"exist_ok", "mode"}),
    "os.mkdir": frozenset({"mode"}),
}
"""The keywords that change nothing of where the act lands (``dir_fd=3`` makes the path
relative to another folder, one the shell may have opened: ``3< ~``)."""


def literal_act(node: ast.Call, name: str, texts: list[str | None], acts: int) -> bool:
    """Whether the call ``name`` (``texts``: its first argument's literal values) is one
    literal act (see the module); ``acts``: how many the reader has kept (a full list
    keeps no more: loud)."""
    if name not in LITERAL_ACTS or acts >= MAX_ACTS or len(node.args) != 1:
        return False
    path = texts[0] if len(texts) == 1 else None
    if path is None or not plain_written_path(path):
        return False
    if name == "shutil.rmtree" and (
        path.startswith(("/", "~")) or ".." in path.split("/")
        or ignored_kind(path) != "regenerable"
    ):  # fmt: skip
        return False
    known = _KEYWORDS[name]
    return all(k.arg in known and isinstance(k.value, ast.Constant) for k in node.keywords)
