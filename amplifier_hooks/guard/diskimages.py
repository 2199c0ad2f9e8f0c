"""Disk tools that touch no disk: an image file in the workspace, or a table printed.

``mkfs.ext4 build/rootfs.ext4 256M``, ``parted -s build/disk.img mklabel gpt`` and
``sfdisk build/disk.img < layout`` format or partition a regular file, which is how a
firmware or OS image is built; ``sfdisk -d /dev/sdb > backup/sdb.sfdisk`` only prints the
table into a file. The pack's `disk-format` rule speaks for these programs by name, so a
call that writes no disk is marked `DISK_UNTOUCHED` and the rule leaves it alone; where its
output goes is judged as every write is.

A call is marked when the table reads it in full and finds only looks and writes of files
that are no device (the redirection aside, ``sgdisk --backup=FILE``: judged as writes), or
when every word it is given, resolved as a path (links followed, ``cd`` tracked), is a
place inside the workspace that is not a device: no word is known only at run time, none
is under ``/dev`` or outside the workspace. ``diskutil`` names disks by their identifiers
(``disk2``), not paths, so it is never marked."""

from __future__ import annotations

from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.paths import locate
from amplifier_hooks.guard.readsonly import reads_only
from amplifier_hooks.guard.table import Does, read_call

__all__ = ["DISK_TOOLS", "DISK_UNTOUCHED", "mark_disk_images"]

DISK_UNTOUCHED = "@disk-untouched"
DISK_TOOLS = frozenset(
    {"mkfs", "mkfs.ext2", "mkfs.ext3", "mkfs.ext4", "mkfs.xfs", "mkfs.btrfs", "mkfs.vfat",
     "mkfs.fat", "mkfs.msdos", "mkfs.exfat", "mkfs.ntfs", "mkfs.f2fs", "mke2fs", "mkswap",
     "mkdosfs", "wipefs", "fdisk", "sfdisk", "cfdisk", "gdisk", "sgdisk", "parted",
     "cryptsetup"}
)  # fmt: skip
"""The disk tools whose operands are paths (`disk-format` names them with diskutil's)."""
_IN_WORKSPACE = frozenset({"inside_workspace"})


def mark_disk_images(pieces: tuple[Piece, ...], places: Places) -> tuple[Piece, ...]:
    """``pieces`` with each disk tool's call that writes no disk marked `DISK_UNTOUCHED`."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if piece.program not in DISK_TOOLS or piece.tool != "bash" or reads_only(piece):
            continue  # (a look needs no mark: `disk-format` already leaves it alone)
        if _untouched(piece, places):
            out = out or list(pieces)
            out[index] = piece._replace(wrappers=(*piece.wrappers, DISK_UNTOUCHED))
    return pieces if out is None else tuple(out)


def _untouched(piece: Piece, places: Places) -> bool:
    if piece.dynamic or piece.opaque is not None:
        return False
    program = piece.program or ""
    reading = read_call(program, piece.args)
    if reading.doubt is None and all(
        act.does is Does.READ or (act.does is Does.WRITE and not _device(act.target, piece, places))
        for act in reading.acts
    ):
        return True  # a look (`sfdisk -d /dev/sdb`, `sgdisk -b F /dev/sdb`): no disk written
    words = [w for arg in piece.args for w in _candidates(arg)]
    if not any("/" in w or "." in w for w in words):
        return False  # no word names a file: the device may be a default or elsewhere
    for word in words:
        where = locate(word, piece.cwd, places).where
        if "device" in where or not _IN_WORKSPACE & where:
            return False
    return True


def _device(target: str, piece: Piece, places: Places) -> bool:
    return not target or "device" in locate(target, piece.cwd, places).where


def _candidates(arg: str) -> list[str]:
    """The words of ``arg`` that may name a file: itself unless an option, the value after
    its last ``=`` (``-J device=/dev/sdc``, ``--offset=..``), a short option's glued value."""
    found = [] if arg.startswith("-") else [arg]
    if "=" in arg:
        found.append(arg.rsplit("=", 1)[1])
    if arg.startswith("-") and not arg.startswith("--") and len(arg) > 2:
        found.append(arg[2:])
    return [w for w in found if w and not w.startswith("-")]
