"""sed, read as sed reads its script: ``w``/``W`` write a file, ``r``/``R`` read one, ``e``
runs a command (also the ``w`` and ``e`` flags of ``s``), ``-i`` rewrites every file it
is given. A script this reader cannot follow to its end is doubtful (no grant)."""

from __future__ import annotations

from amplifier_hooks.guard.table.acts import Act, Does, Reading, acts_of, doubtful
from amplifier_hooks.guard.table.options import Read, opts, read_options

__all__ = ["read_script", "scripted", "sed"]

SED = opts(
    "-n,--quiet,--silent -e,--expression=:script -f,--file=:script-file -i,--in-place=?:in-place "
    "-E,-r,--regexp-extended -s,--separate -u,--unbuffered -z,--null-data -l,--line-length= "
    "--posix --debug --sandbox --follow-symlinks -b,--binary --help --version"
)

_SIMPLE = frozenset("=dDgGhHlnNpPxzF")
_TO_END = {"r": Does.READ, "R": Does.READ, "w": Does.WRITE, "W": Does.WRITE, "e": Does.RUN}


def scripted(args: tuple[str, ...]) -> tuple[tuple[str, ...], Read]:
    """sed's scripts (none known: in a file, ``-f``) and how it reads ``args``; its
    files are the operands after the script."""
    read = read_options(SED, args)
    given = read.values("script")
    if given or read.values("script-file"):
        return given, read
    return read.operands[:1], read._replace(operands=read.operands[1:])


def sed(args: tuple[str, ...]) -> Reading:
    read = read_options(SED, args)
    if read.doubt is not None:
        return doubtful(read.doubt)
    if read.values("script-file") or read.has("script-file"):
        return doubtful("sed -f runs a script from a file the guard does not read")
    scripts = list(read.values("script"))
    operands = list(read.operands)
    if not scripts:
        if not operands:
            return doubtful("sed without a script")
        scripts.append(operands.pop(0))
    in_place = any(g.opt.does == "in-place" for g in read.given)
    if in_place and "" in operands:
        return doubtful("sed -i '' is a suffix on one sed and a script on another")
    acts: list[Act] = []
    for script in scripts:
        found = read_script(script)
        if found.doubt is not None:
            return found
        acts.extend(found.acts)
    acts.extend(acts_of(Does.WRITE if in_place else Does.READ, operands))
    return Reading(tuple(acts))


def read_script(script: str) -> Reading:
    """The acts of a sed script: the files its ``r``/``w`` commands and ``s///w`` flags
    name, and the commands ``e`` runs."""
    acts: list[Act] = []
    at, end = 0, len(script)
    while at < end:
        char = script[at]
        if char in " \t\n;}":
            at += 1
            continue
        if char == "#":
            at = _line_end(script, at)
            continue
        at = _skip_address(script, at)
        if at < 0:
            return doubtful("a sed address the guard cannot read")
        while at < end and script[at] in " \t!":
            at += 1
        if at >= end:
            return doubtful("a sed address with no command")
        command = script[at]
        at += 1
        if command in _SIMPLE or command == "{":
            continue
        if command in "qQlL":
            while at < end and (script[at].isdigit() or script[at] in " \t"):
                at += 1
            continue
        if command in ":btTv":
            while at < end and script[at] not in ";\n":
                at += 1
            continue
        if command in "aic":
            at = _text_end(script, at)
            continue
        if command in _TO_END:
            stop = _line_end(script, at)
            acts.append(Act(_TO_END[command], script[at:stop].strip()))
            at = stop
            continue
        if command in "sy":
            start, parts = at, _delimited(script, at, 2)
            if parts is None:
                return doubtful(f"a sed {command} command the guard cannot read")
            at = parts
            if command == "y":
                continue
            while at < end and (script[at] in "gpiImM" or script[at].isdigit()):
                at += 1
            if at < end and script[at] in "we":
                flag = script[at]
                stop = _line_end(script, at + 1)
                target = script[at + 1 : stop].strip()
                if flag == "e":  # the pattern space, once replaced, runs: its new text
                    target = _replacement(script, start, at) or target
                acts.append(Act(Does.WRITE if flag == "w" else Does.RUN, target))
                at = stop
                continue
            if at < end and script[at] not in " \t\n;}":
                return doubtful(f"a sed s flag the guard does not know: {script[at]!r}")
            continue
        return doubtful(f"a sed command the guard does not know: {command!r}")
    return Reading(tuple(acts))


def _replacement(script: str, start: int, end: int) -> str:
    """The replacement of the ``s`` command between ``start`` (its delimiter) and ``end``
    (past its flags), its escaped delimiters unescaped: ``s/x/cat ~\\/f/e`` runs
    ``cat ~/f`` where the pattern matched the whole line (the text around a partial match
    is the input's, which no reader sees)."""
    delimiter = script[start]
    middle = _delimited(script, start, 1)
    if middle is None:
        return ""
    last = script.rfind(delimiter, middle, end)
    return script[middle:last].replace("\\" + delimiter, delimiter) if last > middle else ""


def _line_end(script: str, at: int) -> int:
    stop = script.find("\n", at)
    return len(script) if stop < 0 else stop


def _text_end(script: str, at: int) -> int:
    """The end of ``a``/``i``/``c`` text: the line's end, lines ended by a backslash
    continuing it."""
    while True:
        stop = _line_end(script, at)
        if stop > at and script[stop - 1] == "\\" and stop < len(script):
            at = stop + 1
            continue
        return stop


def _delimited(script: str, at: int, parts: int) -> int | None:
    """Past ``parts`` parts ended by the delimiter at ``at`` (``s/a/b/``: two)."""
    if at >= len(script) or script[at] in "\n\\":
        return None
    delimiter = script[at]
    at += 1
    for _ in range(parts):
        while at < len(script) and script[at] != delimiter:
            at += 2 if script[at] == "\\" else 1
        if at >= len(script):
            return None
        at += 1
    return at


def _skip_address(script: str, at: int) -> int:
    """Past an address (``3``, ``$``, ``/re/I``, ``\\%re%``, ``1~2``, ``a,b``, ``a,+3``);
    -1 when it cannot be read."""
    for index in range(2):
        if at < len(script) and script[at] in "+~" and index == 1:
            at += 1
        start = at
        if at < len(script) and script[at] == "$":
            at += 1
        elif at < len(script) and script[at].isdigit():
            while at < len(script) and (script[at].isdigit() or script[at] == "~"):
                at += 1
        elif at < len(script) and script[at] in "/\\":
            if script[at] == "\\":
                at += 1
            found = _delimited(script, at, 1)
            if found is None:
                return -1
            at = found
            while at < len(script) and script[at] in "IM":
                at += 1
        if at == start and index == 1:
            return -1
        if index == 0 and at < len(script) and script[at] == ",":
            at += 1
            continue
        break
    return at
