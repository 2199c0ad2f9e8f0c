"""Programs that delete, other than rm: overwriting first (``shred``, ``srm``, ``wipe``) or
moving to the trash (``trash``, ``trash-put``, ``gio trash``, ``gio remove``).

None of them is granted by the pack (shred and srm are denied outright); they are read
here so that the rules and what a call changes (`places`) see their operands as the
program does: an option's value is not a file it deletes, and a folder it moves the
files into (``trash-put --trash-dir``) is one it writes. Where an option's value is not
certain it is read as taking none, so its words stay operands (deleted, for the rules).
"""

from __future__ import annotations

from amplifier_hooks.guard.table.acts import Does, Reading, acts_of, doubtful
from amplifier_hooks.guard.table.entries import Entry, entry, option_acts
from amplifier_hooks.guard.table.files import std
from amplifier_hooks.guard.table.options import Options, Read, opts

__all__ = ["GIO_REMOVING", "REMOVERS", "SPELLED", "removed"]

SHRED = opts(std("-f,--force -n,--iterations= --random-source=:read -s,--size= -u:remove",
                 "--remove=?:remove -v,--verbose -x,--exact -z,--zero"))  # fmt: skip
"""GNU shred: overwrites each file, and with ``-u``/``--remove`` deletes it."""
SRM = opts(
    "-d,--directory -f,--force -i,--interactive -l -r,-R,--recursive -s,--simple -P,--openbsd "
    "-D,--dod -E,--doe -G,--gutmann -C,--rcmp -v,--verbose -x,--one-file-system -z,--zero "
    "-h,--help -V,--version"
)
"""srm (secure-delete's and srm's, which share their letters): overwrites, then deletes."""
TRASH = opts(
    "-d,--directory -f,--force -i,--interactive -r,-R,--recursive --trash-dir=:write "
    "-v,--verbose -h,--help --version"
)
"""trash-cli's ``trash-put`` (also ``trash``; argparse: unique prefixes): moves each file
into the trash, or the folder ``--trash-dir`` names."""
GIO = opts(
    "-f,--force --empty:empty --list:list --restore:restore -h,--help",
    abbreviations=False,
)
"""``gio trash`` and ``gio remove`` (GLib's option parser: long options in full)."""
WIPE = opts("-r,-R -f -i -I -c -s -q -Q -a -l -o -b -p -x -k:keep -D -v -V -e -X -Z -t -T -h",
            abbreviations=False)  # fmt: skip
"""wipe: overwrites, then deletes (but with ``-k``). Its options that take a value
(``-Q 4``, ``-l 1K``) are read as taking none: their words stay operands."""
GIO_REMOVING = frozenset({"trash", "remove"})
"""gio's subcommands that delete their operands."""


def _shred(read: Read) -> Reading:
    acts = option_acts(read) + acts_of(Does.WRITE, read.operands)
    if read.has("remove"):
        acts += acts_of(Does.DELETE, read.operands)
    return Reading(acts)


def _wipe(read: Read) -> Reading:
    acts = acts_of(Does.WRITE, read.operands)
    return Reading(acts if read.has("keep") else acts + acts_of(Does.DELETE, read.operands))


def _gio(read: Read) -> Reading:
    sub, files = read.operands[:1], read.operands[1:]
    if not sub or sub[0] not in GIO_REMOVING:
        return doubtful(f"gio {sub[0] if sub else ''} is not in the guard's table".strip())
    if read.has("empty") or read.has("restore"):
        return doubtful("gio trash --empty or --restore changes files the call does not name")
    if read.has("list"):
        return Reading()
    return Reading(acts_of(Does.DELETE, files))


def removed(program: str, read: Read) -> tuple[str, ...]:
    """The words of the paths a remover (one of `REMOVERS`) deletes or moves away as a
    whole, or moves files into; gio's other subcommands (``gio move``, ``gio copy``)
    change each operand after the subcommand."""
    if program == "gio":
        return read.operands[1:]
    return (*read.operands, *read.values("write"))


REMOVERS: dict[str, Entry] = {
    "shred": entry(SHRED, None, _shred), "srm": entry(SRM, Does.DELETE),
    "trash": entry(TRASH, Does.DELETE), "trash-put": entry(TRASH, Does.DELETE),
    "gio": entry(GIO, None, _gio), "wipe": entry(WIPE, None, _wipe),
}  # fmt: skip
SPELLED: dict[str, Options] = {"shred": SHRED, "srm": SRM, "trash": TRASH, "trash-put": TRASH,
                               "gio": GIO, "wipe": WIPE}  # fmt: skip
"""The options the rules and `places` read of these programs (`table.spelled`)."""
