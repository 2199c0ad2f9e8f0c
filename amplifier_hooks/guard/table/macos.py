"""macOS's own programs, in the modes that only look: a file's Spotlight metadata
(``mdls``), a Spotlight search (``mdfind``), the index's state (``mdutil -s``), Time
Machine's snapshots and backups (``tmutil listlocalsnapshots``), launchd's jobs
(``launchctl print``, ``list``), preferences read (``defaults read``), a property list
printed or checked (``plutil -p``,
``-lint``), a file's extended attributes (``xattr``, ``xattr -p NAME F``), the local
directory's records (``dscl . -read /Users/ada``), a disk image attached where macOS
mounts it (``hdiutil attach IMG -nobrowse``, ``detach``), and ``ditto``,
which copies like ``rsync`` (its destination is merged into, so it is written whole).

These programs spell their options with one dash and a whole word (``-name``,
``-onlyin``), which getopt does not read: each is read here word by word. Every other
mode (a snapshot deleted, a job loaded, a plist converted in place, an attribute
written or removed) or a word the entry does not list is doubtful, so nothing is
granted and the pack's rules on the program by name still speak.
"""

from __future__ import annotations

from collections.abc import Mapping

from amplifier_hooks.guard.table.acts import Act, Does, Reading, acts_of, doubtful
from amplifier_hooks.guard.table.entries import Entry

__all__ = ["DITTO", "MACOS", "MACOS_LOOKERS", "ditto_read", "mount_points"]

_LOOKS = Reading()


def _words(program: str, args: tuple[str, ...], flags: frozenset[str],
           valued: Mapping[str, Does | None]) -> Reading | tuple[list[Act], list[str]]:  # fmt: skip
    """``args`` read as one-dash word options: ``flags`` take no value, ``valued`` take
    the next word (a path the option reads or writes, or None: no path). The acts of the
    options, and the operands; a doubtful reading for a word not listed."""
    acts: list[Act] = []
    operands: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if word == "--":
            operands.extend(args[index:])
            break
        if word[:1] != "-" or word == "-":
            operands.append(word)
        elif word in flags:
            continue
        elif word in valued:
            if index >= len(args):
                return doubtful(f"{program} {word} needs a value")
            does = valued[word]
            if does is not None:
                acts.append(Act(does, args[index]))
            index += 1
        else:
            return doubtful(f"{program} {word} is an option the guard does not read")
    return acts, operands


def _mdls(args: tuple[str, ...]) -> Reading:
    """``mdls [-name ATTR]... [-raw] [-nullMarker S] FILE...``: prints the files' metadata
    (``-plist FILE``, which writes it to FILE, is not listed)."""
    found = _words("mdls", args, frozenset({"-raw", "-r"}),
                   {"-name": None, "-n": None, "-nullMarker": None})  # fmt: skip
    if isinstance(found, Reading):
        return found
    acts, operands = found
    if not operands:
        return doubtful("mdls needs a file")
    return Reading((*acts, *acts_of(Does.READ, operands)))


def _mdfind(args: tuple[str, ...]) -> Reading:
    """``mdfind [-onlyin DIR] [-name NAME | QUERY]``: prints the paths Spotlight's index
    finds. Its operands are a query, not paths; ``-onlyin``'s folder is read."""
    found = _words("mdfind", args, frozenset({"-live", "-count", "-0", "-literal",
                                              "-interpret"}),
                   {"-onlyin": Does.READ, "-name": None, "-attr": None})  # fmt: skip
    if isinstance(found, Reading):
        return found
    return Reading(tuple(found[0]))


def _mdutil(args: tuple[str, ...]) -> Reading:
    """``mdutil -s [-v] VOLUME...`` prints whether Spotlight indexes the volumes; its other
    modes switch indexing off (``-i off``) or erase the index (``-E``)."""
    if "-s" not in args or not set(a for a in args if a[:1] == "-") <= {"-s", "-v"}:
        return doubtful("mdutil changes the index unless it prints its status (-s)")
    return Reading(acts_of(Does.READ, [a for a in args if a[:1] != "-"]))


_TMUTIL_LOOKS = frozenset(
    {"listlocalsnapshots", "listlocalsnapshotdates", "status", "listbackups", "latestbackup",
     "destinationinfo", "isexcluded", "machinedirectory", "version", "help"}
)  # fmt: skip
"""tmutil's verbs that print; every other one deletes, thins, takes or restores a backup,
or changes Time Machine's settings."""


def _tmutil(args: tuple[str, ...]) -> Reading:
    if not args or args[0] not in _TMUTIL_LOOKS:
        return doubtful("tmutil changes backups or their settings unless it lists them")
    rest = args[1:]
    if any(a[:1] == "-" and a != "-X" for a in rest):
        return doubtful(f"tmutil {args[0]} is given an option the guard does not read")
    return Reading(acts_of(Does.READ, [a for a in rest if a[:1] != "-"]))


_LAUNCHCTL_LOOKS = frozenset(
    {"print", "list", "print-disabled", "print-cache", "blame", "version", "help",
     "managerpid", "manageruid", "managername", "hostinfo", "error"}
)  # fmt: skip
"""launchctl's verbs that print; every other one loads, starts, stops, removes or
submits a job, or sets launchd's environment for every later program."""


def _launchctl(args: tuple[str, ...]) -> Reading:
    """``launchctl print gui/501/LABEL``, ``launchctl list [LABEL]``: their operands name
    a domain or a job, not a file."""
    if not args or args[0] not in _LAUNCHCTL_LOOKS:
        return doubtful("launchctl changes launchd's jobs unless it prints them")
    if len(args) > 2 or any(a[:1] == "-" for a in args[1:]):
        return doubtful(f"launchctl {args[0]} takes one domain or job")
    return _LOOKS


def _defaults(args: tuple[str, ...]) -> Reading:
    """``defaults read [-currentHost] DOMAIN|PLIST [KEY]``, ``read-type``, ``domains``,
    ``find WORD``: preferences printed; ``write``, ``delete``, ``import`` and ``rename``
    change them."""
    rest = [a for a in args if a not in ("-currentHost", "-g", "-globalDomain")]
    if rest[:1] == ["domains"] and len(rest) == 1:
        return _LOOKS
    if rest[:1] == ["find"] and len(rest) == 2:
        return _LOOKS
    if rest[:1] not in (["read"], ["read-type"]) or len(rest) > 3:
        return doubtful("defaults changes preferences unless it reads them")
    if any(a[:1] == "-" for a in rest[1:]):
        return doubtful("defaults read takes a domain and a key")
    place = [a for a in rest[1:2] if "/" in a]  # (a plist's path; a domain names no file)
    return Reading(acts_of(Does.READ, place))


def _plutil(args: tuple[str, ...]) -> Reading:
    """``plutil -p FILE`` prints a property list, ``plutil -lint [-s] FILE...`` checks it;
    the other modes (``-convert``, ``-insert``, ``-replace``, ``-remove``, ``-extract``,
    ``-create``) rewrite the file in place or write another."""
    modes = [a for a in args if a[:1] == "-" and a != "-"]  # (a lone dash: its input)
    if modes in (["-help"], ["-h"]):
        return _LOOKS
    if modes not in (["-p"], ["-lint"], ["-lint", "-s"], ["-s", "-lint"]):
        return doubtful("plutil rewrites the file unless it prints (-p) or checks it (-lint)")
    files = [a for a in args if a[:1] != "-"]
    if not files or (modes == ["-p"] and len(files) != 1):
        return doubtful("plutil -p prints one file")
    return Reading(acts_of(Does.READ, files))


_XATTR_FLAGS = frozenset("lrsvx")
"""xattr's flags that only change how it prints (``-l`` long, ``-r`` recursive, ``-s`` the
link itself, ``-v`` names, ``-x`` hex); ``-w``, ``-d`` and ``-c`` write or remove."""


def _xattr(args: tuple[str, ...]) -> Reading:
    """``xattr [-lrsvx] FILE...`` lists the attributes, ``xattr -p [-lrsvx] NAME FILE...``
    prints one: its first operand is the attribute's name."""
    flags: set[str] = set()
    operands: list[str] = []
    for index, arg in enumerate(args):
        if arg == "--":
            operands.extend(args[index + 1 :])
            break
        if arg[:1] == "-" and len(arg) > 1:
            flags.update(arg[1:])
        else:
            operands.append(arg)
    if not flags <= _XATTR_FLAGS | {"p"}:
        return doubtful("xattr writes or removes attributes unless it prints them")
    if "p" in flags:
        operands = operands[1:]
    if not operands:
        return doubtful("xattr needs a file")
    return Reading(acts_of(Does.READ, operands))


_DSCL_LOOKS = frozenset({"-read", "-readall", "-readpl", "-list", "-search"})
"""dscl's commands that print records; ``-create``, ``-append``, ``-delete``, ``-passwd``
(and the rest) change accounts and groups."""
_DSCL_SOURCES = frozenset({".", "localhost", "/Local/Default", "/Search"})


def _dscl(args: tuple[str, ...]) -> Reading:
    """``dscl [-plist|-q|-raw] . -read|-list|-search PATH [KEY...]``: its operands are the
    directory's record paths (``/Users/ada``), not files. A password hash
    (``ShadowHashData``) is never a look."""
    words = list(args)
    while words and words[0] in ("-plist", "-q", "-raw"):
        words.pop(0)
    if len(words) < 2 or words[0] not in _DSCL_SOURCES or words[1] not in _DSCL_LOOKS:
        return doubtful("dscl changes the directory unless it reads from the local one")
    rest = words[2:]
    if any(w[:1] == "-" or "shadowhash" in w.lower() for w in rest):
        return doubtful("dscl is given a word the guard does not read")
    return _LOOKS


_HDIUTIL_FLAGS = {
    "info": frozenset({"-plist"}),
    "imageinfo": frozenset({"-plist", "-format", "-checksum"}),
    "verify": frozenset({"-quiet"}),
    "attach": frozenset({"-nobrowse", "-readonly", "-noverify", "-noautoopen", "-quiet",
                         "-plist", "-noautofsck"}),
    "detach": frozenset({"-quiet", "-force"}),
}  # fmt: skip
"""hdiutil's verbs that look at an image or mount one where macOS puts it (``/Volumes``),
and their flags; ``-mountpoint DIR`` (a mount over any folder, a protected one among
them), ``-shadow`` and the verbs that write an image (``create``, ``convert``,
``resize``, ``makehybrid``) are not listed."""


def _hdiutil(args: tuple[str, ...]) -> Reading:
    """``hdiutil attach IMAGE -nobrowse``, ``hdiutil detach /Volumes/X``, ``hdiutil info``:
    an image it attaches or looks at is read; detach's operand names a mounted volume."""
    flags = _HDIUTIL_FLAGS.get(args[0]) if args else None
    if flags is None:
        return doubtful("hdiutil writes an image unless it attaches, detaches or looks")
    rest = args[1:]
    if any(a[:1] == "-" and a not in flags for a in rest):
        return doubtful(f"hdiutil {args[0]} is given an option the guard does not read")
    operands = [a for a in rest if a[:1] != "-"]
    if len(operands) != (args[0] != "info"):
        return doubtful(f"hdiutil {args[0]} takes one image or volume")
    return Reading(acts_of(Does.READ, operands if args[0] != "detach" else ()))


def mount_points(args: tuple[str, ...]) -> tuple[str, ...]:
    """The folders ``hdiutil attach -mountpoint DIR`` (``-mountroot DIR``) mounts over or
    into: what was there is hidden, so they change as a whole."""
    return tuple(args[n + 1] for n, a in enumerate(args[:-1])
                 if a in ("-mountpoint", "-mountroot"))  # fmt: skip


_DITTO_FLAGS = frozenset(
    {"-v", "-V", "-X", "-c", "-x", "-k", "--rsrc", "--norsrc", "--extattr", "--noextattr",
     "--qtn", "--noqtn", "--acl", "--noacl", "--sequesterRsrc", "--keepParent",
     "--hfsCompression", "--nohfsCompression", "--preserveHFSCompression",
     "--nopreserveHFSCompression", "--nocache", "-z", "-j", "--clone",
     "--noclone"}
)  # fmt: skip
_DITTO_VALUED = {"--bom": Does.READ, "--arch": None, "--zlibCompressionLevel": None,
                 "--password": None}  # fmt: skip


def ditto_read(args: tuple[str, ...]) -> Reading:
    """``ditto SRC... DST`` copies into DST, merging with what is there (as ``rsync``):
    DST is written whole (a link may be placed in it, names not shown are written into
    it). ``-c`` writes an archive DST of SRC; ``-x`` unpacks the archive SRC into DST."""
    found = _words("ditto", args, _DITTO_FLAGS, _DITTO_VALUED)
    if isinstance(found, Reading):
        return found
    acts, operands = found
    if len(operands) < 2:
        return doubtful("ditto needs a source and a destination")
    *sources, destination = operands
    acts += acts_of(Does.READ, sources)
    acts.append(Act(Does.WRITE, destination))
    if "-c" not in args:
        acts += [Act(Does.WRITE_INTO, destination), Act(Does.LINK, destination)]
    return Reading(tuple(acts))


_LOOKING: dict[str, Entry] = {
    "mdls": _mdls,
    "mdfind": _mdfind,
    "mdutil": _mdutil,
    "tmutil": _tmutil,
    "launchctl": _launchctl,
    "plutil": _plutil,
    "defaults": _defaults,
    "xattr": _xattr,
    "dscl": _dscl,
    "hdiutil": _hdiutil,
}
MACOS_LOOKERS = frozenset(_LOOKING)
"""Programs of this family that, read in full (no doubt), write no file at all."""
DITTO = "ditto"
MACOS: dict[str, Entry] = {**_LOOKING, DITTO: ditto_read}
"""The table's entries of this family."""
