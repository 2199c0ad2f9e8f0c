"""The uninstall standard, for every host's tests: the machine is given back.

Take a `snapshot` of the folders an install may touch (the project, the fake HOME)
before ``install``; after ``uninstall``, `assert_given_back` checks that every file is
byte for byte what it was, that no file or folder was added (an empty one, a ``{}``
settings file, a record of ours), and that none went missing. `assert_nothing_empty`
checks, after an uninstall that had edits to keep, that no empty file or folder remains
that was not there before.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

__all__ = ["Snapshot", "assert_given_back", "assert_nothing_empty", "snapshot"]


class Snapshot(NamedTuple):
    """Every file's bytes and every folder under some roots."""

    files: dict[str, bytes]
    folders: frozenset[str]


def snapshot(*roots: Path) -> Snapshot:
    """What is under ``roots`` now (symlinks are recorded, not followed)."""
    files: dict[str, bytes] = {}
    folders: set[str] = set()
    for root in roots:
        for folder, dirs, names in os.walk(root):
            folders.add(folder)
            for name in names:
                path = os.path.join(folder, name)
                if os.path.islink(path):
                    files[path] = b"-> " + os.fsencode(os.readlink(path))
                else:
                    with open(path, "rb") as stream:
                        files[path] = stream.read()
            for name in dirs:
                path = os.path.join(folder, name)
                if os.path.islink(path):  # os.walk does not enter it
                    files[path] = b"-> " + os.fsencode(os.readlink(path))
    return Snapshot(files, frozenset(folders))


def _differences(before: Snapshot, after: Snapshot) -> list[str]:
    problems = []
    for path in sorted(after.files.keys() - before.files.keys()):
        shown = after.files[path][:120]
        problems.append(f"left behind: {path} ({shown!r})")
    for path in sorted(before.files.keys() - after.files.keys()):
        problems.append(f"gone: {path}")
    for path in sorted(before.files.keys() & after.files.keys()):
        if before.files[path] != after.files[path]:
            problems.append(
                f"changed: {path}\n  was: {before.files[path]!r}\n  now: {after.files[path]!r}"
            )
    for folder in sorted(after.folders - before.folders):
        problems.append(f"folder left behind: {folder}")
    for folder in sorted(before.folders - after.folders):
        problems.append(f"folder gone: {folder}")
    return problems


def assert_given_back(before: Snapshot, *roots: Path) -> None:
    """Everything under ``roots`` is exactly as in ``before``: the same files, byte for
    byte, and the same folders."""
    problems = _differences(before, snapshot(*roots))
    assert not problems, "uninstall did not give the machine back:\n" + "\n".join(problems)


def assert_nothing_empty(before: Snapshot, *roots: Path) -> None:
    """No empty file, ``{}`` file or empty folder under ``roots`` that ``before`` did
    not have."""
    after = snapshot(*roots)
    problems = [
        f"empty file left: {path}"
        for path, data in sorted(after.files.items())
        if data.strip() in (b"", b"{}") and path not in before.files
    ]
    problems += [
        f"empty folder left: {folder}"
        for folder in sorted(after.folders - before.folders)
        if not os.listdir(folder)
    ]
    assert not problems, "uninstall left empty things behind:\n" + "\n".join(problems)
