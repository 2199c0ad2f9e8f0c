"""What `evaluate` finds: the commands a line runs as bash would pass their words, and
how they are written back for the parse (`render`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from amplifier_hooks.guard.evalglob import program_matches

__all__ = ["Emitted", "Evaluation", "command_texts", "is_pattern", "render"]

Segments = list[tuple[str, bool]]


@dataclass(frozen=True)
class Emitted:
    """One command the line runs, as bash would pass its words (``text``, quoted for the
    parse), in the folder ``cwd``; ``certain`` when no value in it was a guess (a default
    the variable may not take); ``origin``: the text of the line's own command it comes
    from (the parse's piece of it), None where it is not one."""

    text: str
    cwd: str
    certain: bool
    origin: str | None = None


@dataclass
class Evaluation:
    """The commands a line was found to run; ``partial``: the line's commands (their
    texts) in which something could not be told, so what they emitted may not be all."""

    commands: list[Emitted] = field(default_factory=list)
    partial: set[str] = field(default_factory=set)
    fed: dict[str, str] = field(default_factory=dict)
    """A pipeline's part (its text) given a known text, and the part before that prints it."""
    scripted: dict[str, str] = field(default_factory=dict)
    """The line's commands that ran a shell on the known text given them (``| sh``), and
    that text."""


_SAFE = re.compile(r"[\w./:@%+,=-]")


def render(segments: Segments) -> str:
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


def is_pattern(segments: Segments) -> bool:
    """Whether a field has a pattern character bash expands (not quoted)."""
    return any(not quoted and set(text) & set("*?[") for text, quoted in segments)


def command_texts(fields: list[Segments]) -> list[str]:
    """The command these fields are, written for the parse: one a program a pattern in
    the program's path can match (`evalglob`), or the one."""
    head = fields[0]
    programs = (list(program_matches("".join(t for t, _ in head))) if is_pattern(head)
                else [render(head)])  # fmt: skip
    rest = " ".join(render(f) for f in fields[1:])
    return [f"{program} {rest}".strip() for program in programs]
