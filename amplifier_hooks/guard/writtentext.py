"""Text a shell command writes into a file, judged as a file tool's write of it is.

``echo 'src/**' >> .semgrepignore``, ``printf 'CVE-2024-3094\\n' >> .trivyignore``, ``cat
> config/access.yaml <<EOF``: the same text a Write or an Edit adds would be marked by
`changemarks` (a scanner's reach narrowed, an advisory let through, an outsider added)
or `agentfiles` (an instruction file told the person approved what it must ask);
written by the shell, it is marked the same. Each write whose text is known
(`fedcode.echoed_text`) gets a piece of the file written, with the marks of its text as
added to the file (what the file held before is not read: an append's lines are new).
"""

from __future__ import annotations

from collections.abc import Callable

from amplifier_hooks.guard.agentfiles import instruction_marks
from amplifier_hooks.guard.changemarks import change_marks
from amplifier_hooks.guard.fedcode import written_into
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.paths import locate

__all__ = ["text_marks"]

_MAX_TEXT = 64 * 1024


def text_marks(
    pieces: tuple[Piece, ...], places: Places, text_of: Callable[[Piece], str | None]
) -> tuple[Piece, ...]:
    """``pieces``, and a piece marked as `changemarks` marks the text each of them writes
    into a file (none: no write's text is known, or none earns a mark)."""
    added: list[Piece] = []
    for piece in pieces:
        targets = written_into(piece)
        text = text_of(piece) if targets else None
        if not text or len(text) > _MAX_TEXT:
            continue
        for target in targets:
            path = locate(target, piece.cwd, places).path
            marks = (*change_marks((path,), {"content": text}), *instruction_marks(text, [path]))
            if marks:
                added.append(Piece(text=f"{piece.program} > {target}", program="edit_file",
                                   args=(path,), tool="edit_file", wrappers=marks))  # fmt: skip
    return (*pieces, *added) if added else pieces
