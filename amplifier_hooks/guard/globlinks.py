"""Symbolic links a pattern or a link-following walk reaches, before a grant.

A path named in full is resolved on disk, links and all (``cat key-link`` is judged as a
read of what it points at). A pattern is not: ``cat *`` is placed in the folder it names,
and a link there (``notes -> ../../.ssh/id_rsa``, cloned with the project or made by an
earlier call) reads a file outside the workspace under the workspace's grant; ``chmod 600
*`` and ``truncate -s 0 *`` change what the link points at. So before a pattern is
granted, its folder is listed (one folder: a pattern in a folder name is never granted)
and each link the pattern may match is resolved; one that leads out of the workspace, or
a folder too large to list, keeps the grant back (the rules have judged the pattern as
written: no question is added).

``grep -R`` and ``rg -L``/``--follow`` follow every link below the folders they search,
which the guard does not walk: never granted.
"""

from __future__ import annotations

import os
import re
from fnmatch import fnmatchcase

from amplifier_hooks.guard.model import Piece

__all__ = ["MAX_LISTED", "follows_links", "link_out"]

MAX_LISTED = 1024
"""Folder entries read at most for one pattern (a larger folder: the grant is kept back)."""

_GREPS = frozenset({"grep", "egrep", "fgrep", "zgrep"})
_GREP_FOLLOWS = re.compile(r"-[A-Za-z]*R[A-Za-z]*")
"""``-R``, alone or among others (``-nR``); ``--dereference-recursive`` is told by name."""
_RG_FOLLOWS = re.compile(r"-[A-Za-z]*L[A-Za-z]*|--follow")
_FOLLOWS = "it follows symbolic links below the folders it searches, out of the workspace too"


def link_out(path: str, workspace: str) -> str | None:
    """Why the pattern ``path`` (its last part a pattern, its folder none) is not granted:
    a link it may match leads out of ``workspace``, or its folder is too large to list;
    None when neither."""
    folder, _, pattern = path.rpartition("/")
    everything = "[" in pattern or "(" in pattern  # classes and extglob: taken as any name
    top = os.path.realpath(workspace)
    try:
        with os.scandir(folder or "/") as entries:
            for count, entry in enumerate(entries):
                if count >= MAX_LISTED:
                    return f"{path} names more files than the guard lists"
                if not entry.is_symlink():
                    continue
                if not everything and not fnmatchcase(entry.name, pattern):
                    continue
                target = os.path.realpath(entry.path)
                if target != top and not target.startswith(top.rstrip("/") + "/"):
                    return f"{entry.path} matches it and is a link out of the workspace"
    except OSError:
        return None  # no such folder: the pattern matches nothing there
    return None


def follows_links(piece: Piece) -> str | None:
    """Why a search that follows every link below its folders is not granted (None: it
    does not follow them)."""
    program = piece.program
    if program in _GREPS:
        pattern = _GREP_FOLLOWS
    elif program == "rg":
        pattern = _RG_FOLLOWS
    else:
        return None
    skip = False
    for arg in piece.args:
        if skip or arg == "--":
            if arg == "--":
                break
            skip = False
            continue
        if arg in ("-e", "-f", "--regexp", "--file"):
            skip = True  # the pattern or its file: a value, never an option
            continue
        if not arg.startswith("-") or arg.startswith(("-e", "-f")):
            continue
        name = arg.partition("=")[0]
        if pattern.fullmatch(name) or (
            program != "rg" and len(name) > 4 and "--dereference-recursive".startswith(name)
        ):  # (`--der`: any prefix grep takes)
            return _FOLLOWS
    return None
