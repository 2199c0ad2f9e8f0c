"""What inline code does, in words the guard judges: the records every code reader
(`pyreader`, `jsreader`, `perlreader`, `rubyreader`, `phpreader`) returns and
`codepieces` turns into the commands that do the same.

One vocabulary for every language, so that one set of rules judges a path whatever
language touches it: a reader says *what* a call does (`CodeAct`) and whether the whole
program is *quiet* (`CodeReading`); it never decides.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["MAX_ACTS", "MAX_CODE", "NOT_READ", "ActsFound", "CodeAct", "CodeReading",
           "plain_written_path"]  # fmt: skip

MAX_CODE = 65536
"""Inline code longer than this is not read (it stays asked): reading is bounded."""
MAX_ACTS = 32


class CodeAct(NamedTuple):
    """One thing inline code does: ``does`` is ``run`` (``target``: a shell command line),
    ``read`` (``show``: read and printed; ``load-env``: read into the environment, as
    dotenv does; ``show-env``: the whole environment printed), ``write``, ``append``, ``delete``,
    ``delete-tree``, ``rmdir``, ``mkdir``,
    ``chmod`` (``mode`` the mode), ``copy`` or ``move`` (``source`` → ``target``), ``link``,
    ``network`` (``target``: a URL or host), ``env`` (``target``: the variable read; None:
    the whole environment) or ``eval`` (code the program computes, run by ``source``, its
    interpreter: with a network call, the code fetched). ``target`` None: known only at
    run time."""

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


_WILD = frozenset("*?[{")


def plain_written_path(path: str | None) -> bool:
    """A path a write names in full: known, no pattern (``open('*.txt', 'w')`` makes a
    file so named), no address (``s3://``: another machine's file)."""
    return bool(path) and "://" not in (path or "") and _WILD.isdisjoint(path or "")


NOT_READ = CodeReading(parsed=False, quiet=False)
"""Code that did not parse, or was too long or too deep to read: it stays asked."""


class ActsFound:
    """What one walk over a parsed tree has found so far, for a language reader to build
    on: its acts (each once, at most `MAX_ACTS`), whether the code is still quiet (only
    reads of literal paths), and whether it changes its folder."""

    __slots__ = ("acts", "chdir", "nested", "quiet")

    def __init__(self, nested: int) -> None:
        self.nested = nested
        """How deep this code sits in code that hands it on (``eval``): bounded."""
        self.acts: list[CodeAct] = []
        self.quiet = True
        self.chdir = False
        """The code changes its folder: its relative paths are not where they seem."""

    def _add(self, act: CodeAct) -> None:
        if act.does not in ("read", "show") or act.target is None:
            self.quiet = False
        if len(self.acts) < MAX_ACTS and act not in self.acts:
            self.acts.append(act)

    def found(self) -> CodeReading:
        return CodeReading(True, self.quiet, tuple(self.acts), self.chdir)
