"""What a `globs.Sieve` can tell of a form from its folder alone, worked out once a folder.

A sieve's quick "no" asks each form whether it is one of its literal paths, starts with
one of its prefixes (``~/.ssh/id_``, ``/etc/``) or holds one of its folders
(``/.git/hooks/``), and whether its last name meets a name glob. Every such folder ends
with a ``/``, so it lies in the form's folder part (up to its last ``/``); a prefix either
ends there too or goes on into the last name; a literal path is its folder and a name. So
all but the name is a pure function of the folder, and the folders recur (``tests/``, the
workspace) where the names are new (``test_7.py``): each folder's `View` is kept, and a
form costs one look-up and the tests on its name. (`bench_guard`'s fresh row: three forms
a path, each lowered and tested piece by piece, were about a tenth of its instructions.)
Lowering a form is lowering its folder and its name apart: the ``/`` between them ends
the one context ``str.lower`` reads (a final sigma).
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["FOLDERS_KEPT", "FolderViews", "View"]

FOLDERS_KEPT = 256
"""Folders whose `View` a sieve keeps (all forgotten when full)."""


class View(NamedTuple):
    """What a sieve's literal paths, prefixes and folders say of the forms in one folder
    (its text up to and with its last ``/``, in lower case)."""

    holds: bool
    """A prefix ends in the folder, or one of the sieve's folders is in it: every form
    there may match."""
    names: frozenset[str]
    """The last names that make a form there one of the literal paths."""
    heads: tuple[str, ...]
    """What a last name there starts with to make a form start with a longer prefix."""


class FolderViews:
    """The `View` of each folder a sieve meets, from its literal paths (``exact``), its
    prefixes and its infixes (``/DIR/``), all in lower case."""

    __slots__ = ("_exact", "_infixes", "_prefixes", "_views")

    def __init__(self, exact: frozenset[str], prefixes: tuple[str, ...],
                 infixes: tuple[str, ...]) -> None:  # fmt: skip
        self._exact = exact
        self._prefixes = prefixes
        self._infixes = infixes
        self._views: dict[str, View] = {}

    def view(self, folder: str) -> View:
        """The `View` of ``folder`` (a form's text up to and with its last ``/``, or "")."""
        found = self._views.get(folder)
        if found is None:
            if len(self._views) >= FOLDERS_KEPT:
                self._views.clear()
            found = self._views[folder] = self._view(folder.lower())
        return found

    def _view(self, low: str) -> View:
        size = len(low)
        slashed = "/" + low  # (an infix may start at the form's start)
        holds = any(low.startswith(p) for p in self._prefixes) or any(
            i in slashed for i in self._infixes
        )
        names = frozenset(e[size:] for e in self._exact if e.startswith(low))
        heads = tuple(p[size:] for p in self._prefixes if len(p) > size and p.startswith(low))
        return View(holds, names, heads)
