"""The builtins that change the shell's state as `evaluate` follows it: ``set --``,
``shift``, ``cd``/``pushd`` (``$PWD``, ``$OLDPWD``), ``read`` from a known input and
``printf -v``. What they set from something unknown is unknown (`Unknown` is raised after
the names are marked so).
"""

from __future__ import annotations

import posixpath
import re

from amplifier_hooks.guard.evaloutput import printf_format
from amplifier_hooks.guard.evalscope import Scope, Unknown, split_ifs

__all__ = ["STATE", "change_state"]

STATE = frozenset({"set", "shift", "cd", "pushd", "read", "printf"})
_NAME = re.compile(r"[A-Za-z_]\w*")


def change_state(scope: Scope, program: str, args: list[str], stdin: str | None,
                 prefix: dict[str, str]) -> bool:  # fmt: skip
    """Apply ``program args`` to ``scope``; False when it is not a change of state
    (``printf`` without ``-v``: it prints)."""
    if program == "set":
        if args and (args[0] == "--" or not args[0].startswith(("-", "+"))):
            scope.args = tuple(args[1:] if args[0] == "--" else args)
    elif program == "shift":
        count = int(args[0]) if args and args[0].isdigit() else 1
        if scope.args is None:
            raise Unknown("shift")
        scope.args = scope.args[count:]
    elif program in ("cd", "pushd"):
        _cd(scope, args)
    elif program == "read":
        _read(scope, args, stdin, prefix.get("IFS"))
    elif program == "printf" and args[:1] == ["-v"] and len(args) > 2:
        if _NAME.fullmatch(args[1]) is None:
            raise Unknown("printf -v")
        scope.assign(args[1], None)
        text = printf_format(args[2], args[3:])
        if text is None:
            raise Unknown("printf -v")
        scope.assign(args[1], text)
    else:
        return False
    return True


def _cd(scope: Scope, args: list[str]) -> None:
    operands = [a for a in args if not a.startswith("-") or a == "-"]
    target = operands[0] if operands else scope.home
    if target == "-":
        old = scope.lookup("OLDPWD")
        if not isinstance(old, str):
            raise Unknown("OLDPWD")
        target = old
    if not scope.cwd:
        raise Unknown("cwd")
    new = posixpath.normpath(posixpath.join(scope.cwd, target))
    scope.variables["OLDPWD"] = scope.cwd
    scope.cwd = new
    scope.variables.pop("PWD", None)


def _read(scope: Scope, args: list[str], stdin: str | None, ifs: str | None) -> None:
    names: list[str] = []
    array: str | None = None
    at = 0
    while at < len(args):
        arg = args[at]
        if arg in ("-a",) and at + 1 < len(args):
            array = args[at + 1]
            at += 2
            continue
        if arg in ("-p", "-d", "-t", "-n", "-N", "-u", "-i") and at + 1 < len(args):
            at += 2
            continue
        if not arg.startswith("-"):
            names.append(arg)
        at += 1
    for name in [*names, *([array] if array else [])]:
        scope.assign(name, None)
    if stdin is None or "-d" in args:
        raise Unknown("read input")
    line = stdin.split("\n", 1)[0]
    separators = ifs if ifs is not None else scope.ifs
    if array is not None:
        scope.assign(array, tuple(split_ifs(line, separators)))
        return
    names = names or ["REPLY"]
    parts = split_ifs(line, separators)
    for index, name in enumerate(names):
        if index == len(names) - 1 and len(parts) > len(names):
            head = split_ifs(line, separators)[:index]
            rest = line.strip(" \t")
            for part in head:  # the last name takes the rest of the line
                rest = rest[rest.index(part) + len(part) :].lstrip(separators)
            scope.assign(name, rest)
        else:
            scope.assign(name, parts[index] if index < len(parts) else "")
