"""Inline Ruby (``ruby -e``, ``ruby -ne``, a program on Ruby's input) read with a real
grammar, tree-sitter-ruby: what its calls do, where the text says it.

The readers of inline Python, JavaScript and Perl done for Ruby, with the same records
(`codeacts`) and the same promise: inline code is never granted. A call whose effect is
known and whose arguments are literals is a command or a file access the guard already
judges: ``FileUtils.rm_rf(Dir.home)`` deletes the home folder, ``system("git", "push",
"-f")`` and backticks run their command, ``File.write(".claude/settings.json", s)``
writes there, ``YAML.load_file(p)`` reads ``p``, ``ENV["NAME"]`` is what ``printenv NAME``
prints, ``Net::HTTP`` reaches the network. The code is *quiet* when every call it makes is
known to compute or print and nothing else (`rubynames`); a bare name that is no local
variable is a method call like any other. Anything else is not quiet, and stays asked.
"""

from __future__ import annotations

from tree_sitter import Node

from amplifier_hooks.guard.codeacts import NOT_READ, ActsFound, CodeAct, CodeReading
from amplifier_hooks.guard.lineoptions import ruby_library
from amplifier_hooks.guard.rubynames import (
    CLASS_ACTS,
    LOUD,
    NETWORK_CLASSES,
    QUIET_CLASS_METHODS,
    QUIET_CLASSES,
    QUIET_FUNCTIONS,
    QUIET_METHODS,
    RUNS,
)
from amplifier_hooks.guard.treecode import command_line, concatenated, joined, parse_nodes

__all__ = ["read_fastfile", "read_ruby", "text_of"]

_MAX_NESTED = 4
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "e": "\x1b", "a": "\a", "s": " "}
_LOCALS = frozenset({"block_parameters", "method_parameters", "lambda_parameters",
                     "optional_parameter", "keyword_parameter", "splat_parameter",
                     "hash_splat_parameter", "block_parameter", "destructured_parameter",
                     "left_assignment_list", "rest_assignment", "exception_variable"})  # fmt: skip
"""Parents whose identifiers are local variables being bound."""
_DESERIALIZERS = frozenset({"YAML", "Psych", "JSON"})
"""Parsers whose options can make them build objects of any class."""
_OPEN_MODES = {"r": "read", "rb": "read", "w": "write", "wb": "write", "a": "append",
               "ab": "append", "r+": "write", "w+": "write", "a+": "append"}  # fmt: skip
_RUNS_TEXT = frozenset({"eval", "instance_eval", "class_eval", "module_eval", "instance_exec",
                        "send", "__send__", "public_send", "define_method", "const_get",
                        "method", "load", "require_relative", "binding", "fork", "trap",
                        "at_exit", "syscall", "autoload", "set_trace_func"})  # fmt: skip


def read_ruby(code: str, nested: int = 0, runs: frozenset[str] = RUNS) -> CodeReading:
    """What ``code`` does as far as its text says (`CodeReading`); code that does not
    parse, or is too long or too large, is not read (``parsed`` False, not quiet).
    ``runs``: the functions that run their arguments as a command."""
    nodes = parse_nodes("ruby", code)
    if nodes is None:
        return NOT_READ
    return _Reader(nested, runs).read(nodes)


_FASTLANE_RUNS = RUNS | {"sh"}
"""fastlane's ``sh`` action runs its argument as a shell command line (or its arguments
as a program and its words), as ``system`` does."""


def read_fastfile(code: str) -> CodeReading:
    """A Fastfile's Ruby, where fastlane's ``sh`` action runs commands too."""
    return read_ruby(code, runs=_FASTLANE_RUNS)


def _name(node: Node | None) -> str:
    return "" if node is None else (node.text or b"").decode()


def _class(node: Node | None) -> str | None:
    """``File`` or ``Net::HTTP`` when ``node`` names a class (None: a value)."""
    if node is None or node.type not in ("constant", "scope_resolution"):
        return None
    return _name(node).removeprefix("::")


def text_of(node: Node | None) -> str | None:
    """The text ``node`` stands for when the code's text alone says it: a string with no
    interpolation (but ``Dir.home`` or ``ENV["HOME"]`` at its start: ``~``), a symbol, a
    number, ``Dir.home``, ``File.join``/``File.expand_path`` and ``+`` of such."""
    if node is None:
        return None
    kind = node.type
    if kind == "string":
        return _string(node)
    if kind in ("integer", "float"):
        return _name(node)
    if kind == "simple_symbol":
        return _name(node)[1:]
    if kind == "parenthesized_statements" and node.named_child_count == 1:
        return text_of(node.named_children[0])
    if kind == "element_reference":
        return "~" if _env_key(node) == "HOME" else None
    if kind == "binary":
        return concatenated(node, "+", text_of)
    if kind == "call":
        owner = _class(node.child_by_field_name("receiver"))
        method = _name(node.child_by_field_name("method"))
        if owner == "Dir" and method == "home":
            return "~"
        if owner == "File" and method in ("join", "expand_path"):
            parts = [text_of(a) for a in _arguments(node)]
            if not parts or any(p is None for p in parts):
                return None
            return "/".join(p.rstrip("/") for p in parts if p is not None)
    return None


def _string(node: Node) -> str | None:
    """A string's text, escapes undone; None when something is interpolated in it (but
    ``~`` at its start)."""
    out: list[str] = []
    for child in node.named_children:
        piece = _name(child)
        if child.type == "string_content":
            out.append(piece)
        elif child.type == "escape_sequence":
            letter = piece[1:2]
            out.append(_ESCAPES.get(letter, letter) if len(piece) == 2 else piece)
        elif child.type == "interpolation" and child.named_child_count == 1:
            if text_of(child.named_children[0]) != "~" or joined("".join(out), "~") is None:
                return None
            out.append("~")
        else:
            return None
    return "".join(out)


def _env_key(node: Node) -> str | None:
    """``NAME`` of ``ENV["NAME"]``; None: not ``ENV``, or a key known only at run time."""
    owner = node.child_by_field_name("object")
    if _class(owner) != "ENV" or node.named_child_count != 2:
        return None
    return text_of(node.named_children[1])


def _arguments(node: Node) -> list[Node]:
    args = node.child_by_field_name("arguments")
    return [] if args is None else list(args.named_children)


class _Reader(ActsFound):
    """One walk over a parsed tree: its acts, and whether anything in it is not quiet."""

    __slots__ = ("locals", "runs")

    def __init__(self, nested: int, runs: frozenset[str] = RUNS) -> None:
        super().__init__(nested)
        self.locals: set[bytes] = set()
        self.runs = runs

    def read(self, nodes: list[Node]) -> CodeReading:
        for node in nodes:  # the names the code binds, wherever they are bound
            if node.type != "identifier":
                continue  # (asked first: tree-sitter finds a parent from the root down)
            parent = node.parent
            if parent is not None and (
                parent.type in _LOCALS
                or (parent.type in ("assignment", "operator_assignment", "for")
                    and node == parent.named_children[0])
            ):  # fmt: skip
                self.locals.add(node.text or b"")
        for node in nodes:
            kind = node.type
            if kind == "call":
                self._call(node)
            elif kind == "identifier":
                self._bare(node)
            elif kind == "subshell":  # backticks, %x()
                self._add(CodeAct("run", _string(node)))
            elif kind == "element_reference":
                key = _env_key(node)
                if key is not None:
                    self._add(CodeAct("env", key))
            elif kind == "constant" and node.text == b"ENV":
                self._env(node)
            elif kind in ("global_variable", "method") or kind in LOUD:
                self._global(node)
        return self.found()

    def _global(self, node: Node) -> None:
        """``$stdout``, ``$0`` read are harmless; anything set, a method defined or a
        class opened changes what runs later."""
        if node.type == "global_variable":
            parent = node.parent
            if parent is None or parent.type not in ("assignment", "operator_assignment"):
                return
        self.quiet = False

    def _env(self, node: Node) -> None:
        """``ENV`` other than ``ENV["NAME"]`` or ``ENV.fetch("NAME")`` reads it whole."""
        parent = node.parent
        if parent is not None and parent.type == "element_reference":
            return
        if parent is not None and parent.type == "call":
            method = _name(parent.child_by_field_name("method"))
            if method in ("fetch", "key?", "include?", "has_key?"):
                return
        self._add(CodeAct("env", None))

    def _bare(self, node: Node) -> None:
        """A name that is no local variable and no call's method is a call of itself."""
        parent = node.parent
        if node.text in self.locals or parent is None or parent.type in _LOCALS:
            return
        if parent.type in ("call", "method", "pair", "keyword_parameter") and node in (
            parent.child_by_field_name("method"), parent.child_by_field_name("name"),
            parent.child_by_field_name("key"),
        ):  # fmt: skip
            return
        self._function(_name(node), [], node)

    def _call(self, node: Node) -> None:
        receiver = node.child_by_field_name("receiver")
        method = _name(node.child_by_field_name("method"))
        args = _arguments(node)
        if receiver is None:
            self._function(method, args, node)
            return
        owner = _class(receiver)
        if owner is None:  # a method of a value
            if method not in QUIET_METHODS:
                self.quiet = False
            return
        if owner == "ENV":
            if method == "fetch" and args:
                self._add(CodeAct("env", text_of(args[0])))
            elif method not in ("[]", "fetch", "key?", "include?", "has_key?"):
                self.quiet = False  # `ENV.delete`, `ENV.replace`: what children get
            return
        acts = CLASS_ACTS.get(owner, {})
        does = acts.get(method)
        if owner in _DESERIALIZERS and any(a.type == "pair" for a in args):
            self.quiet = False  # `create_additions: true`, `permitted_classes:`: objects made
        if does is not None:
            self._class_act(does, args)
        elif owner in NETWORK_CLASSES or owner.startswith("Net::"):
            texts = [text_of(_url_node(a)) for a in args]
            self._add(CodeAct("network", next((t for t in texts if t and "://" in t), None)))
        elif owner not in QUIET_CLASSES or method not in QUIET_CLASS_METHODS:
            self.quiet = False

    def _function(self, name: str, args: list[Node], node: Node) -> None:
        texts = [text_of(a) for a in args]
        if name in self.runs:
            self._run(texts)
        elif name == "open":
            self._open(texts)
        elif name in ("require", "gem") and args:
            kind = ruby_library(texts[0] or "")
            if kind == "network":
                self._add(CodeAct("network", None))
            elif kind != "quiet":
                self.quiet = False
        elif name in _RUNS_TEXT:
            self.quiet = False
            code = texts[0] if name.endswith("eval") and texts else None
            if code is None and name.endswith("eval"):  # text known only at run time
                self._add(CodeAct("eval", None, source="ruby"))
            if code is not None and self.nested < _MAX_NESTED:
                for act in read_ruby(code, self.nested + 1).acts:
                    self._add(act)
        elif name not in QUIET_FUNCTIONS:
            self.quiet = False

    def _run(self, texts: list[str | None]) -> None:
        words = [t for t in texts if t is not None]
        if not words or len(words) != len(texts):
            self._add(CodeAct("run", None))
        else:
            self._add(CodeAct("run", words[0] if len(words) == 1 else command_line(words)))

    def _open(self, texts: list[str | None]) -> None:
        """``open(path, mode)``; Kernel's ``open("| cmd")`` runs a command."""
        path = texts[0] if texts else None
        if path is not None and path.startswith("|"):
            self._add(CodeAct("run", path[1:].strip() or None))
            return
        if path is not None and "://" in path:  # open-uri's `open(URL)`
            self._add(CodeAct("network", path))
            return
        mode = texts[1] if len(texts) > 1 else "r"
        self._add(CodeAct(_OPEN_MODES.get((mode or "").split(":")[0], "write"), path))

    def _class_act(self, does: str, args: list[Node]) -> None:
        texts = [text_of(a) for a in args]
        first = texts[0] if texts else None
        if does == "quiet":
            return
        if does == "run":
            self._run(texts)
        elif does == "chdir":
            self.quiet = False
            self.chdir = True
        elif does == "open":
            self._open(texts)
        elif does == "read" and first is not None and first.startswith("|"):
            self._add(CodeAct("run", first[1:].strip() or None))  # IO.read("|cmd")
        elif does in ("move", "copy", "link"):
            sources = texts[:-1] or [None]
            for source in sources:
                self._add(CodeAct(does, texts[-1] if len(texts) > 1 else None, source))
        elif does == "chmod":
            for target in texts[1:] or [None]:
                self._add(CodeAct("chmod", target, mode=_mode(first)))
        elif does in ("read", "write"):
            self._add(CodeAct(does, first))
        else:  # deletes, mkdir, rmdir: each path given (a list literal's too)
            targets = _paths(args) or [None]
            for target in targets:
                self._add(CodeAct(does, target))


def _paths(args: list[Node]) -> list[str | None]:
    """The paths of ``FileUtils.rm_rf(["a", "b"], force: true)``, options left out."""
    found: list[str | None] = []
    for arg in args:
        if arg.type == "pair":
            continue
        if arg.type == "array":
            found.extend(text_of(item) for item in arg.named_children)
        else:
            found.append(text_of(arg))
    return found


def _mode(text: str | None) -> str | None:
    """Ruby's ``0755``, ``0o755`` or ``493`` as ``755``; None: not a number."""
    if text is None:
        return None
    digits = text.replace("_", "").lower()
    if digits.startswith("0o"):
        digits = "0" + digits[2:]
    if not digits.isdigit():
        return None
    if digits.startswith("0"):
        return digits.lstrip("0") or "0"
    return format(int(digits), "o")


def _url_node(node: Node) -> Node:
    """``URI("https://x")`` and ``URI.parse("https://x")``: their string."""
    if node.type == "call":
        args = _arguments(node)
        if args and _name(node.child_by_field_name("method")) in ("URI", "parse"):
            return args[0]
    return node
