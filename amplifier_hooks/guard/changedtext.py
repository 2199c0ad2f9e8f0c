"""What an edit's new text has that its old text has not, and the other way round: the
comparisons the checks of an edit's meaning share (`authchecks`, `servefiles`)."""

from __future__ import annotations

import re

__all__ = ["added", "dropped", "lines_added"]


def added(pattern: re.Pattern[str], old: str, new: str) -> bool:
    """Whether ``new`` has a match of ``pattern`` whose text ``old`` does not hold."""
    return any(found.group() not in old for found in pattern.finditer(new))


def dropped(pattern: re.Pattern[str], old: str, new: str) -> bool:
    """Whether ``old`` has a match of ``pattern`` whose text ``new`` does not hold."""
    return added(pattern, new, old)


def lines_added(old: str, new: str) -> bool:
    """Whether ``new`` has a non-blank line that ``old`` has not (spaces around ignored)."""
    before = {line.strip() for line in old.splitlines()}
    return any(line.strip() and line.strip() not in before for line in new.splitlines())
