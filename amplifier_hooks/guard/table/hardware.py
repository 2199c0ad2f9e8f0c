"""Programs a systems developer looks at devices, disk images and a cluster's queue with,
in the modes that only print: a device's properties (``udevadm info``), an image's format
and backing chain (``qemu-img info``, ``check``, ``compare``, ``map``) and slurm's reports
(``squeue``, ``sinfo``, ``sacct``, ``sstat``, ``sprio``, ``sshare``).

Every other mode (``udevadm trigger``, ``qemu-img convert``/``check -r``, a report's
option not listed) is doubtful, so nothing is granted and the rules that speak for the
program still do. None of their operands is a file they write: a device or an image is
read, a user, job or partition is a name.
"""

from __future__ import annotations

from amplifier_hooks.guard.table.acts import Act, Does, Reading, doubtful
from amplifier_hooks.guard.table.entries import Entry, entry, option_acts
from amplifier_hooks.guard.table.options import Read, opts

__all__ = ["HARDWARE"]

_LOOKS = Reading()

_UDEVADM_INFO = opts(
    "-q,--query= --property= --value -p,--path= -n,--name= -r,--root -a,--attribute-walk "
    "-t,--tree -x,--export -P,--export-prefix= -d,--device-id-of-file= -e,--export-db "
    "-w,--wait-for-initialization=? --no-pager -h,--help -V,--version",
    permute=True,
)
"""``udevadm info``'s options; ``-c``/``--cleanup-db`` (deletes the database) is not listed."""


def _udevadm(args: tuple[str, ...]) -> Reading:
    """``udevadm info [OPTIONS] [DEVICE...]``: every other command (trigger, control,
    settle, test) changes or waits on the device manager."""
    if args[:1] != ("info",):
        return doubtful("udevadm changes devices unless it shows their info")
    return entry(_UDEVADM_INFO, Does.READ)(args[1:])


_QEMU_IMG = opts(
    "-f= -F= --backing-chain --output= -U,--force-share --image-opts --object= -q -s "
    "-T= --cache= -h,--help -V,--version",
    permute=True,
)
_QEMU_LOOKS = frozenset({"info", "check", "compare", "map", "measure"})
"""qemu-img's commands that print (``check`` without ``-r``, which repairs)."""


_QEMU_CREATE = opts("-f= -F= -b=:read -u -q --object=:doubt -o=:doubt -h,--help", permute=True)
"""``qemu-img create``'s options: ``-b`` names the backing image, which an overlay only
reads (``-o`` can name an external data file it writes, ``--object`` a secret's file)."""


def _qemu_create(read: Read) -> Reading:
    """``qemu-img create [-f F] [-F F] [-b BACKING] IMAGE [SIZE]``: IMAGE is written, the
    backing image read, SIZE is a size."""
    if not read.operands or len(read.operands) > 2:
        return doubtful("qemu-img create takes an image and a size")
    return Reading((*option_acts(read), Act(Does.WRITE, read.operands[0])))


def _qemu_img(args: tuple[str, ...]) -> Reading:
    """``qemu-img info|check|compare|map|measure [OPTIONS] IMAGE...``: the images are read;
    ``create`` writes its image (a backing image is read); convert, resize, commit, rebase,
    amend, snapshot and ``check -r`` write."""
    if args[:1] == ("create",):
        return entry(_QEMU_CREATE, Does.WRITE, _qemu_create)(args[1:])
    if not args or args[0] not in _QEMU_LOOKS:
        return doubtful("qemu-img writes an image unless it only prints")
    return entry(_QEMU_IMG, Does.READ)(args[1:])


_SLURM_REPORT = opts(
    "-u,--user= -A,--account= -j,--jobs= -p,--partition= -t,--states= --state= -o,--format= "
    "-O,--Format= -h,--noheader -l,--long -a,--all -r,--array -s,--steps=? -S,--sort= "
    "-w,--nodelist= -n,--name= -q,--qos= --me -i,--iterate= -v,--verbose --start "
    "-M,--clusters= -L,--licenses= -R,--reservation= --json --yaml -N,--Node -e,--exact "
    "-X,--allocations --starttime= -E,--endtime= -b,--brief -P,--parsable --parsable2 "
    "-d,--dead -D,--duplicates --responding --noconvert --help --usage "
    "-V,--version",
    permute=True,
)
"""The options of slurm's reports: they print jobs, nodes, partitions and accounting; the
values are names (users, jobs, partitions), not files."""


def _no_operands(read: Read) -> Reading | None:
    return doubtful("a slurm report takes no operands") if read.operands else _LOOKS


HARDWARE: dict[str, Entry] = {
    "udevadm": _udevadm,
    "qemu-img": _qemu_img,
    **{name: entry(_SLURM_REPORT, None, _no_operands)
       for name in ("squeue", "sinfo", "sacct", "sstat", "sprio", "sshare")},
}  # fmt: skip
"""The table's entries of this family: read in full, they write no file."""
