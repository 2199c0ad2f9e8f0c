"""A Procfile's process lines: commands a platform (Heroku, Dokku, a buildpack) runs later.

Each line is ``name: command``; ``web:`` and ``worker:`` start on every deploy, and
``release:`` runs once per deploy, against the production database, before the new code
serves. Nobody is shown those commands then, so writing them is judged by what they do
(`planted`), as a Makefile's recipes are.
"""

from __future__ import annotations

import re

__all__ = ["procfile_commands"]

_LINE = re.compile(r"^[ \t]*([A-Za-z0-9_-]+)[ \t]*:[ \t]*(.+?)[ \t]*$", re.MULTILINE)
"""A process type and its command (an edit's lines have the same shape)."""
MAX_LINES = 64


def procfile_commands(text: str) -> list[str]:
    """The command of each process line in ``text`` (a comment is no such line)."""
    return [m.group(2) for m in _LINE.finditer(text)][:MAX_LINES]
