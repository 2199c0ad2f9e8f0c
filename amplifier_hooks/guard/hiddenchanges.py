"""The tracked files whose changes ``git status`` does not show: those marked
assume-unchanged (``git update-index --assume-unchanged``) or skip-worktree
(``--skip-worktree``, sparse checkouts). People mark local settings so to keep their own
changes out of commits: git then reports the file as unchanged, and a delete or an
overwrite of it would be granted as if git could give it back (`losses`).

Read from git's index file itself, not by a second git run (one run per judged call,
`repo`): each asked path's entry is found by its name, in any case of its ASCII letters
(macOS's and Windows's file systems ignore case: ``rm CONFIG/Local.py`` deletes
``config/local.py``, and git's status is asked with ``icase`` too), and the entry's flags
read from the bytes just before it. A version-4 index (each name stored as what it shares
with the one before it, and the rest) is walked from its first entry. An index this
reader does not know (or cannot read), or a path with letters beyond ASCII (whose other
cases a byte search cannot find), answers that every asked path may be hidden.
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
        if data[:4] != b"DIRC" or data[4:8] not in (*_VERSIONS, _V4):
            return None
        prefixes = [_prefix(spec) for spec in specs]
        if any(p is None or not p.isascii() for p in prefixes):
            return None
        if data[4:8] == _V4:
            flagged = _v4_flagged(data)
            return None if flagged is None else _below(flagged, prefixes)
        found: list[str] = []
        low = bytes(data).lower() if any(prefixes) else b""  # once: ~2 ms a MB
        for prefix in prefixes:
            found += _flagged(data, low, prefix or b"")
        return tuple(dict.fromkeys(found))
    finally:
        if isinstance(data, mmap.mmap):
            data.close()


_VERSIONS = (b"\x00\x00\x00\x02", b"\x00\x00\x00\x03")
_V4 = b"\x00\x00\x00\x04"
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


def _flagged(data: Index, low: bytes, prefix: bytes) -> list[str]:
    """The names of flagged entries at or below ``prefix``, in any case of its letters:
    each place its bytes are found in the index lower-cased (``low``) that is an entry's
    name, and a sparse folder above it (one entry, ``dir/``)."""
    if not prefix:
        return _walk(data, 12, b"")
    folded = prefix.lower()
    below = folded + b"/"
    found = [n for n in _names_at(data, low, folded)
             if n.lower() == folded or n.lower().startswith(below)]  # fmt: skip
    parts = folded.split(b"/")
    for depth in range(1, len(parts)):  # `config/` when config is a sparse folder
        folder = b"/".join(parts[:depth]) + b"/"
        found += [n for n in _names_at(data, low, folder) if n.lower() == folder]
    return [n.decode("utf-8", "surrogateescape") for n in found]


def _names_at(data: Index, low: bytes, folded: bytes) -> list[bytes]:
    """The names, as the index spells them, of flagged entries whose name starts with
    ``folded`` in any case."""
    found: list[bytes] = []
    start = 12
    while (at := low.find(folded, start)) >= 0:
        start = at + 1
        end = low.find(b"\x00", at)
        if end < 0:
            break
        if _entry_at(data, at, end - at) >= 0 and _hidden(data, at):
            found.append(bytes(data[at:end]))
    return found


def _below(names: list[str], prefixes: list[bytes | None]) -> tuple[str, ...]:
    """Of ``names``, those at or below one of ``prefixes`` (or a folder above one), in any
    case."""
    found: list[str] = []
    for name in names:
        low = name.encode("utf-8", "surrogateescape").lower()
        for prefix in prefixes:
            folded = (prefix or b"").lower()
            if (
                not folded
                or low == folded
                or low.startswith(folded + b"/")
                or (low.endswith(b"/") and folded.startswith(low))
            ):
                found.append(name)
                break
    return tuple(found)


def _v4_flagged(data: Index) -> list[str] | None:
    """The flagged entries of a version-4 index, walked from the first: each name is the
    one before it less the number of its last bytes a varint says, then the bytes up to a
    NUL (no padding). None: the bytes do not read as entries."""
    found: list[str] = []
    at, size, name = 12, len(data), b""
    for _ in range(int.from_bytes(data[8:12], "big")):
        if at + 64 >= size:
            return None
        high = data[at + 60]
        flagged = bool(high & 0x80 or (high & 0x40 and data[at + 62] & 0x40))
        cut, start = _varint(data, at + (64 if high & 0x40 else 62))
        end = data.find(b"\x00", start)
        if cut < 0 or cut > len(name) or end < 0:
            return None
        name = name[: len(name) - cut] + bytes(data[start:end])
        if flagged:
            found.append(name.decode("utf-8", "surrogateescape"))
        at = end + 1
    return found


def _varint(data: Index, at: int) -> tuple[int, int]:
    """git's offset varint at ``at`` (each byte's high bit: more follow; each further
    byte adds one before the shift) and where it ends; -1: it runs past the data."""
    value = -1
    for index in range(at, min(at + 10, len(data))):
        byte = data[index]
        value = byte & 0x7F if value < 0 else ((value + 1) << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value, index + 1
    return -1, at


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
