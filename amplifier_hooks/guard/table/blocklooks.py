"""Programs a systems developer looks at block devices, encrypted volumes and btrfs with,
in the modes that only print: the block devices and their file systems (``lsblk -f
/dev/sdb``), an encrypted volume's state or header (``cryptsetup status NAME``,
``cryptsetup luksDump DEVICE``), its ciphers' speed (``cryptsetup benchmark``) and btrfs's
subvolumes and space (``btrfs subvolume list /``, ``btrfs filesystem df /``).

Every other mode (``cryptsetup luksFormat``, ``open``, ``erase``; ``luksDump
--dump-volume-key``, which prints the volume's key; ``btrfs subvolume delete``, ``balance``)
or an option not listed is doubtful, so nothing is granted and the rules that speak for the
program by name (`disk-format`, `volume-subvolume-delete`) still do. Their operands are
devices, mapping names and mount points they read, never a file they write.
"""

from __future__ import annotations

from amplifier_hooks.guard.table.acts import Does, Reading, acts_of, doubtful
from amplifier_hooks.guard.table.entries import Entry, entry
from amplifier_hooks.guard.table.options import opts, read_options

__all__ = ["BLOCK_LOOKS"]

_LSBLK = opts(
    "-a,--all -b,--bytes -D,--discard -d,--nodeps -E,--dedup= -e,--exclude= -f,--fs "
    "-h,--help -I,--include= -i,--ascii -J,--json -l,--list -M,--merge -m,--perms "
    "-n,--noheadings -o,--output= -O,--output-all -P,--pairs -p,--paths -r,--raw "
    "-S,--scsi -s,--inverse -T,--tree=? -t,--topology -V,--version -w,--width= "
    "-x,--sort= -y,--shell -z,--zoned -A,--noempty -N,--nvme -v,--virtio -Q,--filter= "
    "--sysroot=:read"
)
"""lsblk's options: every one prints (``--sysroot`` names a folder it reads)."""

_CRYPTSETUP = opts(
    "-v,--verbose --debug --debug-json --dump-json-metadata --header=:read "
    "--disable-locks --disable-external-tokens -h,--help -V,--version",
)
"""cryptsetup's options that change nothing a look prints; ``--dump-volume-key`` and
``--dump-master-key`` (print the volume's key), ``--volume-key-file`` (writes it), ``-q``
(skips the confirmation a change asks) and ``--uuid`` (sets it) are not listed."""
_CRYPT_LOOKS = frozenset({"status", "luksDump", "isLuks", "luksUUID", "tcryptDump",
                          "bitlkDump", "fvault2Dump"})  # fmt: skip
"""cryptsetup's actions that print a volume's state or header (the dumps print keys only
with the options not listed); every other one opens, closes, formats or changes it."""


def _cryptsetup(args: tuple[str, ...]) -> Reading:
    """``cryptsetup [OPTIONS] ACTION DEVICE|NAME``: only the actions that print."""
    read = read_options(_CRYPTSETUP, args)
    if read.doubt is not None:
        return doubtful(read.doubt)
    words = read.operands
    if tuple(words) == ("benchmark",):
        return Reading(())  # its ciphers' speed, measured in memory
    if not words or words[0] not in _CRYPT_LOOKS or len(words) != 2:
        return doubtful("cryptsetup changes a volume unless it prints one's state or header")
    return Reading(acts_of(Does.READ, (*read.values("read"), *words[1:])))


_BTRFS_SHOW = opts(
    "-a -c -C -d -f -g -G -h -m -o -p -q -r -R -s -t -u -b,--raw --human-readable --iec "
    "--si -k,--kbytes --mbytes --gbytes --tbytes -T --sort= --rootid= --uuid= -i -v "
    "--help"
)
"""The options of btrfs's listings (``subvolume list -s -o``, ``filesystem df -h``, ``device
stats -c``): each filters or formats what is printed. ``device stats -z`` (resets the
counters) is not listed."""
_BTRFS_LOOKS = {
    "subvolume": frozenset({"list", "show", "get-default"}),
    "filesystem": frozenset({"show", "df", "usage", "du"}),
    "device": frozenset({"stats", "usage"}),
    "qgroup": frozenset({"show"}),
    "scrub": frozenset({"status"}),
    "balance": frozenset({"status"}),
}
"""btrfs's groups and the commands of each that print (written in full: btrfs reads a
unique prefix of each, ``su li``, which is left doubtful)."""


def _btrfs(args: tuple[str, ...]) -> Reading:
    """``btrfs GROUP COMMAND [OPTIONS] PATH...``: the listings; every other command (delete,
    snapshot, balance start, property set, ...) changes the pool."""
    looks = _BTRFS_LOOKS.get(args[0]) if args else None
    if looks is None or args[1:2] == () or args[1] not in looks:
        return doubtful("btrfs changes a pool unless it lists or shows it")
    return entry(_BTRFS_SHOW, Does.READ)(args[2:])


BLOCK_LOOKS: dict[str, Entry] = {
    "lsblk": entry(_LSBLK, Does.READ),
    "cryptsetup": _cryptsetup,
    "btrfs": _btrfs,
}
"""The table's entries of this family: read in full, they write no file."""
