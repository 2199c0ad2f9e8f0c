"""One secret rule: a named pattern, the literal hints that let it be skipped, and the
check that may veto a match (`secret_shapes` holds the rules themselves).

A match replaced becomes a marker that names its rule (``[REDACTED:github_token]``); a
marker already in the text is never matched again, so text redacted twice reads the same.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["MARKER_PREFIX", "Check", "Rule", "marker"]

Check = Callable[[re.Match[str]], bool]

MARKER_PREFIX = "[REDACTED"

_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def marker(rule: str) -> str:
    """The text a secret found by ``rule`` is replaced with."""
    return f"[REDACTED:{rule}]"


def _token_start(match: re.Match[str]) -> bool:
    # True unless the match begins in the middle of a longer token ("task-..." is not "sk-").
    start = match.start()
    return start == 0 or match.string[start - 1] not in _TOKEN_CHARS


@dataclass(frozen=True)
class Rule:
    """One named pattern; ``check`` may reject a match the pattern alone cannot judge.

    ``hints``: literal substrings, one of which must occur in the text for the rule to
    run (compared lowercased when ``fold_hints``). ``token_start``: a match must not begin
    inside a longer token.
    """

    name: str
    pattern: re.Pattern[str]
    check: Check | None = None
    pii: bool = False
    hints: tuple[str, ...] = ()
    fold_hints: bool = False
    token_start: bool = False
    replacement: str = field(init=False)
    _groups: tuple[str, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "replacement", marker(self.name))
        groups = tuple(
            g for g in self.pattern.groupindex if g == "secret" or g.startswith("secret_")
        )
        object.__setattr__(self, "_groups", groups)

    def may_match(self, text: str, folded: str) -> bool:
        """False when no hint occurs in the text (``folded`` is ``text.lower()``)."""
        if not self.hints:
            return True
        haystack = folded if self.fold_hints else text
        return any(hint in haystack for hint in self.hints)

    def accepts(self, match: re.Match[str]) -> bool:
        if match.end() == match.start():
            return False  # an empty match would insert markers between characters
        if self.token_start and not _token_start(match):
            return False
        return self.check is None or self.check(match)

    def apply(self, text: str) -> tuple[str, int]:
        """``text`` with every accepted match replaced, and how many were."""
        count = 0
        groups = self._groups

        def replace(match: re.Match[str]) -> str:
            nonlocal count
            if not self.accepts(match):
                return match.group(0)
            if not groups:
                count += 1
                return self.replacement
            # The first secret group that took part in the match is the part replaced.
            group = next((g for g in groups if match.start(g) >= 0), None)
            if group is None or match.group(group).startswith(MARKER_PREFIX):
                return match.group(0)  # nothing to replace, or already replaced
            whole, offset = match.group(0), match.start()
            start, end = match.start(group) - offset, match.end(group) - offset
            count += 1
            return whole[:start] + self.replacement + whole[end:]

        return self.pattern.sub(replace, text), count
