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
        return posixpath.basename(scope.home.rstrip("/")) + "\n"
    return None


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
