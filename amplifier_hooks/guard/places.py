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
a patch names (``patch``, ``git apply``: read from the patch file).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import NamedTuple

from amplifier_hooks.guard.containers import CONTAINER_PROGRAMS, mount_target, mounts
from amplifier_hooks.guard.model import Piece, Places
from amplifier_hooks.guard.patchfiles import patched_files
from amplifier_hooks.guard.paths import expand_braces, locate
from amplifier_hooks.guard.programs import READ_ONLY
from amplifier_hooks.guard.table import read_program

__all__ = ["MODE_PROGRAMS", "Changed", "changed", "read_options"]


class Changed(NamedTuple):
    """The words of the paths a piece changes: their content, or them as a whole."""

    content: tuple[str, ...] = ()
    whole: tuple[str, ...] = ()


NOTHING = Changed()
_new_tuple = tuple.__new__


class _Options(NamedTuple):
    """A command's options as its program reads them: the flags given (``-rf`` is ``-r``
    and ``-f``), the values of those that take one, and the operands."""

    flags: frozenset[str]
    values: dict[str, str]
    operands: list[str]


def read_options(args: tuple[str, ...], valued: frozenset[str],
                 program: str | None = None) -> _Options:  # fmt: skip
    """``args`` as a program reads them, given its valued options (or the table's)."""
    read = read_program(program, args) if program and program not in MODE_PROGRAMS else None
    if read is not None:
        given = {n: g.value for g in read.given if g.value is not None for n in g.opt.names}
        words = [w for o in read.operands for w in (expand_braces(o) if "{" in o else (o,))]
        return _Options(read.flags(), given, words)
    flags: set[str] = set()
    values: dict[str, str] = {}
    operands: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--":
            operands.extend(args[index:])
            break
        if not arg.startswith("-") or arg == "-":
            operands.extend(expand_braces(arg) if "{" in arg else (arg,))  # `f{,.bak}`
            continue
        if arg.startswith("--"):
            name, equals, value = arg.partition("=")
            flags.add(name)
            if equals:
                values[name] = value
            elif name in valued and index < len(args):
                values[name] = args[index]
                index += 1
            continue
        for at in range(1, len(arg)):
            flag = "-" + arg[at]
            flags.add(flag)
            if flag in valued:
                value = arg[at + 1 :]
                if not value and index < len(args):
                    value = args[index]
                    index += 1
                values[flag] = value
                break
    return _Options(frozenset(flags), values, operands)


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


_COPY_VALUED = frozenset(
    {"-t", "--target-directory", "-S", "--suffix", "-m", "--mode", "-o", "--owner", "-g",
     "--group", "--backup", "-Z", "--context"}
)  # fmt: skip
_RECURSIVE = frozenset({"-r", "-R", "--recursive", "-a", "--archive"})


def _copying(piece: Piece, places: Places) -> Changed:
    """``cp``, ``mv``, ``ln``, ``install``: the destination, or each source's place in a
    destination folder, is replaced as a whole; ``mv`` moves its sources away; a hard
    link to a file makes it writable under another name."""
    program = piece.program
    options = read_options(piece.args, _COPY_VALUED, program)
    operands = options.operands
    target = options.values.get("-t") or options.values.get("--target-directory")
    if program == "install" and "-d" in options.flags:
        return Changed(whole=tuple(operands))
    if target is None:
        if len(operands) < 2:
            return Changed(whole=tuple(operands)) if program == "mv" else NOTHING
        *sources, destination = operands
    else:
        sources, destination = operands, target
    whole: list[str] = []
    folder = target is not None or len(sources) > 1 or _is_folder(destination, piece, places)
    for source in sources:
        landing = _into(destination, source) if folder else destination
        whole.append(landing)
        if landing == destination and folder:
            whole.append(destination)  # `cp -r src/. dest`: a tree copied into dest
    if program == "mv" or "--remove-destination" in options.flags:
        whole.extend(sources)
    linking = (program == "ln" and not {"-s", "--symbolic"} & options.flags) or (
        program == "cp" and {"-l", "--link"} & options.flags
    )
    if linking:
        whole.extend(sources)  # a hard link: the same file, writable under the new name
    return Changed(whole=tuple(whole))


def _rsync(piece: Piece, places: Places) -> Changed:
    options = read_options(piece.args, frozenset({"-e", "--rsh", "--exclude", "--include", "-f",
                                           "--filter", "--files-from", "--chmod"}))  # fmt: skip
    operands = [o for o in options.operands if ":" not in o.split("/", 1)[0]]
    if len(options.operands) < 2 or not operands or operands[-1] != options.operands[-1]:
        return NOTHING  # the destination is another machine
    *sources, destination = operands
    folder = len(sources) > 1 or _is_folder(destination, piece, places)
    whole = [
        (destination if s.endswith("/") else _into(destination, s)) if folder else destination
        for s in sources
    ]
    if "--remove-source-files" in options.flags:
        whole.extend(sources)
    return Changed(whole=tuple(whole))


_TAR_VALUED = frozenset({"-f", "--file", "-C", "--directory", "-T", "--files-from", "-X",
                         "--exclude-from", "-b", "-H", "--format", "-g", "-I",
                         "--use-compress-program", "--to-command", "-F"})  # fmt: skip


def _tar(piece: Piece, places: Places) -> Changed:
    args = piece.args
    if args and not args[0].startswith("-"):  # `tar xzf a.tgz`: the old, dashless form
        args = ("-" + args[0], *args[1:])
    options = read_options(args, _TAR_VALUED)
    flags = options.flags
    archive = options.values.get("-f") or options.values.get("--file")
    if flags & {"-x", "--extract", "--get"}:
        folder = options.values.get("-C") or options.values.get("--directory") or "."
        members = tuple(f"{folder.rstrip('/')}/{m}" for m in options.operands if m[:1] != "/")
        return Changed(whole=members or (folder,))  # named members: only they are unpacked
    removed = tuple(options.operands) if "--remove-files" in flags else ()
    if flags & {"-c", "--create", "-r", "--append", "-u", "--update", "-A"} and archive:
        return Changed(content=(archive,), whole=removed)
    return Changed(whole=removed) if removed else NOTHING


def _unzip(piece: Piece, places: Places) -> Changed:
    options = read_options(piece.args, frozenset({"-d", "-x", "-P"}))
    if {"-l", "-t", "-v", "-p", "-Z"} & options.flags:
        return NOTHING  # lists, tests or prints: extracts nothing
    return Changed(whole=(options.values.get("-d", "."),))


MODE_PROGRAMS = frozenset({"chmod", "chown", "chgrp", "chattr", "chcon", "setfacl"})
_MODE_VALUED = frozenset({"--reference", "-m", "-M", "-x", "-X"})
_CHMOD_VALUED = frozenset({"--reference"})


def _mode(piece: Piece, places: Places) -> Changed:
    chmod = piece.program == "chmod"  # `chmod -x f`: a mode; setfacl's `-x` takes a value
    options = read_options(piece.args, _CHMOD_VALUED if chmod else _MODE_VALUED)
    operands = options.operands
    first = 0 if options.values.get("--reference") or piece.program == "setfacl" else 1
    if chmod:  # `chmod -x f`: a mode, read as a flag
        first = 0 if any(a[:1] == "-" and a[1:2] in "rwxXst" for a in piece.args) else first
    return Changed(whole=tuple(operands[first:]))


def _removing(piece: Piece, places: Places) -> Changed:
    return Changed(whole=tuple(read_options(piece.args, frozenset(), piece.program).operands))


def _writing(piece: Piece, places: Places) -> Changed:
    valued = frozenset({"-s", "--size", "-r", "--reference", "-d", "--date", "-t"})
    return Changed(content=tuple(read_options(piece.args, valued, piece.program).operands))


def _sort(piece: Piece, places: Places) -> Changed:
    options = read_options(piece.args, frozenset({"-o", "--output", "-k", "--key", "-t",
                                           "--field-separator", "-S", "--buffer-size",
                                           "-T", "--temporary-directory"}), "sort")  # fmt: skip
    out = options.values.get("-o") or options.values.get("--output")
    return Changed(content=(out,)) if out else NOTHING


def _second_operand(piece: Piece, places: Places) -> Changed:
    """``uniq IN OUT``, ``xxd -r IN OUT``: the second operand is written."""
    options = read_options(piece.args, frozenset({"-f", "-s", "-w", "-c", "-g", "-l", "-o", "-n",
                                           "--skip-fields", "--skip-chars", "--check-chars",
                                           "-seek", "-cols", "-len"}), piece.program)  # fmt: skip
    return Changed(content=tuple(options.operands[1:2]))


_IN_PLACE = frozenset({"-i", *("--in-place"[:n] for n in range(4, 11))})  # GNU: `--in-pl`
_SED_WRITE = re.compile(r"(?:^|[;\n}]|/[gpIiMme0-9]*)\s*[0-9,$/]*[wW]\s+([^;\n}]+)")


def _sed(piece: Piece, places: Places) -> Changed:
    # (-i takes its backup suffix only attached: `-i.bak`, never the next word)
    options = read_options(piece.args, frozenset({"-e", "--expression", "-f", "--file", "-l",
                                           "--line-length"}), "sed")  # fmt: skip
    scripts = [v for k, v in options.values.items() if k in ("-e", "--expression")]
    files = options.operands
    if not scripts and "-f" not in options.values and "--file" not in options.values:
        scripts, files = files[:1], files[1:]
    written = [m.group(1).strip() for s in scripts for m in _SED_WRITE.finditer(s)]
    in_place = not _IN_PLACE.isdisjoint(options.flags)
    return Changed(content=tuple(written) + (tuple(files) if in_place else ()))


def _yq(piece: Piece, places: Places) -> Changed:
    """``yq -i EXPR FILE``: the files it edits in place (else it only prints)."""
    options = read_options(piece.args, frozenset({"-e", "--expression", "-o", "-p", "-I"}))
    if options.flags.isdisjoint(("-i", "--inplace", "--in-place")):
        return NOTHING
    return Changed(content=tuple(options.operands))


_FIND_WRITES = frozenset({"-fprint", "-fprint0", "-fprintf", "-fls"})


def _find(piece: Piece, places: Places) -> Changed:
    args = piece.args
    return Changed(content=tuple(args[i + 1] for i, a in enumerate(args[:-1])
                                 if a in _FIND_WRITES))  # fmt: skip


_FETCH_VALUED = {
    "curl": frozenset({"-o", "--output", "--output-dir", "-d", "--data", "-H", "--header", "-X",
                       "-u", "-A", "-e", "-T", "--upload-file", "-F", "--form", "-w", "-b", "-c",
                       "--cookie-jar", "--config", "-K"}),
    "wget": frozenset({"-O", "--output-document", "-P", "--directory-prefix", "-o",
                       "--output-file", "-a", "--append-output", "-U", "--header"}),
}  # fmt: skip
_FETCH_OUT = ("-o", "--output", "-O", "--output-document", "-c", "--cookie-jar",
              "--output-file", "-a", "--append-output")  # fmt: skip


def _fetch(piece: Piece, places: Places) -> Changed:
    """``curl -o F``, ``wget -O F``, ``-P DIR``: the files a download writes."""
    options = read_options(piece.args, _FETCH_VALUED[piece.program or "curl"])
    values = options.values
    found = [values[k] for k in _FETCH_OUT if k in values]
    folder = values.get("-P") or values.get("--directory-prefix") or values.get("--output-dir")
    if folder:
        found.append(folder)
    return Changed(whole=tuple(found))


_PATCH_VALUED = frozenset({"-p", "--strip", "-d", "--directory", "-i", "--input", "-o",
                           "--output", "-r", "--reject-file", "-D", "--ifdef", "-F", "--fuzz",
                           "-z", "--suffix", "-B", "--prefix", "-V", "--version-control",
                           "--exclude", "--include", "-C", "--context"})  # fmt: skip


def _patch(piece: Piece, places: Places) -> Changed:
    """``patch`` and ``git apply``: the files the patch names (read from it, at most
    `patchfiles.MAX_PATCH_BYTES`), under each strip level it could mean, or the file given."""
    git = piece.program == "git"
    options = read_options(piece.args[1:] if git else piece.args, _PATCH_VALUED)
    values = options.values
    operands = options.operands
    if git:
        files, given = operands, []
    else:
        named = values.get("-i") or values.get("--input")
        files = [named] if named else (operands[1:2] or list(piece.reads[:1]))
        given = operands[:1]
    out = values.get("-o") or values.get("--output")
    folder = values.get("-d") or values.get("--directory") or ""
    strip = values.get("-p") or values.get("--strip")
    levels = {int(strip)} if strip and strip.isdigit() else ({1} if git else {0, 1})
    found: list[str] = [*given, *([out] if out else [])]
    for file in files:
        for named_path in patched_files(locate(file, piece.cwd, places).path):
            parts = named_path.split("/")
            for level in levels:
                kept = "/".join(parts[level:])
                if kept:
                    found.append(os.path.join(folder, kept) if folder else kept)
            if not git and strip is None:
                found.append(os.path.join(folder, parts[-1]) if folder else parts[-1])
    return Changed(content=tuple(dict.fromkeys(found)))


_GIT_VALUED = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "-f", "--file",
                         "-m", "-b", "-B", "--source", "-s", "--pathspec-from-file"})  # fmt: skip


def _git(piece: Piece, places: Places) -> Changed:
    options = read_options(piece.args, _GIT_VALUED)
    operands = options.operands
    if not operands:
        return NOTHING
    sub, rest = operands[0], operands[1:]
    if sub in ("rm", "mv", "clean"):
        if sub == "mv" and len(rest) >= 2:
            folder = len(rest) > 2 or _is_folder(rest[-1], piece, places)
            moved = [_into(rest[-1], s) if folder else rest[-1] for s in rest[:-1]]
            return Changed(whole=(*rest[:-1], *moved))
        return Changed(whole=tuple(rest) or (".",) if sub == "clean" else tuple(rest))
    if sub == "apply":
        return _patch(piece, places)
    if sub in ("checkout", "restore", "am", "stash", "reset"):
        return Changed(content=tuple(r for r in rest if not r.startswith(("HEAD", "@", "origin"))))
    if sub == "config":
        out = options.values.get("-f") or options.values.get("--file")
        return Changed(content=(out,)) if out else NOTHING
    return NOTHING


CHANGERS: dict[str, Callable[[Piece, Places], Changed]] = {
    **dict.fromkeys(("cp", "mv", "ln", "install"), _copying),
    "rsync": _rsync,
    **dict.fromkeys(("tar", "bsdtar", "gtar"), _tar),
    "unzip": _unzip,
    **dict.fromkeys(MODE_PROGRAMS, _mode),
    **dict.fromkeys(
        ("rm", "rmdir", "unlink", "shred", "srm", "trash", "trash-put", "gio", "wipe"), _removing
    ),
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


_GIT_CHANGING = frozenset({"rm", "mv", "clean", "checkout", "restore", "apply", "am", "stash",
                           "reset", "config"})  # fmt: skip


def changed(piece: Piece, written: tuple[str, ...], places: Places,
            subcommand: str | None = None) -> Changed:  # fmt: skip
    """What ``piece`` changes (``written``: the words of the paths a program not read
    here writes, as `facts.Facts` found them; ``subcommand``: its subcommand, if known)."""
    if piece.tool != "bash":
        return Changed(content=written) if written else NOTHING
    if piece.program == "git" and subcommand is not None and subcommand not in _GIT_CHANGING:
        out = tuple(a[9:] for a in piece.args if a.startswith("--output="))  # `git diff`'s
        return Changed(content=out) if out else NOTHING  # most git: status, log, add, commit
    reader = CHANGERS.get(piece.program or "")
    if reader is None:
        if piece.program in CONTAINER_PROGRAMS and mounts(piece.program, piece.args) is not None:
            return Changed(whole=written) if written else NOTHING  # all below a mount
        if piece.program in READ_ONLY or not written:
            return NOTHING
        return _new_tuple(Changed, (written, ()))  # (made for most pieces: no keyword call)
    found = reader(piece, places)
    return found
