"""What each JavaScript call with a known effect does (Node's ``fs`` and ``child_process``,
Deno's and Bun's own), as `CodeAct`s: the reader (`jsreader`) looks a call's canonical
name up here, and `codepieces` judges the acts as the commands that do the same.

A path or a command is taken only from literals (`jsliterals`, `jsvalues`); an act whose
path is known only at run time has a None target, which keeps the code asked.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

from tree_sitter import Node

from amplifier_hooks.guard.codeacts import CodeAct
from amplifier_hooks.guard.jsliterals import arguments, options, string_text
from amplifier_hooks.guard.jsvalues import Values

__all__ = ["ACTS", "ActFn"]

ActFn = Callable[[Values, Node], list[CodeAct]]


def _text(values: Values, node: Node, index: int) -> str | None:
    """Argument ``index`` as literal text (a string, or the path of ``Bun.file(path)``)."""
    args = arguments(node)
    if index >= len(args):
        return None
    value = values.of(args[index])
    return value.text if value.kind in ("str", "file") else None


def _texts(values: Values, node: Node, index: int) -> list[str | None]:
    """`_text`, or each element's when the argument is a loop's name over a literal
    array (``for (const d of ["dist", os.homedir()]) fs.rmSync(d, ..)``)."""
    args = arguments(node)
    if index >= len(args):
        return [None]
    found = values.each(args[index])
    return list(dict.fromkeys(v.text if v.kind in ("str", "file") else None for v in found))


def _option(node: Node, index: int, key: str) -> Node | bool | None:
    """Option ``key`` of the object literal at argument ``index``: its node, None when
    absent, True when the options are not a literal (any option may be set)."""
    args = arguments(node)
    if index >= len(args):
        return None
    found = options(args[index])
    return True if found is None else found.get(key)


def _set(node: Node, index: int, key: str) -> bool:
    """Option ``key`` is (or may be) set to something other than ``false``."""
    value = _option(node, index, key)
    return value is True or (isinstance(value, Node) and value.type not in ("false", "null"))


def _one(does: str) -> ActFn:
    """An act on the call's first argument (on each, in a loop over a literal array)."""
    return lambda values, node: [CodeAct(does, t) for t in _texts(values, node, 0)]


def _two(does: str) -> ActFn:
    """An act from the first argument to the second (``fs.copyFileSync(src, dst)``;
    ``fs.symlinkSync(target, path)`` makes ``path``)."""
    return lambda values, node: [CodeAct(does, _text(values, node, 1), _text(values, node, 0))]


def _removes(plain: str) -> ActFn:
    """``fs.rmSync(p)`` deletes a file; with ``{recursive: true}`` (or options the text
    does not show) a whole tree."""

    def act(values: Values, node: Node) -> list[CodeAct]:
        args = arguments(node)
        recursive = len(args) > 1 and _set(node, 1, "recursive")
        does = "delete-tree" if recursive else plain
        return [CodeAct(does, target) for target in _texts(values, node, 0)]

    return act


def _writes(values: Values, node: Node) -> list[CodeAct]:
    """A write, or an append where its options say so (``Deno.writeTextFile(p, s,
    {append: true})``)."""
    args = arguments(node)
    appends = len(args) > 2 and _set(node, 2, "append")
    return [CodeAct("append" if appends else "write", _text(values, node, 0))]


def _chmod(values: Values, node: Node) -> list[CodeAct]:
    args = arguments(node)
    mode: str | None = None
    if len(args) > 1:
        value = values.of(args[1])
        if value.kind == "str":
            mode = value.text
        elif value.kind == "data" and value.text is not None:
            try:
                mode = oct(int(value.text.replace("_", ""), 0))[2:]
            except ValueError:  # `0755` (a legacy octal) or a float: the mode is unknown
                mode = None
    return [CodeAct("chmod", _text(values, node, 0), mode=mode)]


def _open(values: Values, node: Node) -> list[CodeAct]:
    """``fs.openSync(p, "w")``, ``Deno.open(p, {write: true})``: a write unless the flags
    only read."""
    path = _text(values, node, 0)
    args = arguments(node)
    if len(args) < 2:
        return [CodeAct("read", path)]
    flags = values.of(args[1])
    if flags.kind == "str" and flags.text in ("r", "rs", "sr"):
        return [CodeAct("read", path)]
    if args[1].type == "object" and not any(
        _set(node, 1, key) for key in ("write", "append", "create", "createNew", "truncate")
    ):
        return [CodeAct("read", path)]
    appends = flags.kind == "str" and "a" in (flags.text or "")
    return [CodeAct("append" if appends else "write", path)]


def _words(values: Values, array: Node | bool | None) -> list[str] | None:
    """An array literal of strings as words; None where one is unknown."""
    if not isinstance(array, Node) or array.type != "array":
        return None
    words: list[str] = []
    for element in array.named_children:
        if element.type == "comment":
            continue
        value = values.of(element)
        if value.kind != "str" or value.text is None:
            return None
        words.append(value.text)
    return words


def _shell(values: Values, node: Node) -> list[CodeAct]:
    """``execSync("rm -rf x")``: a shell command line."""
    return [CodeAct("run", _text(values, node, 0))]


def _spawn(values: Values, node: Node) -> list[CodeAct]:
    """``spawnSync("rm", ["-rf", "x"])``, ``execFile(...)``: a program and its words (a
    shell's command line with ``{shell: true}``)."""
    program = _text(values, node, 0)
    args = arguments(node)
    rest: list[str] | None = []
    at = 1
    if len(args) > 1 and args[1].type == "array":
        rest, at = _words(values, args[1]), 2
    elif len(args) > 1 and args[1].type != "object":
        rest = None  # the words are in a variable
    if program is None or rest is None:
        return [CodeAct("run", None)]
    if len(args) > at and _set(node, at, "shell"):
        return [CodeAct("run", " ".join([program, *rest]))]
    return [CodeAct("run", shlex.join([program, *rest]))]


def _fork(values: Values, node: Node) -> list[CodeAct]:
    """``fork("x.js", [...])``: Node running that script."""
    script = _text(values, node, 0)
    args = arguments(node)
    rest = _words(values, args[1]) if len(args) > 1 and args[1].type == "array" else []
    if script is None or rest is None:
        return [CodeAct("run", None)]
    return [CodeAct("run", shlex.join(["node", "--", script, *rest]))]


def _argv(values: Values, node: Node) -> list[CodeAct]:
    """``Bun.spawn(["rm", "-rf", "x"])``, ``Bun.spawn({cmd: [...]})``, ``Deno.run({cmd:
    [...]})``: a program and its words."""
    args = arguments(node)
    first = args[0] if args else None
    words = _words(values, first) if first is not None and first.type == "array" else None
    if words is None and first is not None and first.type == "object":
        words = _words(values, _option(node, 0, "cmd"))
    return [CodeAct("run", shlex.join(words) if words else None)]


def _command(values: Values, node: Node) -> list[CodeAct]:
    """``new Deno.Command("rm", {args: ["-rf", "x"]})``."""
    program = _text(values, node, 0)
    args = arguments(node)
    rest = _words(values, _option(node, 1, "args")) if len(args) > 1 else []
    if program is None or rest is None:
        return [CodeAct("run", None)]
    return [CodeAct("run", shlex.join([program, *rest]))]


def _bun_shell(values: Values, node: Node) -> list[CodeAct]:
    """``Bun.$`rm -rf ${dir}` ``: Bun's shell runs the template, each value quoted."""
    args = arguments(node)
    if len(args) != 1 or args[0].type != "template_string":
        return [CodeAct("run", None)]
    parts: list[str] = []
    for child in args[0].named_children:
        if child.type == "template_substitution":
            inner = [c for c in child.named_children if c.type != "comment"]
            value = values.of(inner[0]) if len(inner) == 1 else None
            if value is None or value.kind != "str" or value.text is None:
                return [CodeAct("run", None)]
            parts.append(shlex.quote(value.text))
        elif child.type == "string_fragment":
            parts.append((child.text or b"").decode("utf-8", "replace"))
        else:
            parts.append(string_text(child) if child.type == "string" else "")
    return [CodeAct("run", "".join(parts))]


def _env(values: Values, node: Node) -> list[CodeAct]:
    """``Deno.env.get("NAME")``: what ``printenv NAME`` prints."""
    return [CodeAct("env", _text(values, node, 0))]


def _prints(values: Values, node: Node) -> list[CodeAct]:
    """``console.log(process.env)``: the whole environment printed (`codepieces`: a
    dotenv file loaded into it is shown); any other print changes nothing."""
    return [CodeAct("show-env", None) for a in arguments(node)[:1] if values.of(a).kind == "env"]


_READ = _one("read")
ACTS: dict[str, ActFn] = {
    **{f"console.{name}": _prints for name in ("log", "info", "dir", "table", "error")},
    "child_process.exec": _shell,
    **{name: _spawn for name in ("child_process.spawn", "child_process.execFile")},
    "child_process.fork": _fork,
    "Bun.spawn": _argv, "Deno.run": _argv, "Deno.Command": _command, "Bun.$": _bun_shell,
    "fs.rm": _removes("delete"), "Deno.remove": _removes("delete"),
    "fs.rmdir": _removes("rmdir"), "fs.unlink": _one("delete"),
    **{name: _one("write") for name in (
        "fs.writeFile", "fs.createWriteStream", "fs.truncate", "fs.chown", "fs.lchown",
        "fs.utimes", "fs.lutimes", "fs.mkfifo", "Deno.truncate", "Deno.chown",
        "Deno.create", "Deno.utime", "Bun.write")},
    "Deno.writeTextFile": _writes, "Deno.writeFile": _writes,
    "fs.appendFile": _one("append"),
    "fs.mkdir": _one("mkdir"), "fs.mkdtemp": _one("mkdir"), "Deno.mkdir": _one("mkdir"),
    "fs.copyFile": _two("copy"), "fs.cp": _two("copy"), "Deno.copyFile": _two("copy"),
    "fs.rename": _two("move"), "Deno.rename": _two("move"),
    "fs.symlink": _two("link"), "fs.link": _two("link"), "Deno.symlink": _two("link"),
    "Deno.link": _two("link"),
    "fs.chmod": _chmod, "fs.lchmod": _chmod, "Deno.chmod": _chmod,
    "fs.open": _open, "Deno.open": _open,
    "fs.readFile": _READ, "fs.createReadStream": _READ, "Deno.readTextFile": _READ,
    "Deno.readFile": _READ, "Bun.file": _READ,
    "Deno.env.get": _env, "Deno.env.toObject": lambda values, node: [CodeAct("env", None)],
}  # fmt: skip
"""Calls with a known effect on the paths or the command they are given (a read keeps
the code quiet; any other act does not)."""
