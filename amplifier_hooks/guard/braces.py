"""Brace lists in a word, as bash expands them before a program sees it: ``~/{a,b}`` is
``~/a ~/b``. A place is judged once per word bash would pass, so a protected file hidden in
a list is seen.
"""

from __future__ import annotations

import re

__all__ = ["BRACES", "MAX_EXPANSION", "expand_braces"]

BRACES = re.compile(r"\{[^{}]*(,|\.\.)[^{}]*\}")
_LIST = re.compile(r"\{([^{}]*,[^{}]*)\}")
MAX_EXPANSION = 64


def expand_braces(word: str) -> list[str]:
    """``~/{a,b}`` as bash expands it: ``~/a ~/b`` (lists only, at most 64 words; a range
    like ``{1..9}`` or anything larger stays one word, which `locate` places ``unknown``)."""
    words = [word]
    while True:
        grown: list[str] = []
        changed = False
        for item in words:
            match = _LIST.search(item)
            if match is None:
                grown.append(item)
                continue
            changed = True
            head, tail = item[: match.start()], item[match.end() :]
            grown.extend(head + part + tail for part in match.group(1).split(","))
        if not changed or len(grown) > MAX_EXPANSION:
            return words if changed else grown
        words = grown
