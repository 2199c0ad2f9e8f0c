"""What an edit's new text has that its old text has not, and the other way round: the
comparisons the checks of an edit's meaning share (`authchecks`, `gates`, `servefiles`, …)."""

from __future__ import annotations

import re
from collections.abc import Callable

from amplifier_hooks.guard.matchwords import may_match

__all__ = ["added", "commented", "dropped", "lines_added", "live_matches", "more", "number_moved"]


def added(pattern: re.Pattern[str], old: str, new: str) -> bool:
    """Whether ``new`` has a match of ``pattern`` whose text ``old`` does not hold."""
    if not may_match(pattern, new):
        return False
    return any(found.group() not in old for found in pattern.finditer(new))


def dropped(pattern: re.Pattern[str], old: str, new: str) -> bool:
    """Whether ``old`` has a match of ``pattern`` whose text ``new`` does not hold."""
    return added(pattern, new, old)


def more(pattern: re.Pattern[str], old: str, new: str) -> bool:
    """Whether ``new`` has more matches of ``pattern`` than ``old``: one more switch
    turned off, one more opening, even where the same text was already there once."""
    if not may_match(pattern, new):
        return False
    return len(pattern.findall(new)) > (len(pattern.findall(old)) if may_match(pattern, old) else 0)


def number_moved(
    pattern: re.Pattern[str], old: str, new: str, moved: Callable[[float, float], bool]
) -> bool:
    """Whether a named number (``pattern``'s groups ``name`` and ``n``) that ``old`` sets
    is set in ``new`` to a value ``moved(was, now)`` holds for: a limit raised, a bar
    lowered. A name's first value in ``old`` is the one compared."""
    before: dict[str, float] = {}
    for found in pattern.finditer(old):
        before.setdefault(found["name"].lower(), float(found["n"]))
    return any(
        (was := before.get(found["name"].lower())) is not None and moved(was, float(found["n"]))
        for found in pattern.finditer(new)
    )


def lines_added(old: str, new: str) -> bool:
    """Whether ``new`` has a non-blank line that ``old`` has not (spaces around ignored)."""
    before = {line.strip() for line in old.splitlines()}
    return any(line.strip() and line.strip() not in before for line in new.splitlines())


_COMMENT = re.compile(
    r"^\s*(?://|#(?!define|include|if|elif|else|endif|undef|pragma)|/\*|\*|--|<!--)"
)
"""A line that is a comment in C, Python, shell, SQL, Lua or markup (C's ``#define`` is not)."""


def commented(line: str) -> bool:
    """Whether ``line`` is a comment: a check commented out is a check taken out."""
    return _COMMENT.match(line) is not None


def live_matches(pattern: re.Pattern[str], text: str) -> int:
    """Matches of ``pattern`` on the lines of ``text`` that are not comments: a check
    commented out by an edit is a check taken out."""
    if not may_match(pattern, text):
        return 0
    return sum(len(pattern.findall(line)) for line in text.splitlines() if not commented(line))
