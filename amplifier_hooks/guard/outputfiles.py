"""Files a looker writes through a command or an option of its own, not through ``>``:
sed's ``w FILE``/``W FILE`` commands and the ``w FILE`` flag of ``s``, ``tree -o FILE``,
git's ``--output=FILE`` (``git diff``, ``git log``, ``git show``). Each replaces what the
file held, as ``tee FILE`` does, so `losses` judges them as overwrites by git's facts.

These programs otherwise only read (the read-only rules grant them), so their output
files would never reach the overwrite judgement. ``sed -i``'s files are edits, judged as
every edit is (`emptiers` for the ones that empty them): not here. Media and document
converters' in-place modes and output options are read in `mediaoutputs`.
"""

from __future__ import annotations

from amplifier_hooks.guard.mediaoutputs import MEDIA_WRITERS, media_outputs
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.table import read_call
from amplifier_hooks.guard.table.acts import Does
from amplifier_hooks.guard.table.sed import read_script, scripted

__all__ = ["OUTPUT_WRITERS", "output_files"]

OUTPUT_WRITERS = frozenset({"sed", "tree", "git", *MEDIA_WRITERS})
"""Programs that may name an output file of their own."""

_STREAMS = frozenset({"/dev/stdout", "/dev/stderr", "-"})
"""Targets that are the program's own output, not a file."""


def output_files(piece: Piece) -> tuple[str, ...]:
    """The words of the files ``piece`` writes its output to by its own command or option
    (empty: none, or a program not read here)."""
    program, args = piece.program, piece.args
    if program == "sed":
        found = _sed_written(args)
    elif program == "tree":
        found = tuple(a.target for a in read_call("tree", args).acts if a.does == Does.WRITE)
    elif program == "git":
        found = _git_output(args)
    elif program in MEDIA_WRITERS:
        found = media_outputs(program, args)
    else:
        return ()
    return tuple(w for w in found if w and w not in _STREAMS)


def _sed_written(args: tuple[str, ...]) -> tuple[str, ...]:
    scripts, _ = scripted(args)
    return tuple(
        act.target
        for script in scripts
        for act in read_script(script).acts
        if act.does == Does.WRITE
    )


def _git_output(args: tuple[str, ...]) -> tuple[str, ...]:
    """``--output=FILE`` or ``--output FILE`` (git's diff options, before ``--``)."""
    found: list[str] = []
    for index, arg in enumerate(args):
        if arg == "--":
            break
        if arg.startswith("--output="):
            found.append(arg.removeprefix("--output="))
        elif arg == "--output" and index + 1 < len(args):
            found.append(args[index + 1])
    return tuple(found)
