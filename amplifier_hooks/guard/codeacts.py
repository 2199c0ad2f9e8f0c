"""What inline code does, in words the guard judges: the records every code reader
(`pyreader` for Python, `jsreader` for JavaScript) returns and `codepieces` turns into the
commands that do the same.

One vocabulary for every language, so that one set of rules judges a path whatever
language touches it: a reader says *what* a call does (`CodeAct`) and whether the whole
program is *quiet* (`CodeReading`); it never decides.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["MAX_ACTS", "MAX_CODE", "NOT_READ", "CodeAct", "CodeReading"]

MAX_CODE = 65536
"""Inline code longer than this is not read (it stays asked): reading is bounded."""
MAX_ACTS = 32


class CodeAct(NamedTuple):
    """One thing inline code does: ``does`` is ``run`` (``target``: a shell command line),
    ``read``, ``write``, ``append``, ``delete``, ``delete-tree``, ``rmdir``, ``mkdir``,
    ``chmod`` (``mode`` the mode), ``copy`` or ``move`` (``source`` → ``target``), ``link``,
    ``network`` (``target``: a URL or host) or ``env`` (``target``: the variable read; None:
    the whole environment). ``target`` None: known only at run time."""

    does: str
    target: str | None
    source: str | None = None
    mode: str | None = None


class CodeReading(NamedTuple):
    """What a reader found: whether the code parsed, whether it is quiet, its acts."""

    parsed: bool
    quiet: bool
    acts: tuple[CodeAct, ...] = ()
    chdir: bool = False
    """The code changes its directory: its relative paths are not where they seem."""


NOT_READ = CodeReading(parsed=False, quiet=False)
"""Code that did not parse, or was too long or too deep to read: it stays asked."""
