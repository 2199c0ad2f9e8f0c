"""What patches and git's path commands change: the files a patch names (``patch``, ``git
apply``: read from the patch file, under each strip level it could mean), and what ``git
rm``/``mv``/``clean``/``checkout``/``restore``/``am``/``stash``/``reset`` and git's
``--output`` and ``config -f`` write.
"""

from __future__ import annotations

import os

from amplifier_hooks.guard.changedpaths import (
    NOTHING,
    Changed,
    into_folder,
    is_folder,
    last_of,
    operand_words,
    table_read,
)
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.patchfiles import patched_files, patched_names
from amplifier_hooks.guard.paths import locate
from amplifier_hooks.guard.table import Read, git_read
from amplifier_hooks.guard.table.archives import patch_folder

__all__ = ["git_changes", "patch_changes"]


def _holds_own(raw: str, piece: Piece, places: Places) -> bool:
    """Whether ``raw`` is a folder holding a host's settings (``.claude/``): git checking
    it out or restoring it replaces the files below it, those settings among them."""
    return "agent_folder" in locate(raw, piece.cwd, places).where


def patch_changes(piece: Piece, places: Places) -> Changed:
    """``patch`` and ``git apply``: the files the patch names (read from it, at most
    `patchfiles.MAX_PATCH_BYTES`), under each strip level it could mean, or the file given."""
    git = piece.program == "git"
    read = git_read(piece.args).read if git else table_read("patch", piece.args)
    if read is None:
        return NOTHING
    operands = list(operand_words(read.operands))
    if git:
        files, given = operands, []
    else:
        given_input = last_of(read.values("read"))  # -i, --input
        files = [given_input] if given_input else (operands[1:2] or list(piece.reads[:1]))
        given = operands[:1]
    folder = patch_folder(read) if not git else last_of(read.values("into"), "") or ""
    strip = last_of(read.values("strip"))
    levels = {int(strip)} if strip and strip.isdigit() else ({1} if git else {0, 1})
    found: list[str] = [*given, *read.values("write")]
    named = [n for f in files for n in patched_files(locate(f, piece.cwd, places).path)]
    if not files and piece.fed is not None:  # `git apply <<EOF`: the heredoc is the patch
        named = patched_names(piece.fed)
    if folder and not named:  # `patch -d DIR < p`: files the guard cannot see, below DIR
        return Changed(content=tuple(dict.fromkeys(found)), whole=(folder,))
    if git and not named:  # `git apply --include='.claude/*' p`: what the patterns keep
        included = tuple(k for k in map(_fixed_folder, read.values("include")) if k)
        if included:
            return Changed(content=tuple(dict.fromkeys(found)), whole=included)
    for named_path in named:
        parts = named_path.split("/")
        for level in levels:
            kept = "/".join(parts[level:])
            if kept:
                found.append(os.path.join(folder, kept) if folder else kept)
        if not git and strip is None:
            found.append(os.path.join(folder, parts[-1]) if folder else parts[-1])
    return Changed(content=tuple(dict.fromkeys(found)))


def _fixed_folder(pattern: str) -> str:
    """The folder a path pattern cannot leave: its words before the first wildcard."""
    cut = min((i for i, c in enumerate(pattern) if c in "*?["), default=len(pattern))
    return pattern[:cut].rpartition("/")[0] if cut < len(pattern) else pattern


def _stashed(words: tuple[str, ...], read: Read) -> Changed | None:
    """``git stash [push|save]`` with pathspecs or ``-u``/``-a``: each file under them goes
    back to HEAD, untracked ones leave the worktree (None: another subcommand)."""
    given = bool(words) and not words[0].startswith("-")
    if given and words[0] not in ("push", "save"):
        return None
    paths = operand_words(read.operands[1:] if given else read.operands)
    if paths or read.has("untracked"):
        return Changed(whole=paths or (".",))
    return NOTHING


def git_changes(piece: Piece, places: Places) -> Changed:
    found = git_read(piece.args)
    sub, read = found.subcommand, found.read
    rest = operand_words(found.rest if read is None else read.operands)
    if sub == "clean" and read is not None and read.has("dry"):
        return NOTHING  # `git clean -n`: lists what it would delete
    if sub in ("rm", "mv", "clean"):
        if sub == "mv" and len(rest) >= 2:
            folder = len(rest) > 2 or is_folder(rest[-1], piece, places)
            moved = [into_folder(rest[-1], s) if folder else rest[-1] for s in rest[:-1]]
            return Changed(whole=(*rest[:-1], *moved))
        return Changed(whole=tuple(rest) or (".",) if sub == "clean" else tuple(rest))
    if sub == "apply":
        return patch_changes(piece, places)
    if sub in ("checkout", "restore", "am", "stash", "reset"):
        if (
            sub == "restore"
            and read is not None
            and read.has("staged")
            and not read.has("worktree")
        ):
            return NOTHING  # `git restore --staged F` changes only the index
        stashed = _stashed(found.rest, read) if sub == "stash" and read is not None else None
        if stashed is not None:
            return stashed
        named = tuple(r for r in rest if not r.startswith(("HEAD", "@", "origin")))
        into = read.values("into") if sub == "am" and read is not None else ()
        held = tuple(
            n for n in named if sub in ("checkout", "restore") and _holds_own(n, piece, places)
        )
        return Changed(content=named, whole=(*into[-1:], *held))  # `git am --directory=DIR`
    if read is not None:  # `git config -f F`, `git diff --output=F`
        written = read.values("read") if sub == "config" else read.values("write")
        return Changed(content=written) if written else NOTHING
    return NOTHING
