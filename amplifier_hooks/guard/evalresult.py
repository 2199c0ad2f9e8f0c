"""What `evaluate` finds: the commands a line runs as bash would pass their words, and
how they are written back for the parse (`render`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Emitted", "Evaluation", "render"]


@dataclass(frozen=True)
class Emitted:
    """One command the line runs, as bash would pass its words (``text``, quoted for the
    parse), in the folder ``cwd``; ``certain`` when no value in it was a guess (a default
    the variable may not take)."""

    text: str
    cwd: str
    certain: bool


@dataclass
class Evaluation:
    """The commands a line was found to run."""

    commands: list[Emitted] = field(default_factory=list)


_SAFE = re.compile(r"[\w./:@%+,=-]")


def render(segments: list[tuple[str, bool]]) -> str:
    """One field written so the parse reads it back as these words: quoted parts quoted,
    an unquoted pattern left a pattern."""
    out: list[str] = []
    for text, quoted in segments:
        for char in text:
            if _SAFE.fullmatch(char) or (not quoted and char in "*?[]"):
                out.append(char)
            elif char == "'":
                out.append("\\'")
            else:
                out.append(f"'{char}'")
    return "".join(out) or "''"
