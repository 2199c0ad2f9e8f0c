"""``split`` and ``csplit``: the files they write are named by a prefix (``split IN PREFIX``,
``csplit -f PREFIX IN PATTERN...``), not by their operands (a pattern, ``{*}``); ``split
--filter=CMD`` writes none and gives each piece to CMD, with ``$FILE`` the piece's name:
judged as ``cat -- IN | CMD``, what runs and what it is fed.
"""

from __future__ import annotations

__all__ = ["SPLITTERS", "split_filters", "split_outputs"]

SPLITTERS = frozenset({"split", "csplit"})

_SPLIT_VALUED = frozenset({"-a", "--suffix-length", "-b", "--bytes", "-C", "--line-bytes",
                           "-l", "--lines", "-n", "--number", "-t", "--separator",
                           "--additional-suffix", "--filter"})  # fmt: skip
_CSPLIT_VALUED = frozenset({"-b", "--suffix-format", "-f", "--prefix", "-n", "--digits"})
_FLAGS = frozenset({"--numeric-suffixes", "--hex-suffixes", "--elide-empty-files",
                    "--unbuffered", "--verbose", "--quiet", "--silent", "--keep-files",
                    "--suppress-matched"})  # fmt: skip


def _read(program: str, args: tuple[str, ...]) -> tuple[dict[str, str], list[str]] | None:
    """The options given a value (by their long or short name) and the operands; None
    for an option the reader does not know."""
    valued = _SPLIT_VALUED if program == "split" else _CSPLIT_VALUED
    values: dict[str, str] = {}
    operands: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if word == "--":
            operands.extend(args[index:])
            break
        name, equals, value = word.partition("=")
        if equals and name in valued:
            values[name] = value
        elif word in valued and index < len(args):
            values[word] = args[index]
            index += 1
        elif word.startswith("-") and len(word) > 1 and word not in _FLAGS:
            if word.startswith("--") or not all(c in "dexsuzk" for c in word[1:]):
                return None
        else:
            operands.append(word)
    return values, operands


def split_outputs(program: str, args: tuple[str, ...]) -> tuple[str, ...] | None:
    """The first file each writes (its prefix and a suffix), none with ``--filter``; None
    when the call cannot be read."""
    read = _read(program, args)
    if read is None:
        return None
    values, operands = read
    if program == "csplit":
        return (values.get("-f", values.get("--prefix", "xx")) + "00",)
    if "--filter" in values:
        return ()
    prefix = operands[1] if len(operands) > 1 else "x"
    return (prefix + "aa" + values.get("--additional-suffix", ""),)


def split_filters(args: tuple[str, ...]) -> tuple[str, ...]:
    """``split --filter=CMD IN``: ``cat -- IN | CMD`` with ``$FILE`` the piece's name."""
    read = _read("split", args)
    if read is None or "--filter" not in read[0]:
        return ()
    values, operands = read
    source = operands[0] if operands and operands[0] != "-" else None
    prefix = operands[1] if len(operands) > 1 else "x"
    command = values["--filter"]
    for spelling in ("${FILE}", "$FILE"):
        command = command.replace(spelling, prefix + "aa")
    return (f"cat -- '{source}' | {command}" if source and "'" not in source else command,)
