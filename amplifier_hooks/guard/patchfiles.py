"""The files a patch changes, read from the patch itself (``patch``, ``git apply``): a
patch applied in the same command can write a protected place the command never names."""

from __future__ import annotations

import os
import re

__all__ = [
    "MAX_PATCH_BYTES",
    "PATCH_FILE",
    "patched_files",
    "patched_names",
    "patched_parts",
    "patched_texts",
    "update_hunks",
]

MAX_PATCH_BYTES = 1 << 20
"""A larger patch is not read: it names no file."""


def patched_files(path: str) -> list[str]:
    """The file names a unified or context diff at ``path`` changes."""
    try:
        if os.path.getsize(path) > MAX_PATCH_BYTES:
            return []
        with open(path, encoding="utf-8", errors="replace") as handle:
            return patched_names(handle.read())
    except (OSError, ValueError):
        return []


def patched_names(text: str) -> list[str]:
    """The file names the unified or context diff ``text`` changes (a patch given in a
    heredoc: ``git apply <<EOF``)."""
    lines = text[:MAX_PATCH_BYTES].splitlines()
    found: list[str] = []
    for line in lines:
        if line.startswith(("+++ ", "--- ")):
            name = line[4:].split("\t", 1)[0].strip()
            if name and name != "/dev/null":
                found.append(name.strip('"'))
        elif line.startswith(("rename to ", "rename from ", "copy to ")):
            found.append(line.split(" ", 2)[2].strip())
    return found[:256]


def update_hunks(patch: str, *, kept: bool = True) -> list[tuple[str, str, str]]:
    """Each file an ``apply_patch`` patch updates, with its text before and after, as an
    edit's (path, old, new): the lines it takes out and the lines it keeps around them,
    and the lines it puts in with the same kept ones, so that what a change drops is read
    as an edit's is (a check taken out of the code: `switchedoff`) and what it adds is
    read beside what it sits in (the function a line goes into). ``kept=False``: the
    lines taken out and put in alone. A hunk that only keeps lines changes nothing: no
    entry."""
    found: list[tuple[str, list[str], list[str]]] = []
    for line in patch[:MAX_PATCH_BYTES].splitlines():
        if line.startswith("*** "):
            name = line.removeprefix("*** Update File: ")
            if name != line:
                found.append((name.strip(), [], []))
            elif found:
                found.append(("", [], []))  # another file's or the end: not an update
        elif found and found[-1][0] and line.startswith("-"):
            found[-1][1].append(line[1:])
        elif found and found[-1][0] and line.startswith("+"):
            found[-1][2].append(line[1:])
        elif kept and found and found[-1][0] and line.startswith(" "):  # in both
            found[-1][1].append(line[1:])
            found[-1][2].append(line[1:])
    return [
        (path, "\n".join(old), "\n".join(new))
        for path, old, new in found
        if path and old and old != new
    ]


PATCH_FILE = re.compile(r"^\*\*\* (Add|Update) File: (.+)$")
_PATCH_END = re.compile(r"^\*\*\* ")


def patched_texts(patch: str) -> list[tuple[str, str]]:
    """The (path, text) each file of an ``apply_patch`` patch gets: an added file's
    lines, an updated one's added lines."""
    return [(path, text) for path, text, _ in patched_parts(patch)]


def patched_parts(patch: str) -> list[tuple[str, str, bool]]:
    """`patched_texts`, each with whether it is an update's added lines (a part of the
    file, as an edit's text is) rather than an added file's whole text."""
    found: list[tuple[str, list[str], bool]] = []
    for line in patch.splitlines():
        header = PATCH_FILE.match(line)
        if header is not None:
            found.append((header.group(2).strip(), [], header.group(1) == "Update"))
        elif _PATCH_END.match(line):
            continue
        elif found and line.startswith("+"):
            found[-1][1].append(line[1:])
    return [(path, "\n".join(lines) + "\n", part) for path, lines, part in found if lines]
