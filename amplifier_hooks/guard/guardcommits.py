"""A commit found by a search for the guard's name, then undone: ``git log --format=%h
--grep="amplifier-hooks install" | head -1 | xargs git revert --no-edit``.

The commit that installed the guard into a project is the one whose message names it;
reverting it (or resetting, checking out or rebasing past it) takes the hooks out of the
host's settings as surely as editing them. The guard cannot see which commit the search
finds, but the search says what is looked for: a ``git revert``/``reset``/``checkout``/
``restore``/``rebase`` given a commit computed at run time, in a command that searches
git's history for the guard's name, is marked `UNDONE` (rule ``guard-commit-undone``).
The search alone, or an undo of a commit named in the command, is not.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece

__all__ = ["UNDONE", "mark_guard_commits"]

UNDONE = "@guard-commit-undone"
"""The mark of a git piece that undoes a commit a search for the guard's name found."""
SEARCHES = frozenset({"log", "rev-list", "shortlog", "whatchanged"})
"""The git subcommands whose search for the guard's name this mark reads."""
_SEARCH_OPTIONS = ("--grep", "-S", "-G", "--author", "--committer")
_GUARD = re.compile(r"amplifier[-_ ]?hooks|ah[-_]guard|amplifier_module_ah", re.I)
_UNDOES = frozenset({"revert", "reset", "checkout", "restore", "rebase", "switch"})


def mark_guard_commits(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each undo of a commit found by a search for the guard's name
    marked (the same tuple when there is none)."""
    if not any([p.program == "git" and p.args[:1] and p.args[0] in SEARCHES and _searches(p)
                for p in pieces]):  # fmt: skip
        return pieces
    return tuple(
        piece._replace(wrappers=(*piece.wrappers, UNDONE))
        if piece.program == "git" and piece.dynamic and piece.args[:1]
        and piece.args[0] in _UNDOES else piece
        for piece in pieces
    )  # fmt: skip


def _searches(piece: Piece) -> bool:
    """Whether the ``git log`` ``piece`` searches for the guard's name."""
    args = piece.args
    for index, arg in enumerate(args):
        if arg in _SEARCH_OPTIONS and index + 1 < len(args):
            value = args[index + 1]
        elif arg.startswith(_SEARCH_OPTIONS):
            value = arg.split("=", 1)[1] if "=" in arg else arg[2:]
        else:
            continue
        if _GUARD.search(value):
            return True
    return False
