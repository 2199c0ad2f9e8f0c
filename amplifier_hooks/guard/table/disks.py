"""Programs an administrator looks at disks, packages, users and tunnels with, in the modes
that only print: the partition table (``fdisk -l``, ``parted -l``, ``diskutil list``),
a disk's signatures (``wipefs DEVICE``, ``wipefs -n -a``), a disk's health
(``smartctl -H``), block ids and volumes (``blkid``, ``lvs``), a file's
attributes (``lsattr``), the kernel's ring buffer (``dmesg``), the firewall's rules
(``nft list``), a tunnel's state (``wg show``), the user database (``getent``) and which
package owns a file (``dpkg -S``).

Every other mode (a partition written, a self-test started, the ring buffer cleared, a
rule added, a tunnel's private key printed, a package installed) or an option not listed
is doubtful, so nothing is granted and the rules that speak for the program by name
(`disk-format`, `privilege`) still do. None of their operands is a file they write.
"""

from __future__ import annotations

from amplifier_hooks.guard.table.acts import Does, Reading, acts_of, doubtful
from amplifier_hooks.guard.table.entries import Entry, entry
from amplifier_hooks.guard.table.options import Read, opts

__all__ = ["DISKS"]

_LOOKS = Reading()


def _listing(read: Read) -> Reading | None:
    """``fdisk -l [DEVICE...]``: without -l fdisk edits the partition table."""
    if not read.has("list"):
        return doubtful("without -l it edits the partition table")
    return None


_FDISK = opts(
    "-l,--list:list -x,--list-details:list -u,--units=? -o,--output= -b,--sector-size= "
    "-L,--color=? -h,--help:list -V,--version:list --bytes"
)
_SFDISK = opts(
    "-l,--list:list -d,--dump:list -J,--json:list -s,--show-size:list -F,--list-free:list "
    "-o,--output= --bytes -h,--help:list -v,--version:list"
)

_WIPEFS = opts(
    "-a,--all:erase -o,--offset=:erase -n,--no-act:no-act -f,--force -J,--json -i,--noheadings "
    "-O,--output= -p,--parsable -q,--quiet -t,--types= --lock=? -h,--help -V,--version"
)
"""wipefs's options; ``-b``/``--backup`` (writes each erased signature to a file in the home
folder) is not listed."""


def _wipefs(read: Read) -> Reading | None:
    """``wipefs DEVICE`` lists the signatures; ``-a``/``-o`` erase them unless ``-n``."""
    if read.has("erase") and not read.has("no-act"):
        return doubtful("wipefs -a or -o erases signatures")
    return None


_PARTED = opts("-l,--list:list -s,--script -m,--machine -h,--help:list -v,--version:list",
               permute=False)  # fmt: skip


_PRINT_WHAT = frozenset({"free", "all", "devices", "list"})


def _parted(read: Read) -> Reading | None:
    """``parted -l`` or ``parted [-s] DEVICE [unit UNIT] print [free]``: any other command
    writes the disk."""
    if read.has("list"):
        return None if not read.operands else doubtful("parted -l takes no operands")
    words = read.operands
    rest = list(words[1:])
    if rest[:1] == ["unit"] and len(rest) > 2:
        rest = rest[2:]
    if rest[:1] == ["print"] and (len(rest) == 1 or (len(rest) == 2 and rest[1] in _PRINT_WHAT)):
        return Reading(acts_of(Does.READ, words[:1]))
    return doubtful("parted changes a disk unless it only prints")


_SGDISK = opts(
    "-p,--print:list -v,--verify:list -i,--info=:list -O,--print-mbr:list -b,--backup=:write "
    "-L,--list-types:list -h,--help:list -V,--version:list -?"
)
"""sgdisk's options that print a disk's table or save it to a file (``--backup=FILE``);
every option that changes the table (``-n``, ``-d``, ``-Z``, ``-o``, ``-l`` loading a
backup, ...) is not listed."""


def _sgdisk(read: Read) -> Reading | None:
    if not read.given or len(read.operands) != 1:
        return doubtful("sgdisk changes a disk unless it prints or saves one table")
    return None


_APFS_LISTS = frozenset({"list", "listSnapshots", "listVolumeGroups"})
"""``diskutil apfs`` verbs that print; the others add, delete, resize or encrypt volumes."""


_FILTERS = frozenset({"internal", "external", "physical", "virtual"})
"""``diskutil list``'s filters of the disks it prints."""


def _diskutil(args: tuple[str, ...]) -> Reading:
    """``diskutil list|info [-plist] [DISK]``, ``diskutil apfs list [DISK]``: every other
    verb mounts, erases or repartitions."""
    if args[:1] == ("apfs",) and args[1:2] and args[1] in _APFS_LISTS:
        args = ("list", *args[2:])
    if not args or args[0] not in ("list", "info"):
        return doubtful("diskutil changes disks unless it lists them")
    rest = [a for a in args[1:] if a != "-plist" and (args[0] != "list" or a not in _FILTERS)]
    if len(rest) > 1 or any(a.startswith("-") for a in rest):
        return doubtful("diskutil list takes one disk")
    return Reading(acts_of(Does.READ, rest))


_SMARTCTL = opts(
    "-H,--health -i,--info -a,--all -x,--xall -A,--attributes -c,--capabilities "
    "-l,--log= -j,--json=? -d,--device= -q,--quietmode= --scan --scan-open "
    "-h,--help --version -V -n,--nocheck="
)
"""smartctl's options that print; ``-s`` (SMART on/off), ``-o``, ``-S`` (settings), ``-t``
(a self-test), ``-X`` (abort one) and ``-g``/``--set`` are not listed."""

_BLKID = opts(
    "-o,--output= -s,--match-tag= -t,--match-token= -l,--list-one -p,--probe -i,--info "
    "-L,--label= -U,--uuid= -k,--list-filesystems -d,--no-encoding -h,--help -V,--version"
)
"""blkid's options that print; ``-g`` (collect the cache's garbage), ``-c FILE`` (its cache
file, written) and ``-w`` are not listed."""

_LVM_REPORT = opts(
    "-a,--all -o,--options= -O,--sort= -S,--select= --units= --noheadings --nosuffix "
    "--separator= --reportformat= --binary --aligned --unbuffered --nameprefixes --rows "
    "--segments -P,--partial -v,--verbose -q,--quiet -h,--help --version --readonly "
    "--nolocking --foreign --shared"
)
"""The options of lvm's reports (``lvs``, ``vgs``, ``pvs`` and their ``*display``): they
only print; their operands are volume names, not files."""

_LSATTR = opts("-R -V -a -d -l -p -v")
_GETFACL = opts(
    "-a,--access -d,--default -c,--omit-header -e,--all-effective -E,--no-effective "
    "-s,--skip-base -R,--recursive -L,--logical -P,--physical -t,--tabular -n,--numeric "
    "-p,--absolute-names -v,--version -h,--help"
)  # fmt: skip
"""getfacl's options: it prints the access lists of the files it is given."""
_GETCAP = opts("-r -v -n=")
"""getcap's: it prints the capabilities of the files (``-r``: below the folders)."""
_NFS4_GETFACL = opts("-R -H -c -i -?")

_DMESG = opts(
    "-l,--level= -f,--facility= -T,--ctime -H,--human -t,--notime -k,--kernel "
    "-u,--userspace -x,--decode -L,--color=? -w,--follow -W,--follow-new -e,--reltime "
    "-P,--nopager -r,--raw -d,--show-delta -S,--syslog --time-format= --since= --until= "
    "-J,--json -p,--force-prefix -h,--help -V,--version"
)
"""dmesg's options that print; ``-c``/``-C`` (clear the buffer), ``-D``/``-E`` (console
logging off/on), ``-n`` (console level) and ``-F``/``-K`` (another file) are not listed."""


def _no_operands(read: Read) -> Reading | None:
    return doubtful("it takes no operands") if read.operands else _LOOKS


_NFT = opts(
    "-a,--handle -n,--numeric -s,--stateless -j,--json -t,--terse -N,--reversedns "
    "-y,--numeric-priority -T,--numeric-time -S,--service -c,--check:check -f,--file=:file",
    permute=False,
)


def _nft(read: Read) -> Reading | None:
    """``nft list ...`` and ``nft -c -f FILE`` (a file checked, not applied): every other
    command (add, delete, flush, -f FILE without -c) changes rules."""
    words = read.operands
    files = read.values("file")
    if files:
        if not read.has("check") or words:
            return doubtful("nft -f applies the file's rules unless -c checks them")
        return Reading(acts_of(Does.READ, files))
    if not words or words[0] != "list" or any(w.startswith("-") for w in words):
        return doubtful("nft changes the firewall unless it lists")
    return _LOOKS


_WG_FIELDS = frozenset({"public-key", "listen-port", "fwmark", "peers", "endpoints",
                        "allowed-ips", "latest-handshakes", "transfer",
                        "persistent-keepalive"})  # fmt: skip
"""``wg show`` fields that hold no secret: ``private-key``, ``preshared-keys`` and ``dump``
print the tunnel's keys (as ``showconf`` does)."""


def _wg(args: tuple[str, ...]) -> Reading:
    """``wg``, ``wg show [IFACE|all|interfaces] [FIELD]``: every other command changes it."""
    if not args:
        return _LOOKS
    if args[0] != "show" or len(args) > 3:
        return doubtful("wg changes a tunnel or prints its keys unless it shows")
    if len(args) == 3 and args[2] not in _WG_FIELDS:
        return doubtful(f"wg show {args[2]} prints keys or is not read")
    if any(a.startswith("-") for a in args[1:]):
        return doubtful("wg show takes an interface and a field")
    return _LOOKS


_GETENT = opts("-s,--service= -i,--no-idn -h,--help -V,--version")
_DATABASES = frozenset({"passwd", "group", "hosts", "ahosts", "ahostsv4", "ahostsv6",
                        "services", "protocols", "networks", "netgroup", "rpc", "ethers",
                        "aliases", "initgroups"})  # fmt: skip
"""getent's databases that hold no secret (``shadow`` and ``gshadow`` hold password hashes)."""


def _getent(read: Read) -> Reading | None:
    if not read.operands or read.operands[0] not in _DATABASES:
        return doubtful("getent reads this database only as root, or it is not read")
    return _LOOKS


_DPKG = opts(
    "-S,--search -L,--listfiles -l,--list -s,--status "
    "-p,--print-avail --print-architecture --print-foreign-architectures "
    "--get-selections -C,--audit --help --version",
    permute=False,
)
"""dpkg's queries; every other action (install, remove, purge, configure, a --force-*)
is not listed, so it is doubtful."""


def _dpkg(read: Read) -> Reading | None:
    if len(read.given) != 1 or any(o.startswith("-") for o in read.operands):
        return doubtful("dpkg changes packages unless it is given one query")
    return _LOOKS


DISKS: dict[str, Entry] = {
    "fdisk": entry(_FDISK, Does.READ, _listing),
    "sfdisk": entry(_SFDISK, Does.READ, _listing),
    "parted": entry(_PARTED, None, _parted),
    "sgdisk": entry(_SGDISK, Does.READ, _sgdisk),
    "wipefs": entry(_WIPEFS, Does.READ, _wipefs),
    "diskutil": _diskutil,
    "smartctl": entry(_SMARTCTL, Does.READ),
    "blkid": entry(_BLKID, Does.READ),
    **{name: entry(_LVM_REPORT, None) for name in ("lvs", "vgs", "pvs", "lvdisplay",
                                                      "vgdisplay", "pvdisplay")},
    "lsattr": entry(_LSATTR, Does.READ),
    "getfacl": entry(_GETFACL, Does.READ),
    "getcap": entry(_GETCAP, Does.READ),
    "nfs4_getfacl": entry(_NFS4_GETFACL, Does.READ),
    "dmesg": entry(_DMESG, None, _no_operands),
    "nft": entry(_NFT, None, _nft),
    "wg": _wg,
    "getent": entry(_GETENT, None, _getent),
    "dpkg": entry(_DPKG, None, _dpkg),
    "dpkg-query": entry(_DPKG, None, _dpkg),
}  # fmt: skip
"""The table's entries of this family: read in full, they write no file."""
