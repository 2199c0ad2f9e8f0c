"""The pieces a write into a CI configuration plants: its scripts as CI steps, and what
else it changes as marks.

Every route that writes text into a file meets this (a file tool, a patch, a shell
redirect or heredoc: `planted.planted_pieces`). Each script's commands are pieces marked
`workflows.CI_STEP`, judged only by the rules that name the mark (`Policy.for_ci_steps`:
a step runs on another machine, where this one's places mean nothing, and those rules are
about what it prints or sends); each of `cichecks`' findings is a piece of its own, judged
by the pack's rule that names it. None of them is ever granted.
"""

from __future__ import annotations

from collections.abc import Callable

from amplifier_hooks.guard.cichecks import ci_marks
from amplifier_hooks.guard.ciconfigs import ci_config, ci_scripts
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.workflows import CI_STEP

__all__ = ["MAX_SCRIPTS", "ci_pieces"]

MAX_SCRIPTS = 64
"""More scripts than these are not judged one by one (the write is not granted anyway)."""


def ci_pieces(
    path: str, text: str, split: Callable[[str], tuple[Piece, ...]]
) -> tuple[Piece, ...] | None:
    """The pieces writing ``text`` into the CI configuration at ``path`` plants (None:
    ``path`` is no CI configuration)."""
    system = ci_config(path)
    if system is None:
        return None
    why = f"{path} holds what {system} runs on another machine, with the project's secrets"
    found: list[Piece] = []
    for script in (ci_scripts(path, text) or ())[:MAX_SCRIPTS]:
        found.extend(p._replace(wrappers=(*p.wrappers, CI_STEP), doubt=why) for p in split(script))
    found.extend(
        Piece(text=path, program="true", wrappers=(mark,), doubt=why)
        for mark in ci_marks(system, text, path)
    )
    return tuple(found)
