"""A Windows program's words as the readers hand them on (shell text, plain text), and the
one test every Windows reader makes of them: is a word a ``/X`` option or a path. Its own
module: the programs (`winprograms`) and cmd.exe's built-ins (`cmdbuiltins`) both read
words so, and neither imports the other's table.
"""

from __future__ import annotations

import re

__all__ = ["Word", "is_option", "paths_of"]

Word = tuple[str, "str | None"]
"""A word as shell text, and its plain text (None: known only at run time)."""

_OPTION = re.compile(r"^/[A-Za-z?][\w?+-]*(?::.*)?$")


def is_option(plain: str | None) -> bool:
    """Whether a word is a cmd-style option (``/s``, ``/T:Rebuild``), not a path."""
    return plain is not None and _OPTION.match(plain) is not None


def paths_of(rest: list[Word]) -> list[Word]:
    """The words that are no ``/X`` option."""
    return [(w, p) for w, p in rest if not is_option(p)]
