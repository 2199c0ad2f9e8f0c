"""The tracked files whose changes ``git status`` does not show: those marked
assume-unchanged (``git update-index --assume-unchanged``) or skip-worktree
(``--skip-worktree``, sparse checkouts). People mark local settings so to keep their own
changes out of commits: git then reports the file as unchanged, and a delete or an
overwrite of it would be granted as if git could give it back (`losses`).

Read from git's index file itself, not by a second git run (one run per judged call,
`repo`): each asked path's entry is found by its name, and the entry's flags read from
the bytes just before it. An index this reader does not know (version 4's names are
compressed, or it cannot be read) answers that every asked path may be hidden.
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Iterable

from amplifier_hooks.guard.paths import GLOB_CHARS

__all__ = ["MAX_INDEX", "hidden_paths", "index_file"]

MAX_INDEX = 64 << 20
"""Bytes of index read at most (a larger one: every asked path may be hidden)."""
_ASSUME_VALID = 0x8000
_EXTENDED = 0x4000
_SKIP_WORKTREE = 0x4000
_NAME_MASK = 0x0FFF


def index_file(root: str) -> str | None:
    """The index of the repository or linked worktree whose top is ``root`` (its ``.git``
    is a folder, or a file naming the git folder: a worktree's, a submodule's)."""
    dot_git = os.path.join(root, ".git")
    if os.path.isdir(dot_git):
        return os.path.join(dot_git, "index")
    try:
        with open(dot_git, encoding="utf-8") as pointer:
            line = pointer.readline(4096).strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not line.startswith("gitdir:"):
        return None
    folder = line.removeprefix("gitdir:").strip()
    return os.path.join(os.path.join(root, folder), "index")


def hidden_paths(root: str, specs: Iterable[str]) -> tuple[str, ...] | None:
    """The index entries at or below each of ``specs`` (paths relative to ``root``; a glob
    stands for its folder) marked assume-unchanged or skip-worktree; None when the index
    cannot be read as this reader knows it (the guard cannot tell)."""
    path = index_file(root)
    if path is None:
        return None
    try:
        with open(path, "rb") as index:
            size = os.fstat(index.fileno()).st_size
            if size > MAX_INDEX:
                return None
            data = mmap.mmap(index.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
    except FileNotFoundError:
        return ()  # a repository with nothing added yet: no entry at all
    except (OSError, ValueError):
        return None
    try:
        if data[:4] != b"DIRC" or data[4:8] not in _VERSIONS:
            return None
        found: list[str] = []
        for spec in specs:
            prefix = _prefix(spec)
            if prefix is None:
                return None
            found += _flagged(data, prefix)
        return tuple(dict.fromkeys(found))
    finally:
        if isinstance(data, mmap.mmap):
            data.close()


_VERSIONS = (b"\x00\x00\x00\x02", b"\x00\x00\x00\x03")
Index = bytes | mmap.mmap


def _prefix(spec: str) -> bytes | None:
    """The name every entry ``spec`` reaches starts with ("": the whole tree)."""
    spec = spec.removeprefix("./")
    if not GLOB_CHARS.isdisjoint(spec):
        spec = spec[: min(spec.find(c) for c in GLOB_CHARS if c in spec)]
        spec = spec[: spec.rfind("/") + 1]
    spec = os.path.normpath(spec) if spec else ""
    if spec == ".":
        spec = ""
    if spec.startswith(".."):
        return None
    return spec.encode("utf-8", "surrogateescape")


def _flagged(data: Index, prefix: bytes) -> list[str]:
    """The names of flagged entries at or below ``prefix``: the entries are sorted by
    name, so those below it follow the first one (found by its name: the flags before it
    give the name's length), and a sparse folder above it is one entry."""
    if not prefix:
        return _walk(data, 12, b"")
    start = 12  # past the header
    below = prefix + b"/"
    while (at := data.find(prefix, start)) >= 0:
        start = at + 1
        end = data.find(b"\x00", at)
        if end < 0:
            return []
        name = data[at:end]
        if name != prefix and not name.startswith(below):
            if name.endswith(b"/") and prefix.startswith(name) and _is_name(data, at, name):
                return [name.decode("utf-8", "surrogateescape")] if _hidden(data, at) else []
            continue
        entry = _entry_at(data, at, len(name))
        if entry >= 0:
            return _walk(data, entry, prefix)
    return []


def _is_name(data: Index, at: int, name: bytes) -> bool:
    return _entry_at(data, at, len(name)) >= 0


def _entry_at(data: Index, at: int, length: int) -> int:
    """Where the entry whose name starts at ``at`` starts (-1: these bytes are not one)."""
    want = min(length, _NAME_MASK)
    for start in (at - 62, at - 64):
        if start >= 12:
            flags = (data[start + 60] << 8) | data[start + 61]
            extended = bool(flags & _EXTENDED)
            if flags & _NAME_MASK == want and extended == (start == at - 64):
                return start
    return -1


def _hidden(data: Index, at: int) -> bool:
    """Whether the entry whose name starts at ``at`` is flagged (``_entry_at`` found it)."""
    start = _entry_at(data, at, data.find(b"\x00", at) - at)
    flags = (data[start + 60] << 8) | data[start + 61]
    return bool(flags & _ASSUME_VALID or (flags & _EXTENDED and data[start + 62] & 0x40))


def _walk(data: Index, at: int, prefix: bytes) -> list[str]:
    """The flagged entries from the one at ``at`` on while their names start with
    ``prefix`` (an entry: 62 bytes, 2 more when extended, its name, padded with NULs to a
    multiple of 8)."""
    found: list[str] = []
    below = prefix + b"/" if prefix else b""
    size = len(data)
    left = int.from_bytes(data[8:12], "big")  # no more entries than the index has
    while left and at + 62 < size:
        high, low = data[at + 60], data[at + 61]
        name_at = at + (64 if high & 0x40 else 62)
        length = ((high & 0x0F) << 8) | low
        if length == _NAME_MASK:
            length = data.find(b"\x00", name_at) - name_at
        if length <= 0:
            break  # the extensions after the entries, or bytes not read as entries
        if prefix:
            name = data[name_at : name_at + length]
            if name != prefix and not name.startswith(below):
                break
        if high & 0x80 or (high & 0x40 and data[at + 62] & 0x40):
            found.append(data[name_at : name_at + length].decode("utf-8", "surrogateescape"))
        at += (name_at - at + length + 8) & ~7
        left -= 1
    return found
