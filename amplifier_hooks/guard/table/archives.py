"""Archives, compression and patches: what they read, and where they write.

Unpacking (``tar -x``, ``unzip``) writes names the call does not show, links among them,
into a folder: a `Does.WRITE_INTO` act, never granted. ``patch`` writes the files named
inside the patch, which the guard does not read: doubtful unless it only checks. GNU
patch changes into each ``-d`` folder as it reads the option, then opens its input (``-i``),
output (``-o``), rejects (``-r``) and operands: `patch_placed` names them from here.
"""

from __future__ import annotations

import posixpath
from typing import NamedTuple

from amplifier_hooks.guard.table.acts import Act, Does, Reading, acts_of, doubtful
from amplifier_hooks.guard.table.entries import Entry, entry, option_acts
from amplifier_hooks.guard.table.options import Given, Read, Takes, opts, read_options

__all__ = ["ARCHIVES", "PATCH", "SEVEN_ZIP", "TAR", "UNZIP", "ZipCall", "patch_folder",
           "patch_placed", "tar_words", "zip_call"]  # fmt: skip

TAR = opts(
    "-c,--create:create -x,--extract,--get:extract -t,--list:list -r,--append:change "
    "-u,--update:change -A,--catenate,--concatenate:change -d,--diff,--compare:list "
    "--delete:change -f,--file=:archive -C,--directory=:into -z,--gzip,--gunzip "
    "-j,--bzip2 -J,--xz --lzma --lzip --lzop --zstd -Z,--compress,--uncompress "
    "-a,--auto-compress -v,--verbose -p,--preserve-permissions,--same-permissions "
    "-P,--absolute-names:doubt -k,--keep-old-files --keep-newer-files --skip-old-files "
    "--overwrite --overwrite-dir --no-overwrite-dir -O,--to-stdout:stdout --exclude= "
    "-X,--exclude-from=:read -T,--files-from=:read --strip-components= --transform=,--xform= "
    "-h,--dereference --hard-dereference -I,--use-compress-program=:run "
    "--to-command=:run --checkpoint=? --checkpoint-action=:run --info-script=:run "
    "--new-volume-script=:run -F=:run --rsh-command=:run --index-file=:write "
    "-m,--touch --no-same-owner --same-owner --no-same-permissions -W,--verify "
    "--wildcards --no-wildcards --anchored --no-anchored --wildcards-match-slash "
    "--ignore-case --no-ignore-case -S,--sparse --numeric-owner --owner= --group= "
    "--mode= --mtime= --sort= --format=,-H= --totals=? --exclude-vcs --exclude-vcs-ignores "
    "--exclude-caches --exclude-backups --recursion! --null -b,--blocking-factor= "
    "--record-size= -B,--read-full-records -i,--ignore-zeros --one-file-system "
    "--unlink-first,-U --recursive-unlink --remove-files:remove --warning= -w,--interactive "
    "-l,--check-links --show-transformed-names --show-stored-names --quoting-style= "
    "--occurrence=? --xattrs! --acls! --selinux! --no-xattrs --full-time --utc "
    "--label=,-V= --force-local --help --usage --version",
)
ZIPPED = opts(
    "-c,--stdout,--to-stdout:stdout -d,--decompress,--uncompress -f,--force "
    "-k,--keep:keep -l,--list:stdout -n,--no-name -N,--name -q,--quiet -r,--recursive "
    "-S,--suffix= -t,--test:stdout -v,--verbose -z,--compress -e,--extreme -F,--format= "
    "-C,--check= -M,--memlimit= -T,--threads= --fast --best --rsyncable --no-sparse "
    "-h,--help -V,--version -L,--license -0 -1 -2 -3 -4 -5 -6 -7 -8 -9",
)
UNZIP = opts(
    "-d=:into -x:exclude -l:list -v:list -t:list -z:list -Z:list -p:list -q -o -n -j -a -C "
    "-L -X -M -K -U -V -W -b",
    digits=True,
    abbreviations=False,
)
"""unzip's options (no long ones): ``-d`` names the folder it unpacks into; the words
after ``-x`` are members left out (read here as operands: the archive is the first)."""
PATCH = opts(
    "-p,--strip=:strip -i,--input=:read -R,--reverse -N,--forward --dry-run:check -C:check "
    "-s,--silent,--quiet -u,--unified -c,--context -n,--normal -E,--remove-empty-files "
    "-l,--ignore-whitespace -t,--batch -f,--force --binary -F,--fuzz= -b,--backup "
    "--no-backup-if-mismatch --backup-if-mismatch -V,--version-control= -B,--prefix= "
    "-Y,--basename-prefix= -z,--suffix= -d,--directory=:into -o,--output=:write "
    "-r,--reject-file=:write -D,--ifdef= --merge=? --verbose --posix --follow-symlinks "
    "--read-only= --quoting-style= --help -v,--version",
)

SEVEN_ZIP = opts(
    "-o=:into -so:stdout -sdel:remove -ai=? -an -ao=? -ax=? -ba -bb=? -bd -bs=? -bt -i=? -m=? "
    "-p=? -r=? -sa=? -scc=? -scrc=? -scs=? -seml=? -sfx=? -shc=? -shd=? -si=? -slp=? -slt "
    "-snh -snl -sni -sns=? -spd -spe -spf=? -ssc=? -ssp -sse -ssw -stl -stm=? -stx=? -t=? "
    "-u=? -v=? -w=? -x=? -y",
    switches=True,
)
"""7-Zip's switches (``7z``, ``7za``, ``7zz``, ``7zr``): ``-o`` names the folder it unpacks
into, its value glued on (``-o.claude``); the first operand is the command."""
SEVEN_ZIP_COMMANDS = {"x": "extract", "e": "extract", "l": "list", "t": "list", "h": "list",
                      "i": "list", "b": "list", "a": "change", "u": "change", "d": "change",
                      "rn": "change"}  # fmt: skip


def tar_words(args: tuple[str, ...]) -> tuple[str, ...]:
    """tar's words as its option reader sees them: in the old form (``tar xzfC a.tgz
    dir``) the first word is letters without a dash, and each letter that takes a value
    takes the next word, in order (``-x -z -f a.tgz -C dir``)."""
    if not args or args[0].startswith("-"):
        return args
    words: list[str] = []
    rest = list(args[1:])
    for letter in args[0]:
        words.append("-" + letter)
        opt = TAR.shorts.get(letter)
        if opt is not None and opt.takes == Takes.VALUE and rest:
            words.append(rest.pop(0))
    return (*words, *rest)


def _tar(args: tuple[str, ...]) -> Reading:
    read = read_options(TAR, tar_words(args))
    if read.doubt is not None:
        return doubtful(read.doubt)
    if any(g.opt.does == "doubt" for g in read.given):
        return doubtful("tar -P keeps absolute names")
    archives = read.values("archive")
    into = (read.values("into") or (".",))[-1]
    acts = option_acts(read)
    if read.has("extract"):
        if read.has("stdout"):
            return Reading(acts + acts_of(Does.READ, archives))
        return Reading(acts + acts_of(Does.READ, archives) + (Act(Does.WRITE_INTO, into),))
    if read.has("list"):
        return Reading(acts + acts_of(Does.READ, archives))
    if read.has("create") or read.has("change"):
        members = tuple(m if m.startswith("/") else f"{into}/{m}" for m in read.operands)
        acts += acts_of(Does.WRITE, archives) + acts_of(Does.READ, members)
        return Reading(acts + (acts_of(Does.DELETE, members) if read.has("remove") else ()))
    return doubtful("tar without -c, -x or -t")


def _unzip(args: tuple[str, ...]) -> Reading:
    """unzip ARCHIVE [members] [-x excluded] [-d folder]: lists with -l/-v/-t/-z/-Z/-p,
    else unpacks."""
    read = read_options(UNZIP, args)
    if read.doubt is not None:
        return doubtful(f"unzip: {read.doubt}")
    if not read.operands:
        return doubtful("unzip without an archive")
    archive = Act(Does.READ, read.operands[0])
    if read.has("list"):
        return Reading((archive,))
    return Reading((archive, Act(Does.WRITE_INTO, (read.values("into") or (".",))[-1])))


class ZipCall(NamedTuple):
    """What ``zip [options] ARCHIVE FILES...`` is given: the archive, the files it packs,
    the commands it runs (``-TT``) and whether it deletes what it packs (``-m``)."""

    archive: str
    members: tuple[str, ...]
    runs: tuple[str, ...]
    moves: bool


def zip_call(args: tuple[str, ...]) -> ZipCall | str:
    """``args`` as zip reads them (``-x``/``-i`` patterns run to the next option), or why
    the table cannot tell."""
    words: list[str] = []
    runs: list[str] = []
    moves = False
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if word in ("-TT", "--unzip-command") and index < len(args):  # the test's command
            runs.append(args[index])
            index += 1
            continue
        if word in ("-x", "-i", "--exclude", "--include"):
            while index < len(args) and not args[index].startswith("-"):
                index += 1
            continue
        if word.startswith("-") and len(word) > 1:
            letters = word[1:]
            if word.startswith("--") or not set(letters) <= set("rqvjuf0123456789yDXoSlcgJA@"
                                                                 "mT"):  # fmt: skip
                return f"zip {word} is not in the guard's table"
            moves = moves or "m" in letters
            continue
        words.append(word)
    if not words:
        return "zip without an archive"
    return ZipCall(words[0], tuple(words[1:]), tuple(runs), moves)


def _zip(args: tuple[str, ...]) -> Reading:
    call = zip_call(args)
    if isinstance(call, str):
        return doubtful(call)
    acts = (*acts_of(Does.RUN, call.runs), Act(Does.WRITE, call.archive))
    acts += acts_of(Does.READ, call.members)
    return Reading(acts + (acts_of(Does.DELETE, call.members) if call.moves else ()))


def _zipped(cat: bool) -> Entry:
    def check(read: Read) -> Reading:
        if cat or read.has("stdout"):
            return Reading(acts_of(Does.READ, read.operands))
        acts = acts_of(Does.WRITE, read.operands)
        if not read.has("keep"):
            acts += acts_of(Does.DELETE, read.operands)
        return Reading(acts)

    return entry(ZIPPED, None, check)


def _seven_zip(read: Read) -> Reading:
    """7z COMMAND [switches] ARCHIVE [names]: unpacks into ``-o`` (or here), lists, or
    changes the archive (``-sdel`` deletes what it packs)."""
    command = SEVEN_ZIP_COMMANDS.get(read.operands[0].lower() if read.operands else "")
    if command is None:
        return doubtful("7z without a command the guard reads")
    archive, names = read.operands[1:2], read.operands[2:]
    if command == "list":
        return Reading(acts_of(Does.READ, archive))
    if command == "extract":
        if read.has("stdout"):
            return Reading(acts_of(Does.READ, archive))
        into = (read.values("into") or (".",))[-1]
        return Reading((*acts_of(Does.READ, archive), Act(Does.WRITE_INTO, into)))
    deleted = acts_of(Does.DELETE, names) if read.has("remove") else ()
    return Reading(acts_of(Does.WRITE, archive) + acts_of(Does.READ, names) + deleted)


_PLACED_ROLES = frozenset({"read", "write"})
"""patch's options whose value is a file it opens after changing into ``-d``."""


def _below(folder: str, word: str) -> str:
    """``word`` as seen from the folder patch changed into (the shell made ``~`` and
    ``$HOME`` absolute before patch saw them)."""
    if not folder or word == "-" or word.startswith(("/", "~", "$")):
        return word
    return posixpath.join(folder, word)


def patch_folder(read: Read) -> str:
    """The folder patch works in, from where it was run ("": there): ``-d a -d b`` changes
    into ``a/b``."""
    folder = ""
    for value in read.values("into"):
        folder = _below(folder, value)
    return folder


def patch_placed(read: Read) -> Read:
    """``read`` with the files patch opens named from where it was run: ``-i``, ``-o``,
    ``-r`` and the operands are found in `patch_folder`, each ``-d`` in the one before."""
    folder = ""
    renamed: list[tuple[str, str]] = []  # (word, where it is), in command-line order
    placed: list[Given] = []
    for given in read.given:
        if given.value is not None and given.opt.does == "into":
            folder = _below(folder, given.value)
            renamed.append((given.value, folder))
        placed.append(given)
    if not folder:
        return read
    for index, given in enumerate(placed):
        if given.value is not None and given.opt.does in _PLACED_ROLES:
            placed[index] = given._replace(value=_below(folder, given.value))
            renamed.append((given.value, placed[index].value or ""))
    operands = tuple(_below(folder, o) for o in read.operands)
    renamed += zip(read.operands, operands, strict=True)
    words: list[str] = []
    for word in read.words:
        at = next((i for i, (old, _) in enumerate(renamed) if old == word), None)
        words.append(word if at is None else renamed.pop(at)[1])
    return read._replace(given=tuple(placed), operands=operands, words=tuple(words))


def _patch(read: Read) -> Reading:
    read = patch_placed(read)
    if read.has("check"):
        return Reading(option_acts(read) + acts_of(Does.READ, read.operands))
    return doubtful("patch writes the files named inside the patch, which the guard "
                    "does not read")  # fmt: skip


ARCHIVES: dict[str, Entry] = {
    "tar": _tar, "unzip": _unzip, "zip": _zip, "patch": entry(PATCH, None, _patch),
    **dict.fromkeys(("7z", "7za", "7zz", "7zr"), entry(SEVEN_ZIP, None, _seven_zip)),
    **{name: _zipped(False) for name in ("gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz",
                                         "zstd", "unzstd", "lzma", "unlzma")},
    **{name: _zipped(True) for name in ("zcat", "bzcat", "xzcat", "zstdcat")},
}  # fmt: skip
