"""Repositories inside folders git ignores: ``vendor/lib`` cloned to hack on, a package an
editable install checked out (``.venv/src/pkg``). git reports the ignored folder as one
entry and never looks inside, so its name (``vendor``, ``.venv``: made again by an
install) would grant deleting it, and the nested repository's changes and commits with it.

Looked for on disk, two folders deep at most and within a budget of folder entries read
(past the budget, what is left unread may hold one, so git's facts for the call are none
and its delete is not granted: `repo._nested`). A folder that is a repository itself
counts too.

A ``node_modules`` (tens of thousands of entries) is looked through where a person puts a
repository of their own: a clone into ``node_modules/<pkg>`` or ``@scope/<pkg>`` (a
``.git`` folder, or a file: a worktree, a submodule). Below those, only package managers
write, and none keeps a ``.git``: npm, pnpm and yarn install a package from its tarball,
and ``npm publish``/``pack`` always leave ``.git`` out of one; a git dependency is cloned
elsewhere and packed (npm's pacote, yarn's git fetcher) or its ``.git`` removed (pnpm's)
before it is installed; a ``link:``/``file:`` one is a symlink, which a delete does not
follow. So a package's own folders are not read (`_packages`).
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
    if os.path.basename(folder.rstrip("/")) == "node_modules":
        return _packages(folder, budget)
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


def _packages(folder: str, budget: Budget) -> str | None:
    """The first package folder of the ``node_modules`` ``folder`` (``pkg``,
    ``@scope/pkg``) holding a ``.git``, or None (as `nested_repository`)."""
    level = [folder]
    while level:
        scopes: list[str] = []
        for current in level:
            try:
                found = _package_with_git(current, budget, scopes if current == folder else None)
            except OSError:
                continue  # unreadable: a delete of it fails there too
            if found is not None or budget.left < 0:
                return found
        level = scopes
    return None


def _package_with_git(current: str, budget: Budget, scopes: list[str] | None) -> str | None:
    """The first folder in ``current`` holding a ``.git``; each ``@scope`` folder is added to
    ``scopes`` (when given). Looked up from ``current``'s own descriptor: one short lookup
    a package (a ``node_modules`` has thousands)."""
    descriptor = os.open(current, os.O_RDONLY | os.O_DIRECTORY)
    try:
        with os.scandir(current) as entries:
            for entry in entries:
                budget.left -= 1
                if budget.left < 0:
                    return None
                if not entry.is_dir(follow_symlinks=False):
                    continue
                if _has_git(entry.name, descriptor):
                    return entry.path
                if scopes is not None and entry.name.startswith("@"):
                    scopes.append(entry.path)
    finally:
        os.close(descriptor)
    return None


def _has_git(name: str, descriptor: int) -> bool:
    try:
        os.stat(name + "/.git", dir_fd=descriptor, follow_symlinks=False)
    except FileNotFoundError:
        return False
    except OSError:
        return True  # there but not readable (or not a folder: no lookup): cannot tell
    return True
