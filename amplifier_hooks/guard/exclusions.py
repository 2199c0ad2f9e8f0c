"""Exclusion patterns: the values of the options that leave names out of what a program
reads or copies (``tar --exclude=.env``, ``rsync --exclude .env``, ``zip -r a.zip . -x
.env``) are patterns, never paths it opens."""

from __future__ import annotations

from itertools import pairwise

__all__ = ["excluded_patterns"]

_PATTERN_OPTIONS = frozenset({"--exclude", "--exclude-dir"})
"""Options whose value is a name pattern to leave out, not a file opened (an ``--include``
pattern picks the files it names: ``rclone copy . r: --include '*.env'`` sends them)."""
_EXCLUDERS = frozenset(
    {"tar", "gtar", "bsdtar", "rsync", "zip", "rclone", "grep", "egrep", "fgrep", "du", "diff",
     "git", "borg", "restic", "duplicity", "rdiff-backup", "ncdu", "cloc"}
)  # fmt: skip
"""The programs whose ``--exclude`` takes a pattern (elsewhere the next word may be a file
the program opens, read as one)."""
_LISTED_PATTERNS = frozenset({"-x", "--exclude"})
"""zip's options whose patterns run to the next option (``-x .env '*.pem'``)."""


def excluded_patterns(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    """The values of ``args``' exclusion options (``--exclude=.env``): a pattern of names
    the program leaves out, never a path it reads."""
    found: list[str] = []
    listing = False
    if program not in _EXCLUDERS:
        return ()
    for before, word in pairwise(("", *args)):
        if listing and not word.startswith("-"):
            found.append(word)
            continue
        listing = program == "zip" and word in _LISTED_PATTERNS
        option, equals, value = word.partition("=")
        if equals and option in _PATTERN_OPTIONS:
            found.append(value)
        elif before in _PATTERN_OPTIONS and not listing:
            found.append(word)
    return tuple(found)
