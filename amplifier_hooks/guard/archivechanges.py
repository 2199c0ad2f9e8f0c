"""What unpacking and packing change: ``tar``, ``unzip``, ``7z``, ``cpio``, ``unrar``,
``ar``: the folders they unpack into (or the members named), the archives they write, and
the files they delete once packed.
"""

from __future__ import annotations

from amplifier_hooks.guard.changedpaths import NOTHING, Changed, last_of, operand_words, table_read
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.table.archivers import packed_into, unpacked_into

__all__ = ["archiver_changes", "seven_zip_changes", "tar_changes", "unzip_changes"]


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
