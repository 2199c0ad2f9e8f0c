"""Inline PHP (``php -r``, a program on PHP's input) read with a real grammar,
tree-sitter-php: what its calls do, where the text says it.

The readers of inline Python, JavaScript, Perl and Ruby done for PHP, with the same records
(`codeacts`) and the same promise: inline code is never granted. A call whose effect is
known and whose arguments are literals is a command or a file access the guard already
judges: ``system("rm -rf " . getenv("HOME"))`` is ``rm -rf ~``, backticks and
``shell_exec`` run their text, ``file_put_contents($_SERVER["HOME"] . "/.bashrc", ..)``
writes there, ``getenv("NAME")`` is what ``printenv NAME`` prints, ``curl_exec`` and
``fsockopen`` reach the network. The code is *quiet* when every function it calls is known
to compute or print and nothing else (`phpnames`): ``echo PHP_VERSION``,
``print_r(json_decode(file_get_contents("composer.json")))``. Anything else is not quiet,
and stays asked.
"""

from __future__ import annotations

from tree_sitter import Node

from amplifier_hooks.guard.codeacts import NOT_READ, ActsFound, CodeAct, CodeReading
from amplifier_hooks.guard.phpnames import (
    CALLBACK_AT,
    FILE_ACTS,
    LOUD,
    NETWORK,
    QUIET_CLASSES,
    QUIET_FUNCTIONS,
    RUNS,
)
from amplifier_hooks.guard.treecode import concatenated, parse_nodes

__all__ = ["read_php", "text_of"]

_MAX_NESTED = 4
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "e": "\x1b", "v": "\v", "f": "\f"}
_ENVIRONMENT = frozenset({b"_ENV", b"_SERVER"})
_CLOSURES = frozenset({"anonymous_function", "arrow_function",
                       "anonymous_function_creation_expression"})  # fmt: skip
_OPEN_MODES = {"r": "read", "w": "write", "x": "write", "c": "write", "a": "append"}
_STREAMS = ("php://stdin", "php://stdout", "php://stderr", "php://memory", "php://temp",
            "php://output")  # fmt: skip
"""PHP's own streams: no file."""
_WRAPPERS = ("phar:", "expect:", "zlib:", "compress.", "data:", "glob:", "ssh2.", "rar:",
             "ogg:", "zip:")  # fmt: skip
"""Stream wrappers that do more than open a file (``phar:`` unserializes, ``expect:``
runs a command)."""


def read_php(code: str, nested: int = 0) -> CodeReading:
    """What ``code`` does as far as its text says (`CodeReading`): code given to ``php
    -r`` has no ``<?php`` tag, code read from input has one. Code that does not parse,
    or is too long or too large, is not read (``parsed`` False, not quiet)."""
    tagged = code.lstrip().startswith("<?")
    nodes = parse_nodes("php", code if tagged else "<?php " + code)
    if nodes is None:
        return NOT_READ
    return _Reader(nested).read(nodes)


def _name(node: Node | None) -> str:
    return "" if node is None else (node.text or b"").decode()


def _function(node: Node) -> str | None:
    """The lower-case name a call calls (``\\system`` is ``system``); None: a name known
    only at run time (``$f()``)."""
    function = node.child_by_field_name("function")
    if function is None or function.type not in ("name", "qualified_name"):
        return None
    return _name(function).lstrip("\\").lower()


def _arguments(node: Node) -> list[Node] | None:
    """A call's argument values; None: named or spread arguments, whose order the reader
    does not follow."""
    args = node.child_by_field_name("arguments")
    if args is None:
        return []
    found: list[Node] = []
    for arg in args.named_children:
        if arg.type != "argument" or arg.child_by_field_name("name") is not None:
            return None
        if arg.named_child_count != 1 or arg.child_count != 1:  # `...$spread`
            return None
        found.append(arg.named_children[0])
    return found


def text_of(node: Node | None) -> str | None:
    """The text ``node`` stands for when the code's text alone says it: a string with no
    variable in it, a number, ``getenv("HOME")`` and ``$_SERVER["HOME"]`` (``~``), ``.``
    of such."""
    if node is None:
        return None
    kind = node.type
    if kind in ("string", "encapsed_string"):
        return _string(node, single=kind == "string")
    if kind in ("integer", "float"):
        return _name(node)
    if kind == "parenthesized_expression" and node.named_child_count == 1:
        return text_of(node.named_children[0])
    if kind == "subscript_expression":
        return "~" if _env_key(node) == "HOME" else None
    if kind == "function_call_expression" and _function(node) == "getenv":
        args = _arguments(node)
        return "~" if args and len(args) == 1 and text_of(args[0]) == "HOME" else None
    if kind == "binary_expression":
        return concatenated(node, ".", text_of)
    return None


def _string(node: Node, single: bool) -> str | None:
    out: list[str] = []
    for child in node.named_children:
        piece = _name(child)
        if child.type == "string_content":
            out.append(piece)
        elif child.type == "escape_sequence":
            letter = piece[1:2]
            if single:
                out.append(letter if letter in ("\\", "'") else piece)
            else:
                out.append(_ESCAPES.get(letter, letter) if len(piece) == 2 else piece)
        else:
            return None  # a variable or an expression interpolated
    return "".join(out)


def _env_key(node: Node) -> str | None:
    """``NAME`` of ``$_ENV["NAME"]`` or ``$_SERVER["NAME"]``; None: another array, or a
    key known only at run time."""
    if node.named_child_count != 2:
        return None
    owner, key = node.named_children
    if owner.type != "variable_name" or _variable(owner) not in _ENVIRONMENT:
        return None
    return text_of(key)


def _variable(node: Node) -> bytes:
    return node.named_children[0].text or b"" if node.named_child_count else b""


class _Reader(ActsFound):
    """One walk over a parsed tree: its acts, and whether anything in it is not quiet."""

    __slots__ = ()

    def read(self, nodes: list[Node]) -> CodeReading:
        for node in nodes:
            kind = node.type
            if kind == "function_call_expression":
                self._call(_function(node), _arguments(node))
            elif kind == "shell_command_expression":  # backticks
                self._add(CodeAct("run", _string(node, single=False)))
            elif kind == "subscript_expression":
                key = _env_key(node)
                if key is not None:
                    self._add(CodeAct("env", key))
            elif kind == "variable_name":
                self._whole(node)
            elif kind == "object_creation_expression":
                names = [c for c in node.named_children if c.type in ("name", "qualified_name")]
                if not names or _name(names[0]).lstrip("\\").lower() not in QUIET_CLASSES:
                    self.quiet = False
            elif kind in LOUD:
                self.quiet = False
        return self.found()

    def _whole(self, node: Node) -> None:
        """``$_ENV`` or ``$_SERVER`` as a whole is every variable read; ``$GLOBALS``
        reaches every name."""
        name = _variable(node)
        if name == b"GLOBALS":
            self.quiet = False
        elif name in _ENVIRONMENT:  # (its parent only now: tree-sitter finds it from the root)
            parent = node.parent
            if parent is None or parent.type != "subscript_expression":
                self._add(CodeAct("env", None))

    def _call(self, name: str | None, args: list[Node] | None) -> None:
        if name is None:
            self.quiet = False
            return
        texts: list[str | None] = [None, None, None]  # named arguments: none known
        if args is not None:
            texts = [text_of(a) for a in args]
        first = texts[0] if texts else None
        if name in RUNS:
            self._add(CodeAct("run", first))
        elif name == "chdir":
            self.quiet, self.chdir = False, True
        elif name == "getenv":
            self._add(CodeAct("env", first if texts else None))
        elif name in ("call_user_func", "call_user_func_array") and first is not None:
            self.quiet = False
            if args is not None and name == "call_user_func":
                self._call(first.lstrip("\\").lower(), args[1:])
        elif name in ("eval", "assert", "create_function"):
            self.quiet = False
            if name == "eval" and first is not None and self.nested < _MAX_NESTED:
                for act in read_php(first, self.nested + 1).acts:
                    self._add(act)
            elif name == "eval" and first is None:  # computed: with a network call, fetched
                self._add(CodeAct("eval", None, source="php"))
        elif name in FILE_ACTS:
            flags = _name(args[2]) if args is not None and len(args) > 2 else ""
            self._file(FILE_ACTS[name], texts, append="FILE_APPEND" in flags)
        elif name in NETWORK:
            self._add(CodeAct("network", _url(texts)))
        elif name in CALLBACK_AT:
            at = CALLBACK_AT[name]
            if args is None or (len(args) > at and args[at].type not in _CLOSURES):
                self.quiet = False  # `array_map('system', $a)`: a function by its name
        elif name not in QUIET_FUNCTIONS or any(t and t.startswith(_WRAPPERS) for t in texts):
            self.quiet = False  # `file_exists("phar://x")` unpacks objects from the archive

    def _file(self, does: str, texts: list[str | None], append: bool) -> None:
        first = texts[0] if texts else None
        if does == "quiet":
            return
        if first is not None and "://" in first:  # a URL: the network, or a stream
            if not first.startswith(_STREAMS):
                self._add(CodeAct("network", first if first.startswith("http") else None))
            return
        if does == "open":
            mode = texts[1] if len(texts) > 1 else None
            if mode is not None and mode[:1] == "r" and "+" not in mode:
                self._add(CodeAct("read", first))
            else:
                self._add(CodeAct(_OPEN_MODES.get((mode or "w")[:1], "write"), first))
        elif does in ("move", "copy"):
            self._add(CodeAct(does, texts[1] if len(texts) > 1 else None, first))
        elif does == "link":  # symlink(target, link): makes `link`
            self._add(CodeAct("link", texts[1] if len(texts) > 1 else None, first))
        elif does == "chmod":
            mode = texts[1] if len(texts) > 1 else None
            digits = mode.lstrip("0") if mode is not None and mode.isdigit() else None
            self._add(CodeAct("chmod", first, mode=digits))
        elif append:  # file_put_contents(p, s, FILE_APPEND)
            self._add(CodeAct("append", first))
        else:
            self._add(CodeAct(does, first))


def _url(texts: list[str | None]) -> str | None:
    return next((t for t in texts if t is not None and "://" in t), None)
