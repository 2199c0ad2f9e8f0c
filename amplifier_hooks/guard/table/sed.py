"""sed, read as sed reads its script: ``w``/``W`` write a file, ``r``/``R`` read one, ``e``
runs a command (also the ``w`` and ``e`` flags of ``s``), ``-i`` rewrites every file it
is given. A script this reader cannot follow to its end is doubtful (no grant)."""

from __future__ import annotations

from amplifier_hooks.guard.table.acts import Act, Does, Reading, acts_of, doubtful
from amplifier_hooks.guard.table.options import Read, opts, read_options

__all__ = ["PATTERN_SPACE", "added_text", "inserted_text", "read_script", "rewrites_quietly",
           "scripted", "sed"]  # fmt: skip

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


def added_text(scripts: tuple[str, ...]) -> list[str]:
    """The text each ``a``, ``i`` and ``c`` of sed's ``scripts`` puts in (GNU sed joins its
    ``-e`` scripts with new lines)."""
    texts: list[str] = []
    read_script("\n".join(scripts), texts)
    return texts


def swapped_text(scripts: tuple[str, ...]) -> list[tuple[str, str]]:
    """The pattern and the replacement of each ``s`` of sed's ``scripts``, their escapes of
    the delimiter and of regex punctuation undone (``s/a\\.b/c/``: ``a.b``, ``c``)."""
    swaps: list[tuple[str, str]] = []
    read_script("\n".join(scripts), swaps=swaps)
    return swaps


def _swap(command: str) -> tuple[str, str]:
    """``/RE/REPL/`` as the text RE matches, roughly, and REPL."""
    delimiter = command[0]
    parts: list[str] = [""]
    at = 1
    while at < len(command) and len(parts) < 3:
        char = command[at]
        if char == "\\" and at + 1 < len(command):
            parts[-1] += command[at + 1]
            at += 2
            continue
        if char == delimiter:
            parts.append("")
        else:
            parts[-1] += char
        at += 1
    pattern, replacement = parts[0], parts[1] if len(parts) > 1 else ""
    return pattern.strip("^$"), replacement


def sed(args: tuple[str, ...]) -> Reading:
    return _reading(read_options(SED, args))


def rewrites_quietly(args: tuple[str, ...]) -> bool:
    """Whether ``sed ARGS`` rewrites its files in place and prints nothing: with ``-i``
    all it puts out (``p`` and ``=`` too) goes into the file, but a ``w`` to a stream."""
    read = read_options(SED, args)
    if not any(g.opt.does == "in-place" for g in read.given):
        return False
    reading = _reading(read)
    return reading.doubt is None and not any(
        act.does == Does.WRITE and act.target in _STREAMS for act in reading.acts
    )


_STREAMS = frozenset({"/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2",
                      "/proc/self/fd/1", "/proc/self/fd/2"})  # fmt: skip
"""The files a ``w`` command writes into the transcript."""


def _reading(read: Read) -> Reading:
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


def read_script(
    script: str, texts: list[str] | None = None, swaps: list[tuple[str, str]] | None = None
) -> Reading:
    """The acts of a sed script: the files its ``r``/``w`` commands and ``s///w`` flags
    name, and the commands ``e`` runs; ``texts`` gets the text of each ``a``/``i``/``c``,
    ``swaps`` the pattern and replacement of each ``s``."""
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
            start, at = at, _text_end(script, at)
            if texts is not None:
                texts.append(inserted_text(script[start:at]))
            continue
        if command in _TO_END:
            stop = _line_end(script, at)
            target = script[at:stop].strip()
            acts.append(Act(_TO_END[command], PATTERN_SPACE if command == "e" and not target
                            else target))  # fmt: skip
            at = stop
            continue
        if command in "sy":
            parts = _delimited(script, at, 2)
            if parts is None:
                return doubtful(f"a sed {command} command the guard cannot read")
            start, at = at, parts
            if command == "y":
                continue
            if swaps is not None:
                swaps.append(_swap(script[start:parts]))
            flags = at
            while at < end and (script[at] in "gpiImMe" or script[at].isdigit()):
                at += 1
            if "e" in script[flags:at]:  # the pattern space, once substituted, is run
                acts.extend(_substituted_run(script[start:flags]))
            if at < end and script[at] == "w":
                stop = _line_end(script, at + 1)
                acts.append(Act(Does.WRITE, script[at + 1 : stop].strip()))
                at = stop
                continue
            if at < end and script[at] not in " \t\n;}":
                return doubtful(f"a sed s flag the guard does not know: {script[at]!r}")
            continue
        return doubtful(f"a sed command the guard does not know: {command!r}")
    return Reading(tuple(acts))


PATTERN_SPACE = "(the line sed reads)"
"""The target of an ``e`` that runs the line read (``e`` alone, ``s/^/ls /e``): a command
known only when sed runs, never granted (`table.unread_commands`)."""

_WHOLE_LINE = frozenset({".*", "^.*", "^.*$", ".*$", "^.\\+$", ".\\+"})


def _substituted_run(command: str) -> tuple[Act, ...]:
    """What ``s/RE/REPL/e`` runs: REPL alone when RE is the whole line and REPL takes
    nothing from it; otherwise REPL's text is judged and the rest is the line read."""
    delimiter = command[0]
    pieces: list[str] = []
    at, part = 1, ""
    while at < len(command):
        if command[at] == "\\" and at + 1 < len(command):
            part += command[at + 1] if command[at + 1] == delimiter else command[at : at + 2]
            at += 2
            continue
        if command[at] == delimiter:
            pieces.append(part)
            part = ""
        else:
            part += command[at]
        at += 1
    pattern, replacement = [*pieces, "", ""][:2]
    uses_line = "&" in replacement or any(f"\\{n}" in replacement for n in range(10))
    known = () if uses_line or not replacement.strip() else (Act(Does.RUN, replacement),)
    if pattern in _WHOLE_LINE and known:
        return known
    return (*known, Act(Does.RUN, PATTERN_SPACE))


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


_ESCAPES = {"t": "\t", "n": "\n"}


def inserted_text(spelled: str) -> str:
    """The lines an ``a``/``i``/``c`` command's text puts into the file, as GNU sed reads
    it: ``a\\`` then the text on the next lines, or ``a TEXT`` (its leading blanks
    dropped, a backslash keeping them); a backslash ending a line continues the text, and
    one before any other character is dropped (``\\t``, ``\\n``: a tab, a new line)."""
    text = spelled.lstrip(" \t")
    if text.startswith("\\\n"):
        text = text[2:]
    elif text.startswith("\\"):
        text = text[1:]
    lines = []
    for line in text.split("\n"):
        line = line[:-1] if line.endswith("\\") else line
        out, at = "", 0
        while at < len(line):
            if line[at] == "\\" and at + 1 < len(line):  # GNU's escapes: \t a tab
                at += 1
                out += _ESCAPES.get(line[at], line[at])
            else:
                out += line[at]
            at += 1
        lines.append(out)
    return "\n".join(lines)


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
