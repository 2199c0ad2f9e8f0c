"""One translation of a glob (``*``, ``?``, ``[...]``, ``**``) into a regular expression's
text, for every place that matches one: a rule's path glob (`globs.compile_glob`), a
pattern in a shell parameter's expansion (`evaltext`) and in a program's path (`evalglob`).
"""

from __future__ import annotations

import re

__all__ = ["glob_regex"]


def glob_regex(pattern: str, *, path: bool = False, globstar: bool = False,
               escapes: bool = True) -> str:  # fmt: skip
    """``pattern`` as a regular expression's text. ``path``: a ``*`` or ``?`` never takes
    a ``/`` (a name's, as bash matches a path); ``globstar``: ``**/`` is any folders (or
    none) and ``**`` anything; ``escapes``: a backslash keeps the next character literal
    (bash's patterns; in a rule's glob a backslash is a character). A ``]`` right after
    ``[`` is in the set, as bash reads it."""
    star, one = ("[^/]*", "[^/]") if path else (".*", ".")
    out: list[str] = []
    at = 0
    while at < len(pattern):
        char = pattern[at]
        if globstar and pattern.startswith("**", at):
            slash = pattern.startswith("**/", at)
            out.append("(?:.*/)?" if slash else ".*")
            at += 3 if slash else 2
            continue
        if char == "*":
            out.append(star)
        elif char == "?":
            out.append(one)
        elif char == "[":
            end = pattern.find("]", at + 2)
            if end < 0:
                out.append(re.escape(char))
            else:
                body = pattern[at + 1 : end]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                at = end
        elif escapes and char == "\\" and at + 1 < len(pattern):
            at += 1
            out.append(re.escape(pattern[at]))
        else:
            out.append(re.escape(char))
        at += 1
    return "".join(out)
