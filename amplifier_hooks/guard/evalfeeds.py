"""Programs that run a command made of what they are given, as `evaluate` reads them:
``xargs`` with its input known, ``env -S STRING``, ``env BASH_FUNC_f%%='() {...}'``
(a function exported to the shell it starts), and a shell's ``-c SCRIPT [$0 ARGS]``.

Each reads only the options it knows; anything else is None (not evaluated).
"""

from __future__ import annotations

import re
import shlex

from tree_sitter import Node

from amplifier_hooks.guard.evalscope import Scope, Unknown
from amplifier_hooks.guard.lonedollars import bash_tree

__all__ = ["MAX_ITEMS", "ShellCall", "arg_file", "env_command", "function_definition", "shell_call",
           "xargs_commands"]  # fmt: skip

MAX_ITEMS = 16
_ENV_NAME = re.compile(r"\$\{([A-Za-z_]\w*)\}")
_ASSIGNMENT = re.compile(r"[A-Za-z_][\w%]*=")
_FUNCTION = re.compile(r"BASH_FUNC_([A-Za-z_][\w.-]*)(?:%%|\(\))=(\(\)\s*\{.*\})\Z", re.S)
_OPTIONS_C = re.compile(r"-[a-zA-Z]*c[a-zA-Z]*")


def xargs_commands(args: list[str], stdin: str) -> list[list[str]] | None:
    """The commands ``xargs ARGS`` runs on the input ``stdin`` (at most `MAX_ITEMS`)."""
    replace: str | None = None
    zero = False
    at = 0
    while at < len(args) and args[at].startswith("-"):
        arg = args[at]
        if arg in ("-I", "-i") or arg.startswith(("-I", "--replace=")):
            if arg == "-I":
                if at + 1 >= len(args):
                    return None
                replace, at = args[at + 1], at + 2
                continue
            replace = arg[2:] or "{}" if not arg.startswith("--") else arg.partition("=")[2]
        elif arg in ("-0", "--null"):
            zero = True
        elif arg in ("-P", "-n", "-L", "-s") and at + 1 < len(args):
            at += 2
            continue
        elif re.fullmatch(r"-(?:[rtx]+|[PnLs]\d+)|--no-run-if-empty|--verbose", arg) is None:
            return None
        at += 1
    command = args[at:] or ["echo"]
    if zero:
        items = [i for i in stdin.split("\0") if i]
    elif replace is not None:
        items = [line.strip() for line in stdin.split("\n") if line.strip()]
    else:
        if any(c in stdin for c in "'\"\\"):
            return None
        items = stdin.split()
    if len(items) > MAX_ITEMS:
        return None
    if replace is None:
        return [[*command, *items]] if items else []
    return [[a.replace(replace, item) for a in command] for item in items]


def arg_file(args: list[str], fds: dict[str, str]) -> tuple[list[str], str] | None:
    """``xargs -a <(CMD) ...`` (``--arg-file``): its other words, and the text it reads its
    items from, the output of CMD; None when it reads no file the shell made here."""
    for at, arg in enumerate(args):
        if arg == "--":
            return None
        if arg in ("-a", "--arg-file") and at + 1 < len(args):
            name, rest = args[at + 1], args[:at] + args[at + 2 :]
        elif arg.startswith(("--arg-file=", "-a")) and arg not in ("-a", "--arg-file="):
            name, rest = (
                arg.partition("=")[2] if arg[1] == "-" else arg[2:],
                args[:at] + args[at + 1 :],
            )
        elif arg.startswith("-"):
            continue
        else:
            return None  # the command xargs runs: its words are its own
        return (rest, fds[name]) if name in fds else None
    return None


def env_command(args: list[str], scope: Scope) -> tuple[list[str], dict[str, str]] | None:
    """``env ARGS``'s command, its ``-S`` string split as env splits it, and the functions
    it exports by name (their definitions' text); None when it runs none or an option is
    not known."""
    functions: dict[str, str] = {}
    words: list[str] = []
    at = 0
    while at < len(args):
        arg = args[at]
        if arg in ("-S", "--split-string") or arg.startswith(("-S", "--split-string=")):
            if arg in ("-S", "--split-string"):
                if at + 1 >= len(args):
                    return None
                text, at = args[at + 1], at + 2
            else:
                text, at = arg[2:] if arg.startswith("-S") else arg.partition("=")[2], at + 1
            split = _split_string(text, scope)
            if split is None:
                return None
            return [*split, *args[at:]], functions
        if arg in ("-i", "--ignore-environment", "-"):
            at += 1
            continue
        if arg in ("-u", "--unset") and at + 1 < len(args):
            at += 2
            continue
        if arg.startswith("-"):
            return None
        if _ASSIGNMENT.match(arg):
            found = _FUNCTION.match(arg)
            if found is not None:
                functions[found.group(1)] = f"{found.group(1)} {found.group(2)}"
            at += 1
            continue
        words = args[at:]
        break
    return (words, functions) if words else None


def _split_string(text: str, scope: Scope) -> list[str] | None:
    def value(found: re.Match[str]) -> str:
        got = scope.lookup(found.group(1))
        if not isinstance(got, str):
            raise ValueError(found.group(1))
        return got

    try:
        return shlex.split(_ENV_NAME.sub(value, text))
    except ValueError:
        return None


class ShellCall:
    """``sh -c SCRIPT [$0 [ARGS]]`` read: the script, ``$0`` and the arguments."""

    def __init__(self, script: str, zero: str, args: tuple[str, ...]) -> None:
        self.script, self.zero, self.args = script, zero, args


def shell_call(args: list[str]) -> ShellCall | None:
    """A shell's arguments as ``-c SCRIPT`` with its ``$0`` and ``$@`` (None: no ``-c``)."""
    at = 0
    while at < len(args) and args[at].startswith("-") and _OPTIONS_C.fullmatch(args[at]) is None:
        if args[at] in ("-o", "+o"):
            at += 1
        at += 1
    if at + 1 >= len(args) or _OPTIONS_C.fullmatch(args[at]) is None:
        return None
    rest = args[at + 2 :]
    return ShellCall(args[at + 1], rest[0] if rest else "sh", tuple(rest[1:]))


def function_definition(text: str) -> tuple[bytes, Node]:
    """The text and body of ``NAME () { ...; }`` (an exported function's definition)."""
    root, source = bash_tree(text.encode("utf-8", "replace"))
    found = root.named_children[0] if root.named_children else None
    body = found.child_by_field_name("body") if found is not None else None
    if root.has_error or found is None or found.type != "function_definition" or body is None:
        raise Unknown("function")
    return source, body
