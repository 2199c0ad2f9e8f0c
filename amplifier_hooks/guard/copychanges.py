"""What copying, moving and linking change: ``cp``, ``mv``, ``ln``, ``install``, ``rsync``
and macOS's ``ditto``, read as they read their options (the table's ``into`` and kin): the
destination, or each source's place in a destination folder, as a whole.
"""

from __future__ import annotations

from amplifier_hooks.guard.changedpaths import (
    NOTHING,
    Changed,
    into_folder,
    is_folder,
    last_of,
    operand_words,
    table_read,
)
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.table.acts import Does
from amplifier_hooks.guard.table.macos import ditto_read

__all__ = ["copy_changes", "ditto_changes", "rsync_changes"]


def copy_changes(piece: Piece, places: Places) -> Changed:
    """``cp``, ``mv``, ``ln``, ``install``: the destination, or each source's place in a
    destination folder, is replaced as a whole; ``mv`` moves its sources away; a hard
    link to a file makes it writable under another name."""
    program = piece.program or "cp"
    read = table_read(program, piece.args)
    operands = operand_words(read.operands)
    flags = read.flags()
    target = last_of(read.values("into"))
    if program == "install" and read.has("dirs"):
        return Changed(whole=operands)
    if target is None:
        if len(operands) < 2:
            return Changed(whole=tuple(operands)) if program == "mv" else NOTHING
        *sources, destination = operands
    else:
        sources, destination = list(operands), target
    whole: list[str] = []
    # `-T` (--no-target-directory): the destination is never a folder to copy into, so
    # `cp -rT dotfiles/ ~` merges the tree into the home folder itself
    folder = "--no-target-directory" not in flags and (
        target is not None or len(sources) > 1 or is_folder(destination, piece, places)
    )
    for source in sources:
        landing = into_folder(destination, source) if folder else destination
        whole.append(landing)
        if landing == destination and folder:
            whole.append(destination)  # `cp -r src/. dest`: a tree copied into dest
    if program == "mv" or "--remove-destination" in flags:
        whole.extend(sources)
    linking = (program == "ln" and "--symbolic" not in flags) or (
        program == "cp" and "--link" in flags
    )
    if linking:
        whole.extend(sources)  # a hard link: the same file, writable under the new name
    return Changed(whole=tuple(whole))


def rsync_changes(piece: Piece, places: Places) -> Changed:
    read = table_read("rsync", piece.args)
    if read.has("dry"):  # `-n`: lists what it would change, changes nothing
        return NOTHING
    given = operand_words(read.operands)
    operands = [o for o in given if ":" not in o.split("/", 1)[0]]
    if len(given) < 2 or not operands or operands[-1] != given[-1]:
        return NOTHING  # the destination is another machine
    *sources, destination = operands
    folder = len(sources) > 1 or is_folder(destination, piece, places)
    whole = [
        (destination if s.endswith("/") else into_folder(destination, s)) if folder else destination
        for s in sources
    ]
    if read.has("moves"):  # --remove-source-files
        whole.extend(sources)
    return Changed(whole=tuple(whole))


def ditto_changes(piece: Piece, _places: Places) -> Changed:
    """``ditto SRC... DST`` merges into DST (``-c``: writes the archive DST)."""
    acts = ditto_read(piece.args).acts
    content = tuple(a.target for a in acts if a.does is Does.WRITE)
    whole = tuple(a.target for a in acts if a.does is Does.WRITE_INTO)
    return Changed(content=content, whole=whole)
