"""Folders that hold keys: deleting ``ios/certs`` or ``android/keystores`` deletes the
signing keys in them, which are asked by name (`losses`: ``secret-overwrite``) when
deleted one by one.

A folder's name says nothing of what it holds, so the guard looks, when the folder is
there to look at: a few levels down and a few hundred entries at most, without entering
dependency or build folders (a test fixture's ``.pem`` deep in ``node_modules`` is not
the person's). Not there (a corpus run, a path known only at run time): nothing is found,
and git's facts decide as for any folder.
"""

from __future__ import annotations

import os

from amplifier_hooks.guard.secrets import secret_kind

__all__ = ["holds_key"]

_DEPTH = 2
"""How many levels below the folder are looked at (``android/app/upload.jks``)."""
_ENTRIES = 256
"""How many entries are read at most: a look, not a search."""
_NOT_ENTERED = frozenset({"node_modules", ".git", "build", "Pods", ".gradle", "vendor",
                          ".venv", "venv", "DerivedData", "target", "__pycache__"})  # fmt: skip
"""Dependency and build folders: their keys are fixtures or outputs, not the person's."""


def holds_key(folder: str) -> bool:
    """Whether ``folder`` (an existing directory) holds a private key or keystore by its
    name within `_DEPTH` levels and `_ENTRIES` entries (False when it cannot be read)."""
    if os.path.basename(folder.rstrip("/")) in _NOT_ENTERED:
        return False  # `rm -rf node_modules`: not the person's keys either
    seen = 0
    stack = [(folder, 0)]
    while stack:
        here, depth = stack.pop()
        try:
            with os.scandir(here) as entries:
                for entry in entries:
                    seen += 1
                    if seen > _ENTRIES:
                        return False
                    if entry.is_dir(follow_symlinks=False):
                        if depth < _DEPTH and entry.name not in _NOT_ENTERED:
                            stack.append((entry.path, depth + 1))
                    elif secret_kind(entry.name) == "key":
                        return True
        except OSError:
            return False
    return False
