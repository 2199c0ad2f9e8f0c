"""Archivers beyond tar, zip and 7-Zip: ``cpio``, ``unrar`` and ``ar``. Each unpacks names
the call does not show into a folder (a `Does.WRITE_INTO` act, never granted), so what
matters is which folder: the one a call writes into is named here (`unpacked_into`) and
judged as a place (`places`), as ``tar -C`` is.

- GNU cpio reads ``-i`` (extract) and ``-p DIR`` (copy a tree into DIR) from within
  ``-D DIR`` (``--directory``); ``-o`` writes an archive to its output or ``-O``/``-F``.
- unrar's first operand is its command (``x``, ``e`` extract); after the archive, a word
  that ends in ``/`` or names a folder that exists is where it extracts, as is
  ``-op<path>``. Whether a word names a folder is known only when it runs: every word
  after the archive may be it.
- GNU ar's first operand is its key (``x`` extracts, into ``--output DIR`` or here; the
  dash is optional), then a position member (modifiers ``a``, ``b``, ``i``) and a count
  (``N``), then the archive and its members.
"""

from __future__ import annotations

import posixpath

from amplifier_hooks.guard.table.acts import Act, Does, Reading, acts_of, doubtful
from amplifier_hooks.guard.table.entries import Entry, entry, option_acts
from amplifier_hooks.guard.table.options import Options, Read, opts, read_options

__all__ = ["ARCHIVERS", "SPELLED", "ar_words", "packed_into", "unpacked_into"]

CPIO = opts(
    "-i,--extract:extract -o,--create:create -p,--pass-through:pass -t,--list:list "
    "-D,--directory=:into -F,--file=:archive -O=:archive -I=:read -E,--pattern-file=:read "
    "-H,--format= -B -C,--io-size= -c -d,--make-directories -f,--nonmatching "
    "-m,--preserve-modification-time -r,--rename:doubt -u,--unconditional -v,--verbose "
    "-V,--dot -a,--reset-access-time -b,--swap -s,--swap-bytes -S,--swap-halfwords "
    "-L,--dereference -l,--link -0,--null -R,--owner= -M,--message= -n,--numeric-uid-gid "
    "-A,--append --no-absolute-filenames --absolute-filenames:doubt --no-preserve-owner "
    "--only-verify-crc --quiet --rsh-command=:run --sparse --to-stdout:stdout "
    "--block-size= --force-local --device-independent,--reproducible --ignore-devno "
    "--renumber-inodes --warning= -?,--help --usage --version"
)
"""GNU cpio's options (argp: unique prefixes)."""
UNRAR = opts(
    "-op=:into -ad=? -ap=? -ai -c=? -cfg=? -cl -cu -dh -ep=? -f -id=? -ierr -inul -kb -n=? "
    "-o=? -ol=? -or -ow -p=? -r -sc=? -sl=? -sm=? -ta=? -tb=? -tn=? -to=? -ts=? -u -v -ver "
    "-vp -x=? -y",
    switches=True,
)
"""unrar's switches (one dash, the value glued on: ``-op/tmp/x``, ``-o+``)."""
UNRAR_COMMANDS = {"x": "extract", "e": "extract", "l": "list", "lt": "list", "lb": "list",
                  "v": "list", "vt": "list", "vb": "list", "t": "list",
                  "p": "list"}  # fmt: skip
AR = opts("--output=:into --plugin=:run --target= --thin --record-libdeps= --help --version")
"""GNU ar's options before its key (``--output`` is where ``x`` extracts)."""


def ar_words(args: tuple[str, ...]) -> tuple[str, ...]:
    """ar's words for `AR`: its key may come with a dash (``ar -x lib.a``), read as the
    first operand like the dashless one; options may come anywhere (GNU getopt)."""
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if word == "--" or not word.startswith("-"):
            return args  # the key without a dash, or none
        if word.startswith("--"):
            found, _ = AR.long(word[2:].partition("=")[0])
            index += "=" not in word and any(o.takes for o, _ in found)  # its value
            continue
        if len(word) > 1:
            return (*args[: index - 1], word[1:], *args[index:])
    return args


def _ar_parts(read: Read) -> tuple[str, str, tuple[str, ...]]:
    """ar's key, its archive, and the members after it ("" where absent)."""
    key = read.operands[0] if read.operands else ""
    rest = read.operands[1:]
    skip = ("a" in key[1:] or "b" in key[1:] or "i" in key[1:]) + ("N" in key[1:])
    rest = rest[skip:]
    return key, rest[0] if rest else "", rest[1:]


def unpacked_into(program: str, read: Read) -> tuple[str, ...]:
    """The folders a call of ``program`` (one of `ARCHIVERS`) unpacks or copies into
    (none: it lists, prints or packs)."""
    if program == "cpio":
        into = (read.values("into") or (".",))[-1]
        if read.has("pass"):
            return tuple(posixpath.join(into, o) for o in read.operands[-1:]) or (into,)
        extracting = read.has("extract") and not (read.has("list") or read.has("stdout"))
        return (into,) if extracting else ()
    if program == "unrar":
        command = UNRAR_COMMANDS.get(read.operands[0].lower() if read.operands else "")
        if command != "extract":
            return ()
        return (*(read.values("into") or (".",)), *read.operands[2:])
    key = _ar_parts(read)[0]
    return (read.values("into") or (".",))[-1:] if key[:1] == "x" else ()


def packed_into(program: str, read: Read) -> tuple[str, ...]:
    """The archive a call of ``program`` (one of `ARCHIVERS`) writes: ``cpio -o -F A``,
    ``ar r A F`` (and ``d``, ``m``, ``q``, ``s``)."""
    if program == "cpio":
        return read.values("archive") if read.has("create") else ()
    if program == "ar":
        key, archive, _ = _ar_parts(read)
        return (archive,) if archive and key[:1] in ("d", "m", "q", "r", "s") else ()
    return ()


def _cpio(read: Read) -> Reading:
    acts = option_acts(read)
    into = unpacked_into("cpio", read)
    if into:
        return Reading(acts + tuple(Act(Does.WRITE_INTO, f) for f in into))
    if read.has("create"):
        return Reading(acts)  # to its output, or -O/-F: written (option_acts)
    if read.has("list") or read.has("extract"):
        return Reading(acts + acts_of(Does.READ, read.values("archive")))
    return doubtful("cpio without -i, -o, -p or -t")


def _unrar(read: Read) -> Reading:
    command = UNRAR_COMMANDS.get(read.operands[0].lower() if read.operands else "")
    if command is None:
        return doubtful("unrar without a command the guard reads")
    archive = acts_of(Does.READ, read.operands[1:2])
    if command == "list":
        return Reading(archive)
    return Reading(archive + tuple(Act(Does.WRITE_INTO, f) for f in unpacked_into("unrar", read)))


def _ar(args: tuple[str, ...]) -> Reading:
    read = read_options(AR, ar_words(args))
    if read.doubt is not None:
        return doubtful(read.doubt)
    key, archive, members = _ar_parts(read)
    if not archive or not key[:1] or key[:1] not in "dmpqrstx":
        return doubtful("ar without a key and an archive the guard reads")
    acts = option_acts(read)
    if key[:1] == "x":
        folders = unpacked_into("ar", read)
        into = tuple(Act(Does.WRITE_INTO, f) for f in folders)
        return Reading((*acts, Act(Does.READ, archive), *into))
    if key[:1] in "pt":
        return Reading((*acts, Act(Does.READ, archive)))
    return Reading((*acts, Act(Does.WRITE, archive), *acts_of(Does.READ, members)))


ARCHIVERS: dict[str, Entry] = {"cpio": entry(CPIO, None, _cpio),
                               "unrar": entry(UNRAR, None, _unrar), "ar": _ar}  # fmt: skip
SPELLED: dict[str, Options] = {"cpio": CPIO, "unrar": UNRAR, "ar": AR}
"""The options the rules and `places` read of these programs (`table.spelled`; ar's words
through `ar_words`)."""
