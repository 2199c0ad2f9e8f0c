"""What a piece changes, path by path: the words of the paths whose content it writes,
and of those it changes as a whole (deletes, moves away, renames, re-modes, places a link
over, unpacks or copies a tree into).

Self-protection asks this of every piece: a protected file must not change by any route,
and a folder that holds one must not be deleted, moved or re-moded as a whole. A program
this module does not know changes every path it is given unless it only reads
(`programs.READ_ONLY`); the ones it knows are read as they read their options:
``sort -o F``, ``uniq IN OUT``, ``xxd -r IN OUT``, ``sed -i`` and its ``w`` command,
``cp``/``mv``/``ln``/``install`` into a folder, ``rsync``, ``tar -x -C``, ``unzip -d``,
``chmod``/``chown``, ``find -fprint``, ``curl -o``, git's path commands, and the files
a patch names (``patch``, ``git apply``: read from the patch file). The options of the
programs in the table (`table.read_program`, `table.git_read`) are read there, once per
program, with every spelling the program takes; the option roles asked here are the
table's (``into``, ``write``, ``archive``, ``strip``, ...). The readers of copies, archives,
and patches and git are in modules of their own (`copychanges`, `archivechanges`,
`gitchanges`); the rest, one or two lines each, are here with the table of them all.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from amplifier_hooks.guard.archivechanges import (
    archiver_changes,
    seven_zip_changes,
    tar_changes,
    unzip_changes,
    zip_changes,
)
from amplifier_hooks.guard.backuprepos import BACKUP_TOOLS, restored_into
from amplifier_hooks.guard.changedpaths import NOTHING, Changed, operand_words, table_read
from amplifier_hooks.guard.containers import CONTAINER_PROGRAMS, copied_into, mounts
from amplifier_hooks.guard.copychanges import copy_changes, ditto_changes, rsync_changes
from amplifier_hooks.guard.gitchanges import git_changes, patch_changes
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.outputfiles import output_files
from amplifier_hooks.guard.programs import READ_ONLY
from amplifier_hooks.guard.rclonewords import rclone_changes
from amplifier_hooks.guard.table import git_read, patterned
from amplifier_hooks.guard.table.archivers import ARCHIVERS
from amplifier_hooks.guard.table.finding import find_written
from amplifier_hooks.guard.table.macos import mount_points
from amplifier_hooks.guard.table.mounting import mount_target
from amplifier_hooks.guard.table.python import is_python, unpacks_into
from amplifier_hooks.guard.table.removers import REMOVERS, removed

# `Changed` and `NOTHING` are `changedpaths`': named here too for the callers of `changed`.
__all__ = ["CHANGERS", "MODE_PROGRAMS", "NOTHING", "Changed", "asks_files", "changed"]

_new_tuple = tuple.__new__


MODE_PROGRAMS = frozenset({"chmod", "chown", "chgrp", "chattr", "chcon", "setfacl"})


def _mode(piece: Piece, places: Places) -> Changed:
    """The files whose mode, owner, attributes, context or ACL change: the operands but
    a mode, owner or context given first (none when ``--reference`` or, for chcon, a part
    of the context names it)."""
    program = piece.program or ""
    read = table_read(program, piece.args)  # (chmod -x f, chattr -i f: modes, not options)
    operands = operand_words(read.operands)
    if program in ("chattr", "setfacl") or read.values("read") or read.values("context"):
        return Changed(whole=operands)
    return Changed(whole=operands[1:])


def _removing(piece: Piece, places: Places) -> Changed:
    """rm and kin delete their operands (the trash's: and write its folder, `removed`)."""
    program = piece.program or "rm"
    read = table_read(program, piece.args)
    if program in REMOVERS:
        return Changed(whole=operand_words(removed(program, read)))
    return Changed(whole=operand_words(read.operands))


def _writing(piece: Piece, places: Places) -> Changed:
    """tee, touch, truncate: every operand is written."""
    return Changed(content=operand_words(table_read(piece.program or "tee", piece.args).operands))


def _sort(piece: Piece, places: Places) -> Changed:
    out = table_read("sort", piece.args).values("write")  # -o, --output
    return Changed(content=out[-1:]) if out else NOTHING


def _second_operand(piece: Piece, places: Places) -> Changed:
    """``uniq IN OUT``, ``xxd -r IN OUT``: the second operand is written."""
    return Changed(
        content=operand_words(table_read(piece.program or "uniq", piece.args).operands)[1:2]
    )


_SED_WRITE = re.compile(r"(?:^|[;\n}]|/[gpIiMme0-9]*)\s*[0-9,$/]*[wW]\s+([^;\n}]+)")


def _sed(piece: Piece, places: Places) -> Changed:
    scripts, read = patterned("sed", piece.args)  # the table's: -i's suffix only attached
    written = [m.group(1).strip() for s in scripts for m in _SED_WRITE.finditer(s)]
    in_place = read.has("in-place")
    return Changed(content=tuple(written) + (operand_words(read.operands) if in_place else ()))


def _yq(piece: Piece, places: Places) -> Changed:
    """``yq -i EXPR FILE``: the files it edits in place (else it only prints)."""
    read = table_read("yq", piece.args)
    return Changed(content=operand_words(read.operands)) if read.has("in-place") else NOTHING


def _tree(piece: Piece, places: Places) -> Changed:
    """``tree -o FILE``: the listing replaces FILE's text (`outputfiles`), a write the
    rules see as they see ``tree > FILE``."""
    return Changed(content=output_files(piece))


def _find(piece: Piece, places: Places) -> Changed:
    return Changed(content=find_written(piece.args))


def _fetch(piece: Piece, places: Places) -> Changed:
    """``curl -o F``, ``wget -O F``, ``-P DIR``: the files a download writes, and the
    folder it writes into."""
    read = table_read(piece.program or "curl", piece.args)
    found = [v for v in (*read.values("write"), *read.values("into")) if v != "-"]
    return Changed(whole=tuple(found))


def _rclone(piece: Piece, places: Places) -> Changed:
    """rclone by its subcommand (`rclonewords`)."""
    found = rclone_changes(piece.args)
    return Changed(whole=found) if found else NOTHING


CHANGERS: dict[str, Callable[[Piece, Places], Changed]] = {
    **dict.fromkeys(("cp", "mv", "ln", "install"), copy_changes),
    "rsync": rsync_changes,
    "ditto": ditto_changes,
    **dict.fromkeys(("tar", "bsdtar", "gtar"), tar_changes),
    "unzip": unzip_changes,
    "zip": zip_changes,
    **dict.fromkeys(("7z", "7za", "7zz", "7zr"), seven_zip_changes),
    **dict.fromkeys(ARCHIVERS, archiver_changes),
    **dict.fromkeys(MODE_PROGRAMS, _mode),
    **dict.fromkeys(("rm", "rmdir", "unlink", *REMOVERS), _removing),
    **dict.fromkeys(("tee", "touch", "truncate"), _writing),
    "mount": lambda piece, _: Changed(whole=mount_target(piece.args)),
    "sort": _sort,
    **dict.fromkeys(("uniq", "xxd"), _second_operand),
    "sed": _sed,
    "patch": patch_changes,
    "find": _find,
    "tree": _tree,
    "yq": _yq,
    **dict.fromkeys(("curl", "wget"), _fetch),
    "git": git_changes,
    "rclone": _rclone,
}
"""The programs read option by option; any other program that is not read-only changes
every path it is given."""
_LOOKING = (copy_changes, rsync_changes, patch_changes)
"""The readers that ask the file system: whether a destination is a folder
(`changedpaths.is_folder`), what a patch names (`patch_changes`); and `git_changes`'s, for
`_GIT_LOOKING` (checkout and restore: where a named folder leads, `gitchanges._holds_own`)."""
_GIT_LOOKING = frozenset({"mv", "apply", "checkout", "restore"})


def asks_files(piece: Piece) -> bool:
    """Whether `changed` may ask the file system what ``piece`` changes (so what it says
    holds for this call only: `facts` keeps no reading of such a piece)."""
    reader = CHANGERS.get(piece.program or "")
    if reader is git_changes:
        return git_read(piece.args).subcommand in _GIT_LOOKING
    return reader in _LOOKING


_GIT_CHANGING = frozenset({"rm", "mv", "clean", "checkout", "restore", "apply", "am", "stash",
                           "reset", "config"})  # fmt: skip


def changed(piece: Piece, written: tuple[str, ...], places: Places,
            subcommand: str | None = None) -> Changed:  # fmt: skip
    """What ``piece`` changes (``written``: the words of the paths a program not read
    here writes, as `facts.Facts` found them; ``subcommand``: its subcommand, if known)."""
    if piece.tool != "bash":
        return Changed(content=written) if written else NOTHING
    if (
        piece.program == "git"
        and subcommand not in _GIT_CHANGING
        and not any(a.startswith("--o") for a in piece.args)
    ):
        return NOTHING  # most git: status, log, add, commit (`git diff --output=F` writes)
    if piece.program == "hdiutil":  # `attach IMG -mountpoint DIR`: DIR is hidden whole
        points = mount_points(piece.args)
        return Changed(written, points) if points else Changed(content=written)
    reader = CHANGERS.get(piece.program or "")
    if reader is None:
        if piece.program in CONTAINER_PROGRAMS:
            if mounts(piece.program, piece.args) is not None:
                return Changed(whole=written) if written else NOTHING  # all below a mount
            into = copied_into(piece.program, piece.args)
            if into:  # `docker cp c:/x/. DIR`: all below DIR
                return Changed(written, into)
        if piece.program in READ_ONLY or not written:
            return NOTHING
        if is_python(piece.program or ""):  # `-m zipfile -e A DIR`: all below DIR too
            return Changed(written, unpacks_into(piece.args))
        if piece.program in BACKUP_TOOLS:  # `restic restore latest --target DIR`: DIR
            return Changed(written, restored_into(piece.args, written))
        return _new_tuple(Changed, (written, ()))  # (made for most pieces: no keyword call)
    found = reader(piece, places)
    return found
