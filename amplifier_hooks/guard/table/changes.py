"""Programs that change files: copy, move, link, create, delete, and change modes.

``cp``/``mv``/``install`` read (or move away) their sources and write their destination
(``-t`` names it first); copying recursively or moving may place links there. ``chmod``
reads a mode like ``-x`` as a mode, as GNU chmod does.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.table.acts import Act, Does, Reading, acts_of, doubtful
from amplifier_hooks.guard.table.entries import Entry, entry, option_acts
from amplifier_hooks.guard.table.files import STD, std
from amplifier_hooks.guard.table.options import Read, opts, read_options

__all__ = ["CHANGES", "SPELLED", "chattr_files", "chmod_words"]

TEE = opts(std("-a,--append -i,--ignore-interrupts -p --output-error=?"))
MKDIR = opts(std("-m,--mode= -p,--parents -v,--verbose -Z --context=?"))
TOUCH = opts(
    std(
        "-a -c,--no-create -d,--date=:doubt -f -h,--no-dereference -m",
        "-r,--reference=:doubt -t=:doubt --time=",
    )
)
"""touch's options. A time set by hand (``-d '2023-01-15'``, ``-t``, another file's with
``-r``) back-dates a file, which records and evidence are judged by: never granted."""
RM = opts(
    std(
        "-f,--force -i -I --interactive=? --one-file-system --no-preserve-root",
        "--preserve-root=? -r,-R,--recursive -d,--dir -v,--verbose",
    )
)
RMDIR = opts(std("--ignore-fail-on-non-empty -p,--parents -v,--verbose"))
TRUNCATE = opts(std("-c,--no-create -o,--io-blocks -r,--reference=:read -s,--size="))
CP = opts(
    std(
        "-a,--archive:links --attributes-only --backup=? -b --copy-contents -d:links --debug",
        "-f,--force -i,--interactive -H -l,--link:links -L,--dereference -n,--no-clobber",
        "-P,--no-dereference:links -p --preserve=? --no-preserve= --parents",
        "-R,-r,--recursive:links --reflink=? --remove-destination --sparse=",
        "--strip-trailing-slashes -s,--symbolic-link:links -S,--suffix=",
        "-t,--target-directory=:into",
        "-T,--no-target-directory -u --update=? -v,--verbose -x,--one-file-system -Z --context=?",
        "--keep-directory-symlink",
    )
)
MV = opts(
    std(
        "--backup=? -b --debug --exchange -f,--force -i,--interactive",
        "-n,--no-clobber --no-copy --strip-trailing-slashes -S,--suffix=",
        "-t,--target-directory=:into -T,--no-target-directory -u --update=?",
        "-v,--verbose -Z,--context",
    )
)
LN = opts(
    std(
        "--backup=? -b -d,-F,--directory -f,--force -i,--interactive",
        "-L,--logical -n,--no-dereference -P,--physical -r,--relative",
        "-s,--symbolic -S,--suffix= -t,--target-directory=:into",
        "-T,--no-target-directory -v,--verbose",
    )
)
INSTALL = opts(
    std(
        "--backup=? -b -c -C,--compare -d,--directory:dirs -D --debug -g,--group= -m,--mode=",
        "-o,--owner= -p,--preserve-timestamps -s,--strip --strip-program=:run -S,--suffix=",
        "-t,--target-directory=:into -T,--no-target-directory -v,--verbose",
        "--preserve-context -Z --context=?",
    )
)
CHMOD = opts(
    std(
        "-c,--changes --no-preserve-root --preserve-root -f,--silent,--quiet",
        "-v,--verbose --reference=:read -R,--recursive:recurse -h,--no-dereference",
        "--dereference -H -L:follow -P",
    )
)
CHOWN = opts(
    std(
        "-c,--changes -f,--silent,--quiet -v,--verbose --dereference",
        "-h,--no-dereference --from= --no-preserve-root --preserve-root",
        "--reference=:read -R,--recursive:recurse -H -L:follow -P",
    )
)

CHATTR = opts("-R -V -f -v= -p=", abbreviations=False)
"""chattr's options (e2fsprogs: short only); its modes (``+i``, ``-a``, ``=e``) come
before the files."""
CHCON = opts(
    std(
        "--dereference -h,--no-dereference -u,--user=:context -r,--role=:context",
        "-t,--type=:context -l,--range=:context --no-preserve-root --preserve-root",
        "--reference=:read -R,--recursive -v,--verbose -H -L -P",
    )
)
"""chcon's options: with a part of the context or ``--reference`` given, every operand
is a file; else the first is the context."""
SETFACL = opts(
    "-m,--modify= -M,--modify-file=:read -x,--remove= -X,--remove-file=:read --set= "
    "--set-file=:read -b,--remove-all -k,--remove-default -n,--no-mask --mask "
    "-d,--default --restore=:doubt --test -R,--recursive -L,--logical -P,--physical "
    "-v,--version -h,--help"
)
"""setfacl's options (getopt_long): every operand is a file."""
_ATTRIBUTES = re.compile(r"^[-+=][aAcCdDeFijmPsStTux]+$")


def chattr_files(args: tuple[str, ...]) -> Read:
    """chattr's command line with its modes left out: ``-i`` is a mode (the attribute
    taken away), as chattr reads it, not an option."""
    modes = tuple("+" + a[1:] if _ATTRIBUTES.match(a) and a[:1] == "-" else a for a in args)
    read = read_options(CHATTR, modes)
    return read._replace(operands=tuple(o for o in read.operands if not _ATTRIBUTES.match(o)))


def _copying(read: Read, *, moves: bool) -> Reading:
    """cp, mv, install: what is read (moved away, for mv) and where it goes."""
    operands = list(read.operands)
    into = read.values("into")
    if into:
        sources, destination = operands, into[-1]
    elif len(operands) >= 2:
        sources, destination = operands[:-1], operands[-1]
    else:
        return doubtful("a copy or move needs a source and a destination")
    acts = option_acts(read) + acts_of(Does.DELETE if moves else Does.READ, sources)
    acts += (Act(Does.WRITE, destination),)
    if moves or read.has("links"):
        acts += (Act(Does.LINK, destination),)  # a link copied or moved lands there
    return Reading(acts)


def _cp(read: Read) -> Reading:
    return _copying(read, moves=False)


def _mv(read: Read) -> Reading:
    return _copying(read, moves=True)


def _install(read: Read) -> Reading | None:
    if read.has("dirs"):
        return Reading(option_acts(read) + acts_of(Does.WRITE, read.operands))
    return _copying(read, moves=False)


def _ln(read: Read) -> Reading:
    operands = list(read.operands)
    into = read.values("into")
    if into:
        names = [into[-1]]
    elif len(operands) >= 2:
        names = [operands[-1]]
    elif operands:
        names = ["."]
    else:
        return doubtful("ln needs a target")
    return Reading(acts_of(Does.WRITE, names) + acts_of(Does.LINK, names))


_MODE = re.compile(r"^[ugoa]*([-+=][rwxXstugo]*)+(,[ugoa]*([-+=][rwxXstugo]*)+)*$|^[0-7]{1,4}$")


def chmod_words(args: tuple[str, ...]) -> tuple[str, ...]:
    """chmod reads a mode like ``-x`` as a mode, not an option (GNU does so too): it is
    put as an operand (``=``) for `read_options`."""
    mode_at = next((i for i, a in enumerate(args) if _MODE.match(a) and a.startswith("-")), None)
    return args if mode_at is None else (*args[:mode_at], "=", *args[mode_at + 1 :])


def _chmod(args: tuple[str, ...]) -> Reading:
    read = read_options(CHMOD, chmod_words(args))
    if read.doubt is not None:
        return doubtful(read.doubt)
    if _follows_links(read):
        return doubtful(_FOLLOWS)
    operands = read.operands
    if read.values("read"):
        return Reading(option_acts(read) + acts_of(Does.WRITE, operands))
    if not operands:
        return doubtful("chmod needs a mode")
    return Reading(acts_of(Does.WRITE, operands[1:]))


def _chown(read: Read) -> Reading:
    if _follows_links(read):
        return doubtful(_FOLLOWS)
    operands = read.operands
    if read.values("read"):
        return Reading(option_acts(read) + acts_of(Does.WRITE, operands))
    return Reading(acts_of(Does.WRITE, operands[1:]))


def _follows_links(read: Read) -> bool:
    """``-R -L``: every link to a folder met below is followed, so the change reaches
    wherever those links lead, which the command's words do not say."""
    return read.has("recurse") and read.has("follow")


_FOLLOWS = "-R -L follows every link below to wherever it leads, which the words do not say"


CHANGES: dict[str, Entry] = {
    "tee": entry(TEE, Does.WRITE), "mkdir": entry(MKDIR, Does.WRITE),
    "touch": entry(TOUCH, Does.WRITE), "rm": entry(RM, Does.DELETE),
    "rmdir": entry(RMDIR, Does.DELETE), "unlink": entry(opts(STD), Does.DELETE),
    "truncate": entry(TRUNCATE, Does.WRITE), "cp": entry(CP, None, _cp),
    "mv": entry(MV, None, _mv), "ln": entry(LN, None, _ln),
    "install": entry(INSTALL, None, _install), "chmod": _chmod,
    "chown": entry(CHOWN, None, _chown), "chgrp": entry(CHOWN, None, _chown),
}  # fmt: skip

SPELLED = {"tee": TEE, "rm": RM, "truncate": TRUNCATE, "cp": CP, "mv": MV, "ln": LN,
           "install": INSTALL, "chmod": CHMOD, "chown": CHOWN, "chgrp": CHOWN, "touch": TOUCH,
           "rmdir": RMDIR, "unlink": opts(STD), "chattr": CHATTR,
           "chcon": CHCON, "setfacl": SETFACL}  # fmt: skip
"""The options the rules read of these programs (`table.spelled`)."""
