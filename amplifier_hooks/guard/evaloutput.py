"""What a few commands print, as `evaluate` needs it for a ``$(...)``: ``echo``,
``printf``, ``which``/``command -v``/``type -P`` (the name they find: running it is
running that program), ``pwd``, ``dirname``, ``basename``, ``whoami``/``id -un``.

Only what the words alone decide; None for anything else (the output is then unknown).
"""

from __future__ import annotations

import posixpath
import re

from amplifier_hooks.guard.evalscope import Scope

__all__ = ["output_of", "printf_format"]

_FINDERS = {("which",), ("command", "-v"), ("command", "-V"), ("type", "-P"), ("type", "-p"),
            ("whence", "-p")}  # fmt: skip


def output_of(words: list[str], scope: Scope, stdin: str | None = None) -> str | None:
    """The output of the command ``words`` (given ``stdin``), or None when it is not
    known."""
    program, args = posixpath.basename(words[0]), words[1:]
    if program == "cat" and not args:
        return stdin
    if program == "echo":
        return _echo(args)
    if program == "printf":
        return printf_format(args[0], args[1:]) if args and not args[0].startswith("-") else None
    for finder in _FINDERS:
        if (program, *args[: len(finder) - 1]) == finder:
            names = args[len(finder) - 1 :]
            if len(names) != 1 or names[0].startswith("-"):
                return None
            scope.guessed = True  # (it prints the path PATH finds: the guard guesses it)
            return posixpath.basename(names[0]) + "\n"
    if program == "pwd" and scope.cwd:
        return scope.cwd + "\n"
    if program in ("dirname", "basename") and len(args) in (1, 2) and not args[0].startswith("-"):
        path = args[0]
        if program == "dirname" and len(args) == 1:
            return _dirname(path) + "\n"
        if program == "basename":
            base = posixpath.basename(path.rstrip("/")) or ("/" if path.startswith("/") else "")
            if len(args) == 2 and base.endswith(args[1]) and base != args[1]:
                base = base[: -len(args[1])]
            return base + "\n"
        return None
    if (program == "whoami" and not args) or (program == "id" and args == ["-un"]):
        scope.guessed = True  # (the home folder's name, as a guess at the user's)
        return posixpath.basename(scope.home.rstrip("/")) + "\n"
    if stdin is not None and program == "tr":
        return _tr(args, stdin)
    if stdin is not None and program == "sed" and len(args) == 1:
        return _sed(args[0], stdin)
    return None


def _tr_set(text: str) -> str | None:
    """A ``tr`` set of plain characters and ranges (``a-z``); None for classes,
    escapes or repeats."""
    if any(c in text for c in "[\\"):
        return None
    out: list[str] = []
    at = 0
    while at < len(text):
        if at + 2 < len(text) and text[at + 1] == "-" and text[at] <= text[at + 2]:
            out.extend(chr(c) for c in range(ord(text[at]), ord(text[at + 2]) + 1))
            at += 3
        else:
            out.append(text[at])
            at += 1
    return "".join(out) if len(out) <= 256 else None


def _tr(args: list[str], stdin: str) -> str | None:
    """``tr SET1 SET2`` and ``tr -d SET`` of plain sets."""
    if len(args) == 2 and args[0] == "-d":
        found = _tr_set(args[1])
        return None if found is None else stdin.translate({ord(c): None for c in found})
    if len(args) != 2 or args[0].startswith("-"):
        return None
    first, second = _tr_set(args[0]), _tr_set(args[1])
    if not first or not second:
        return None
    second = second + second[-1] * (len(first) - len(second))  # (the last one repeated)
    return stdin.translate({ord(a): b for a, b in zip(first, second, strict=False)})


_SED = re.compile(r"s(.)((?:(?!\1)[^\\.*\[\]^$])+)\1((?:(?!\1)[^\\&])*)\1(g?)\Z")
"""``s/OLD/NEW/`` or ``s/OLD/NEW/g`` where OLD is plain text (no pattern character) and
NEW has no ``&`` or escape: a replacement of text, line by line."""


def _sed(script: str, stdin: str) -> str | None:
    found = _SED.match(script)
    if found is None:
        return None
    old, new, every = found.group(2), found.group(3), found.group(4)
    lines = stdin.split("\n")
    return "\n".join(line.replace(old, new, -1 if every else 1) for line in lines)


def _dirname(path: str) -> str:
    stripped = path.rstrip("/")
    if not stripped:
        return "/" if path else "."
    head = stripped.rpartition("/")[0]
    if "/" not in stripped:
        return "."
    return head.rstrip("/") or "/"


def _echo(args: list[str]) -> str:
    newline, escapes = True, False
    while args and re.fullmatch(r"-[neE]+", args[0]):
        newline = newline and "n" not in args[0]
        escapes = "e" in args[0] or (escapes and "E" not in args[0])
        args = args[1:]
    text = " ".join(args)
    if escapes:
        text = _escapes(text)
    return text + ("\n" if newline else "")


_ESCAPE = re.compile(r"\\(0[0-7]{0,3}|[0-7]{1,3}|x[0-9a-fA-F]{1,2}|.)", re.S)
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
           "e": "\x1b", "\\": "\\", '"': '"', "'": "'"}  # fmt: skip


def _escapes(text: str) -> str:
    def one(found: re.Match[str]) -> str:
        code = found.group(1)
        if code[0] in "01234567":
            return chr(int(code, 8) & 0xFF) if code != "0" else "\0"
        if code[0] == "x" and len(code) > 1:
            return chr(int(code[1:], 16))
        return _SIMPLE.get(code, "\\" + code)

    return _ESCAPE.sub(one, text)


_SPEC = re.compile(r"%([-+ 0#]*)(\d*)(?:\.(\d+))?([sbdiqcxXo%])")


def printf_format(fmt: str, args: list[str]) -> str | None:
    """``printf FMT ARGS``'s output: the format used again while arguments are left."""
    out: list[str] = []
    rest = list(args)
    for _ in range(64):
        used = False

        def spec(found: re.Match[str]) -> str:
            nonlocal used
            flags, width, precision, kind = found.groups()
            if kind == "%":
                return "%"
            used = True
            value = rest.pop(0) if rest else ""
            if kind == "b":
                value = _escapes(value)
            elif kind in "diouxXc" and kind != "c":
                try:
                    number = int(value or "0", 0)
                except ValueError as exc:
                    raise _Unprintable from exc
                value = format(number, {"d": "d", "i": "d", "x": "x", "X": "X", "o": "o"}[kind])
            elif kind == "c":
                value = value[:1]
            elif kind == "q":
                raise _Unprintable
            if precision and kind in "sb":
                value = value[: int(precision)]
            if width:
                value = value.ljust(int(width)) if "-" in flags else value.rjust(int(width))
            return value

        try:
            at = 0
            for found in _SPEC.finditer(fmt):
                out.append(_escapes(fmt[at : found.start()]))  # (the format's escapes only)
                out.append(spec(found))
                at = found.end()
            out.append(_escapes(fmt[at:]))
        except _Unprintable:
            return None
        if not used or not rest:
            return "".join(out)
    return None


class _Unprintable(Exception):
    """A conversion the guard does not reproduce."""
