"""What unpacking and packing change: ``tar``, ``unzip``, ``7z``, ``cpio``, ``unrar``,
``ar``: the folders they unpack into (or the members named), the archives they write, and
the files they delete once packed.
"""

from __future__ import annotations

from amplifier_hooks.guard.changedpaths import NOTHING, Changed, last_of, operand_words, table_read
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.table.archivers import packed_into, unpacked_into
from amplifier_hooks.guard.table.archives import zip_call

__all__ = ["PACKERS", "archiver_changes", "packed_and_deleted", "seven_zip_changes", "tar_changes",
           "unzip_changes", "zip_changes"]  # fmt: skip


def tar_changes(piece: Piece, places: Places) -> Changed:
    read = table_read("tar", piece.args)  # (the old dashless form too: `tar xzf a.tgz`)
    into = last_of(read.values("into"))
    words = operand_words(read.operands)
    if read.has("extract"):
        if read.has("stdout"):
            return NOTHING  # `tar -xOf`: to its output
        folder = (into or ".").rstrip("/") or "/"
        members = tuple(f"{folder}/{m}" for m in words if m[:1] != "/")
        return Changed(whole=members or (into or ".",))  # named members: only they
    removed = tuple(m if m[:1] == "/" or into is None else f"{into.rstrip('/')}/{m}"
                    for m in words) if read.has("remove") else ()  # fmt: skip
    archive = last_of(read.values("archive"))
    if (read.has("create") or read.has("change")) and archive:
        return Changed(content=(archive,), whole=removed)
    return Changed(whole=removed) if removed else NOTHING


def unzip_changes(piece: Piece, places: Places) -> Changed:
    read = table_read("unzip", piece.args)
    if read.has("list"):
        return NOTHING  # lists, tests or prints: extracts nothing
    return Changed(whole=(read.values("into") or (".",))[-1:])


def seven_zip_changes(piece: Piece, places: Places) -> Changed:
    """``7z x A -oDIR``: unpacks into DIR (or here); ``7z a A F``: writes A (and with
    ``-sdel`` deletes F)."""
    read = table_read(piece.program or "7z", piece.args)
    command = read.operands[0].lower() if read.operands else ""
    if command in ("x", "e"):
        into = read.values("into") or (".",)
        return NOTHING if read.has("stdout") else Changed(whole=into[-1:])
    if command in ("a", "u", "d", "rn"):
        names = operand_words(read.operands[2:]) if read.has("remove") else ()
        return Changed(content=read.operands[1:2], whole=names)
    return NOTHING


def archiver_changes(piece: Piece, places: Places) -> Changed:
    """``cpio -i -D DIR``, ``cpio -p DIR``, ``unrar x A DIR/``, ``ar --output=DIR x A``:
    the folders they unpack into; ``cpio -o -F A``, ``ar r A F``: the archive they write."""
    program = piece.program or "cpio"
    read = table_read(program, piece.args)
    into = unpacked_into(program, read)
    return Changed(content=packed_into(program, read), whole=operand_words(into))


def zip_changes(piece: Piece, places: Places) -> Changed:
    """``zip A F``: writes A; with ``-m`` deletes F once packed."""
    call = zip_call(piece.args)
    if isinstance(call, str):
        return NOTHING
    return Changed(content=(call.archive,), whole=operand_words(call.members) if call.moves else ())


PACKERS = {"tar": tar_changes, "bsdtar": tar_changes, "gtar": tar_changes, "zip": zip_changes,
           "7z": seven_zip_changes, "7za": seven_zip_changes, "7zz": seven_zip_changes,
           "7zr": seven_zip_changes}  # fmt: skip
"""The packers that can delete what they pack (``tar --remove-files``, ``zip -m``, ``7z a
-sdel``)."""


def packed_and_deleted(piece: Piece, places: Places) -> tuple[str, ...]:
    """The files ``piece`` deletes once it has packed them (none: it deletes nothing)."""
    changes = PACKERS.get(piece.program or "")
    if changes is None:
        return ()
    if piece.program != "zip":
        read = table_read(piece.program or "tar", piece.args)
        command = read.operands[0].lower() if read.operands else ""
        if not read.has("remove") or read.has("extract") or command in ("x", "e"):
            return ()  # an unpack's members are written over, not deleted (`places`)
    return changes(piece, places).whole
