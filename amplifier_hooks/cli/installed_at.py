"""Where a bench corpus says the bundle in use lies: the guard's own files placed there.

A corpus describes a machine of its own (``/home/dev/project``), and its writer may know
where the person keeps the bundle their hooks load (``defaults: {bundle: PATH}``: they run
this project's checkout, so the bundle is ``/home/dev/project/bundles/default.md``). The
bench loads the bundle it was given; the guard must then protect that bundle's files as
they lie on the corpus's machine: the bundle file at PATH, every file it includes and every
module folder it loads from a local ``source:``, each where it lies relative to PATH as it
does relative to the bundle loaded. Those places are handed to the guard as
`GUARD_FILES_CAPABILITY`, which only adds to what it protects (never takes away).
"""

from __future__ import annotations

import os
from pathlib import Path

from amplifier_hooks.bundles import Bundle

__all__ = ["GUARD_FILES_CAPABILITY", "placed_at"]

GUARD_FILES_CAPABILITY = "guard.own_files"
"""Paths the guard counts among its own files (the bundle in use and what it loads)
besides those of the bundle session: denied outside the workspace, asked inside it."""


def placed_at(bundle: Bundle, at: str) -> tuple[str, ...]:
    """``bundle``'s files and local module folders, moved from its own folder to ``at``'s
    (an absolute path naming the bundle file as installed)."""
    if bundle.path is None:
        return (at,)
    here = bundle.path.resolve().parent
    there = Path(at).parent
    found = [at]
    local = [Path(e.source) for e in bundle.hooks if e.source and os.path.isabs(e.source)]
    for path in (*bundle.files, *local):
        moved = os.path.normpath(there / os.path.relpath(Path(path).resolve(), here))
        if moved.startswith("/") and moved not in found:
            found.append(moved)
    return tuple(found)
