"""What a piece changes, path by path: the words of the paths whose content it writes,
and of those it changes as a whole (deletes, moves away, renames, re-modes, places a link
over, unpacks or copies a tree into).

Self-protection asks this of every piece: a protected file must not change by any route,
and a folder that holds one must not be deleted, moved or re-moded as a whole. A program
this module does not know changes every path it is given unless it only reads
(`programs.READ_ONLY`); the ones it knows are read as they read their options:
``sort -o F``, ``uniq IN OUT``, ``xxd -r IN OUT``, ``sed -i`` and its ``w`` command,
``cp``/``mv``/``ln``/``install`` into a folder, ``rsync``, ``tar -x -C``, ``unzip -d``,
``chmod``/``chown``, ``find -fprint``, ``curl -o``, git's path commands, and the files
a patch names (``patch``, ``git apply``: read from the patch file). The options of the
programs in the table (`table.read_program`, `table.git_read`) are read there, once per
program, with every spelling the program takes; the option roles asked here are the
table's (``into``, ``write``, ``archive``, ``strip``, ...).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import NamedTuple

from amplifier_hooks.guard.braces import expand_braces
from amplifier_hooks.guard.containers import CONTAINER_PROGRAMS, copied_into, mounts
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.patchfiles import patched_files, patched_names
from amplifier_hooks.guard.paths import locate
from amplifier_hooks.guard.programs import READ_ONLY
from amplifier_hooks.guard.table import Read, git_read, patterned, read_program
from amplifier_hooks.guard.table.acts import Does
from amplifier_hooks.guard.table.archivers import ARCHIVERS, packed_into, unpacked_into
from amplifier_hooks.guard.table.archives import patch_folder
from amplifier_hooks.guard.table.finding import find_written
from amplifier_hooks.guard.table.macos import ditto_read, mount_points
from amplifier_hooks.guard.table.mounting import mount_target
from amplifier_hooks.guard.table.python import is_python, unpacks_into
from amplifier_hooks.guard.table.removers import REMOVERS, removed

__all__ = ["MODE_PROGRAMS", "Changed", "asks_files", "changed"]


class Changed(NamedTuple):
    """The words of the paths a piece changes: their content, or them as a whole."""

    content: tuple[str, ...] = ()
    whole: tuple[str, ...] = ()


NOTHING = Changed()
_new_tuple = tuple.__new__


def _table(program: str, args: tuple[str, ...]) -> Read:
    """``args`` as ``program`` (one the table reads the options of) reads them."""
    read = read_program(program, args)
    if read is None:
        raise ValueError(f"{program}: not a program the table reads the options of")
    return read


def _words(operands: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(w for o in operands for w in (expand_braces(o) if "{" in o else (o,)))


def _last(values: tuple[str, ...], default: str | None = None) -> str | None:
    return values[-1] if values else default


def _into(folder: str, source: str) -> str:
    """Where ``source`` lands when copied or moved into ``folder``."""
    name = source.rstrip("/").rsplit("/", 1)[-1]
    return folder.rstrip("/") + "/" + name if name not in ("", ".", "..") else folder


def _is_folder(raw: str, piece: Piece, places: Places) -> bool:
    if raw.endswith(("/", "/.", "/..")) or raw in (".", ".."):
        return True
    try:
        return os.path.isdir(locate(raw, piece.cwd, places).path)
    except (OSError, ValueError):
        return False


def _holds_own(raw: str, piece: Piece, places: Places) -> bool:
    """Whether ``raw`` is a folder holding a host's settings (``.claude/``): git checking
    it out or restoring it replaces the files below it, those settings among them."""
    return "agent_folder" in locate(raw, piece.cwd, places).where


def _copying(piece: Piece, places: Places) -> Changed:
    """``cp``, ``mv``, ``ln``, ``install``: the destination, or each source's place in a
    destination folder, is replaced as a whole; ``mv`` moves its sources away; a hard
    link to a file makes it writable under another name."""
    program = piece.program or "cp"
    read = _table(program, piece.args)
    operands = _words(read.operands)
    flags = read.flags()
    target = _last(read.values("into"))
    if program == "install" and read.has("dirs"):
        return Changed(whole=operands)
    if target is None:
        if len(operands) < 2:
            return Changed(whole=tuple(operands)) if program == "mv" else NOTHING
        *sources, destination = operands
    else:
        sources, destination = list(operands), target
    whole: list[str] = []
    folder = target is not None or len(sources) > 1 or _is_folder(destination, piece, places)
    for source in sources:
        landing = _into(destination, source) if folder else destination
        whole.append(landing)
        if landing == destination and folder:
            whole.append(destination)  # `cp -r src/. dest`: a tree copied into dest
    if program == "mv" or "--remove-destination" in flags:
        whole.extend(sources)
    linking = (program == "ln" and "--symbolic" not in flags) or (
        program == "cp" and "--link" in flags
    )
    if linking:
        whole.extend(sources)  # a hard link: the same file, writable under the new name
    return Changed(whole=tuple(whole))


def _rsync(piece: Piece, places: Places) -> Changed:
    read = _table("rsync", piece.args)
    if read.has("dry"):  # `-n`: lists what it would change, changes nothing
        return NOTHING
    given = _words(read.operands)
    operands = [o for o in given if ":" not in o.split("/", 1)[0]]
    if len(given) < 2 or not operands or operands[-1] != given[-1]:
        return NOTHING  # the destination is another machine
    *sources, destination = operands
    folder = len(sources) > 1 or _is_folder(destination, piece, places)
    whole = [
        (destination if s.endswith("/") else _into(destination, s)) if folder else destination
        for s in sources
    ]
    if read.has("moves"):  # --remove-source-files
        whole.extend(sources)
    return Changed(whole=tuple(whole))


def _ditto(piece: Piece, _places: Places) -> Changed:
    """``ditto SRC... DST`` merges into DST (``-c``: writes the archive DST)."""
    acts = ditto_read(piece.args).acts
    content = tuple(a.target for a in acts if a.does is Does.WRITE)
    whole = tuple(a.target for a in acts if a.does is Does.WRITE_INTO)
    return Changed(content=content, whole=whole)


def _tar(piece: Piece, places: Places) -> Changed:
    read = _table("tar", piece.args)  # (the old dashless form too: `tar xzf a.tgz`)
    into = _last(read.values("into"))
    words = _words(read.operands)
    if read.has("extract"):
        if read.has("stdout"):
            return NOTHING  # `tar -xOf`: to its output
        folder = (into or ".").rstrip("/") or "/"
        members = tuple(f"{folder}/{m}" for m in words if m[:1] != "/")
        return Changed(whole=members or (into or ".",))  # named members: only they
    removed = tuple(m if m[:1] == "/" or into is None else f"{into.rstrip('/')}/{m}"
                    for m in words) if read.has("remove") else ()  # fmt: skip
    archive = _last(read.values("archive"))
    if (read.has("create") or read.has("change")) and archive:
        return Changed(content=(archive,), whole=removed)
    return Changed(whole=removed) if removed else NOTHING


def _unzip(piece: Piece, places: Places) -> Changed:
    read = _table("unzip", piece.args)
    if read.has("list"):
        return NOTHING  # lists, tests or prints: extracts nothing
    return Changed(whole=(read.values("into") or (".",))[-1:])


def _seven_zip(piece: Piece, places: Places) -> Changed:
    """``7z x A -oDIR``: unpacks into DIR (or here); ``7z a A F``: writes A (and with
    ``-sdel`` deletes F)."""
    read = _table(piece.program or "7z", piece.args)
    command = read.operands[0].lower() if read.operands else ""
    if command in ("x", "e"):
        into = read.values("into") or (".",)
        return NOTHING if read.has("stdout") else Changed(whole=into[-1:])
    if command in ("a", "u", "d", "rn"):
        names = _words(read.operands[2:]) if read.has("remove") else ()
        return Changed(content=read.operands[1:2], whole=names)
    return NOTHING


def _archiver(piece: Piece, places: Places) -> Changed:
    """``cpio -i -D DIR``, ``cpio -p DIR``, ``unrar x A DIR/``, ``ar --output=DIR x A``:
    the folders they unpack into; ``cpio -o -F A``, ``ar r A F``: the archive they write."""
    program = piece.program or "cpio"
    read = _table(program, piece.args)
    into = unpacked_into(program, read)
    return Changed(content=packed_into(program, read), whole=_words(into))


MODE_PROGRAMS = frozenset({"chmod", "chown", "chgrp", "chattr", "chcon", "setfacl"})


def _mode(piece: Piece, places: Places) -> Changed:
    """The files whose mode, owner, attributes, context or ACL change: the operands but
    a mode, owner or context given first (none when ``--reference`` or, for chcon, a part
    of the context names it)."""
    program = piece.program or ""
    read = _table(program, piece.args)  # (chmod -x f, chattr -i f: modes, not options)
    operands = _words(read.operands)
    if program in ("chattr", "setfacl") or read.values("read") or read.values("context"):
        return Changed(whole=operands)
    return Changed(whole=operands[1:])


def _removing(piece: Piece, places: Places) -> Changed:
    """rm and kin delete their operands (the trash's: and write its folder, `removed`)."""
    program = piece.program or "rm"
    read = _table(program, piece.args)
    if program in REMOVERS:
        return Changed(whole=_words(removed(program, read)))
    return Changed(whole=_words(read.operands))


def _writing(piece: Piece, places: Places) -> Changed:
    """tee, touch, truncate: every operand is written."""
    return Changed(content=_words(_table(piece.program or "tee", piece.args).operands))


def _sort(piece: Piece, places: Places) -> Changed:
    out = _table("sort", piece.args).values("write")  # -o, --output
    return Changed(content=out[-1:]) if out else NOTHING


def _second_operand(piece: Piece, places: Places) -> Changed:
    """``uniq IN OUT``, ``xxd -r IN OUT``: the second operand is written."""
    return Changed(content=_words(_table(piece.program or "uniq", piece.args).operands)[1:2])


_SED_WRITE = re.compile(r"(?:^|[;\n}]|/[gpIiMme0-9]*)\s*[0-9,$/]*[wW]\s+([^;\n}]+)")


def _sed(piece: Piece, places: Places) -> Changed:
    scripts, read = patterned("sed", piece.args)  # the table's: -i's suffix only attached
    written = [m.group(1).strip() for s in scripts for m in _SED_WRITE.finditer(s)]
    in_place = read.has("in-place")
    return Changed(content=tuple(written) + (_words(read.operands) if in_place else ()))


def _yq(piece: Piece, places: Places) -> Changed:
    """``yq -i EXPR FILE``: the files it edits in place (else it only prints)."""
    read = _table("yq", piece.args)
    return Changed(content=_words(read.operands)) if read.has("in-place") else NOTHING


def _find(piece: Piece, places: Places) -> Changed:
    return Changed(content=find_written(piece.args))


def _fetch(piece: Piece, places: Places) -> Changed:
    """``curl -o F``, ``wget -O F``, ``-P DIR``: the files a download writes, and the
    folder it writes into."""
    read = _table(piece.program or "curl", piece.args)
    found = [v for v in (*read.values("write"), *read.values("into")) if v != "-"]
    return Changed(whole=tuple(found))


def _patch(piece: Piece, places: Places) -> Changed:
    """``patch`` and ``git apply``: the files the patch names (read from it, at most
    `patchfiles.MAX_PATCH_BYTES`), under each strip level it could mean, or the file given."""
    git = piece.program == "git"
    read = git_read(piece.args).read if git else _table("patch", piece.args)
    if read is None:
        return NOTHING
    operands = list(_words(read.operands))
    if git:
        files, given = operands, []
    else:
        given_input = _last(read.values("read"))  # -i, --input
        files = [given_input] if given_input else (operands[1:2] or list(piece.reads[:1]))
        given = operands[:1]
    folder = patch_folder(read) if not git else _last(read.values("into"), "") or ""
    strip = _last(read.values("strip"))
    levels = {int(strip)} if strip and strip.isdigit() else ({1} if git else {0, 1})
    found: list[str] = [*given, *read.values("write")]
    named = [n for f in files for n in patched_files(locate(f, piece.cwd, places).path)]
    if not files and piece.fed is not None:  # `git apply <<EOF`: the heredoc is the patch
        named = patched_names(piece.fed)
    if folder and not named:  # `patch -d DIR < p`: files the guard cannot see, below DIR
        return Changed(content=tuple(dict.fromkeys(found)), whole=(folder,))
    for named_path in named:
        parts = named_path.split("/")
        for level in levels:
            kept = "/".join(parts[level:])
            if kept:
                found.append(os.path.join(folder, kept) if folder else kept)
        if not git and strip is None:
            found.append(os.path.join(folder, parts[-1]) if folder else parts[-1])
    return Changed(content=tuple(dict.fromkeys(found)))


def _git(piece: Piece, places: Places) -> Changed:
    found = git_read(piece.args)
    sub, read = found.subcommand, found.read
    rest = _words(found.rest if read is None else read.operands)
    if sub in ("rm", "mv", "clean"):
        if sub == "mv" and len(rest) >= 2:
            folder = len(rest) > 2 or _is_folder(rest[-1], piece, places)
            moved = [_into(rest[-1], s) if folder else rest[-1] for s in rest[:-1]]
            return Changed(whole=(*rest[:-1], *moved))
        return Changed(whole=tuple(rest) or (".",) if sub == "clean" else tuple(rest))
    if sub == "apply":
        return _patch(piece, places)
    if sub in ("checkout", "restore", "am", "stash", "reset"):
        if (
            sub == "restore"
            and read is not None
            and read.has("staged")
            and not read.has("worktree")
        ):
            return NOTHING  # `git restore --staged F` changes only the index
        named = tuple(r for r in rest if not r.startswith(("HEAD", "@", "origin")))
        into = read.values("into") if sub == "am" and read is not None else ()
        held = tuple(
            n for n in named if sub in ("checkout", "restore") and _holds_own(n, piece, places)
        )
        return Changed(content=named, whole=(*into[-1:], *held))  # `git am --directory=DIR`
    if read is not None:  # `git config -f F`, `git diff --output=F`
        written = read.values("read") if sub == "config" else read.values("write")
        return Changed(content=written) if written else NOTHING
    return NOTHING


CHANGERS: dict[str, Callable[[Piece, Places], Changed]] = {
    **dict.fromkeys(("cp", "mv", "ln", "install"), _copying),
    "rsync": _rsync,
    "ditto": _ditto,
    **dict.fromkeys(("tar", "bsdtar", "gtar"), _tar),
    "unzip": _unzip,
    **dict.fromkeys(("7z", "7za", "7zz", "7zr"), _seven_zip),
    **dict.fromkeys(ARCHIVERS, _archiver),
    **dict.fromkeys(MODE_PROGRAMS, _mode),
    **dict.fromkeys(("rm", "rmdir", "unlink", *REMOVERS), _removing),
    **dict.fromkeys(("tee", "touch", "truncate"), _writing),
    "mount": lambda piece, _: Changed(whole=mount_target(piece.args)),
    "sort": _sort,
    **dict.fromkeys(("uniq", "xxd"), _second_operand),
    "sed": _sed,
    "patch": _patch,
    "find": _find,
    "yq": _yq,
    **dict.fromkeys(("curl", "wget"), _fetch),
    "git": _git,
}
"""The programs read option by option; any other program that is not read-only changes
every path it is given."""
_LOOKING = (_copying, _rsync, _patch)
"""The readers that ask the file system: whether a destination is a folder (`_is_folder`),
what a patch names (`_patch`); and `_git`'s, for `_GIT_LOOKING` (checkout and restore: where
a named folder leads, `_holds_own`)."""
_GIT_LOOKING = frozenset({"mv", "apply", "checkout", "restore"})


def asks_files(piece: Piece) -> bool:
    """Whether `changed` may ask the file system what ``piece`` changes (so what it says
    holds for this call only: `facts` keeps no reading of such a piece)."""
    reader = CHANGERS.get(piece.program or "")
    if reader is _git:
        return git_read(piece.args).subcommand in _GIT_LOOKING
    return reader in _LOOKING


_GIT_CHANGING = frozenset({"rm", "mv", "clean", "checkout", "restore", "apply", "am", "stash",
                           "reset", "config"})  # fmt: skip


def changed(piece: Piece, written: tuple[str, ...], places: Places,
            subcommand: str | None = None) -> Changed:  # fmt: skip
    """What ``piece`` changes (``written``: the words of the paths a program not read
    here writes, as `facts.Facts` found them; ``subcommand``: its subcommand, if known)."""
    if piece.tool != "bash":
        return Changed(content=written) if written else NOTHING
    if (
        piece.program == "git"
        and subcommand not in _GIT_CHANGING
        and not any(a.startswith("--o") for a in piece.args)
    ):
        return NOTHING  # most git: status, log, add, commit (`git diff --output=F` writes)
    if piece.program == "hdiutil":  # `attach IMG -mountpoint DIR`: DIR is hidden whole
        points = mount_points(piece.args)
        return Changed(written, points) if points else Changed(content=written)
    reader = CHANGERS.get(piece.program or "")
    if reader is None:
        if piece.program in CONTAINER_PROGRAMS:
            if mounts(piece.program, piece.args) is not None:
                return Changed(whole=written) if written else NOTHING  # all below a mount
            into = copied_into(piece.program, piece.args)
            if into:  # `docker cp c:/x/. DIR`: all below DIR
                return Changed(written, into)
        if piece.program in READ_ONLY or not written:
            return NOTHING
        if is_python(piece.program or ""):  # `-m zipfile -e A DIR`: all below DIR too
            return Changed(written, unpacks_into(piece.args))
        return _new_tuple(Changed, (written, ()))  # (made for most pieces: no keyword call)
    found = reader(piece, places)
    return found
