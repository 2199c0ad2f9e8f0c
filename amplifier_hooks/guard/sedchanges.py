"""The lines an in-place sed changes, judged as an edit of the same lines is.

``sed -i 's/CookieSecurePolicy.Always/CookieSecurePolicy.None/' Program.cs`` and
``sed -i 's|return errors == SslPolicyErrors.None;|return true;|' Validation.cs`` are the
edits an Edit tool would make with the pattern as its old text and the replacement as its
new: each file an in-place sed rewrites gets a piece marked as `changemarks` marks that
edit (a protection switched off, a check weakened); the lines its ``a``, ``i`` and ``c``
put in are lines such an edit adds (``sed -i '/^\\[TestFixture\\]/a [Ignore]'``: a test
skipped). The pattern is read as the text it
matches, its escapes undone; a pattern of regex classes reads as less than it matches,
which can only leave a mark out, never add one.
"""

from __future__ import annotations

from amplifier_hooks.guard.changemarks import change_marks
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.paths import locate
from amplifier_hooks.guard.table.sed import added_text, scripted, swapped_text

__all__ = ["swap_marks"]

_EDITORS = frozenset({"sed", "gsed"})
_MAX_TEXT = 64 * 1024


def swap_marks(pieces: tuple[Piece, ...], places: Places) -> tuple[Piece, ...]:
    """``pieces``, and a piece of each file an in-place sed's substitutions edit, marked as
    the same edit by a file tool is (none: no mark)."""
    added: list[Piece] = []
    for piece in pieces:
        if piece.program not in _EDITORS:
            continue
        scripts, read = scripted(piece.args)
        if read.doubt is not None or not any(g.opt.does == "in-place" for g in read.given):
            continue
        swaps, inserted = swapped_text(scripts), added_text(scripts)
        # The file exists: a non-empty old text (a bare newline when only lines are added)
        # has the checks that read edits of existing code, not new files, read these lines.
        old = "\n".join(pattern for pattern, _ in swaps) + "\n"
        new = "\n".join([*(replacement for _, replacement in swaps), *inserted])
        if not (swaps or inserted) or len(old) + len(new) > _MAX_TEXT:
            continue
        for target in (f for f in read.operands if f and f != "-"):
            path = locate(target, piece.cwd, places).path
            marks = change_marks((path,), {"old_string": old, "new_string": new})
            if marks:
                added.append(Piece(text=f"{piece.program} -i {target}", program="edit_file",
                                   args=(path,), tool="edit_file", wrappers=marks))  # fmt: skip
    return (*pieces, *added) if added else pieces
