"""The files a patch changes, read from the patch itself (``patch``, ``git apply``): a
patch applied in the same command can write a protected place the command never names."""

from __future__ import annotations

import os

__all__ = ["MAX_PATCH_BYTES", "patched_files", "patched_names"]

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
