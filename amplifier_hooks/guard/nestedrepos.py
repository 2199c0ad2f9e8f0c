"""Repositories inside folders git ignores: ``vendor/lib`` cloned to hack on, a package an
editable install checked out (``.venv/src/pkg``). git reports the ignored folder as one
entry and never looks inside, so its name (``vendor``, ``.venv``: made again by an
install) would grant deleting it, and the nested repository's changes and commits with it.

Looked for on disk, two folders deep at most and within a budget of folder entries read
(a large ``node_modules`` is not walked whole: past the budget, what is left unread may
hold one, so git's facts for the call are none and its delete is not granted:
`repo._nested`). A folder that is a repository itself counts too.
"""

from __future__ import annotations

import os

__all__ = ["BUDGET", "DEPTH", "Budget", "nested_repository"]

DEPTH = 2
"""Folders below the ignored one looked into (``.venv/src/pkg/.git``: 2)."""
BUDGET = 4096
"""Folder entries read at most, for one call's ignored folders together."""


class Budget:
    """What is left of `BUDGET` for one call."""

    __slots__ = ("left",)

    def __init__(self, left: int = BUDGET) -> None:
        self.left = left


def nested_repository(folder: str, budget: Budget) -> str | None:
    """The first folder at or below ``folder`` (``DEPTH`` deep) holding a ``.git``, or
    None (none found, or the budget ran out first: ``budget.left`` is then below zero).
    Symlinks are not followed: a delete does not follow them either."""
    if os.path.lexists(os.path.join(folder, ".git")):
        return folder
    level = [folder]
    for _ in range(DEPTH):
        below: list[str] = []
        for current in level:
            try:
                with os.scandir(current) as entries:
                    for entry in entries:
                        budget.left -= 1
                        if budget.left < 0:
                            return None
                        if entry.is_dir(follow_symlinks=False):
                            if os.path.lexists(os.path.join(entry.path, ".git")):
                                return entry.path
                            below.append(entry.path)
            except OSError:
                continue  # unreadable: a delete of it fails there too
        level = below
    return None
