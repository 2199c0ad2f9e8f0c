"""Inline Perl (``perl -e``, ``perl -pi -e``, a program on Perl's input) read with a real
grammar, tree-sitter-perl: what its calls do, where the text says it.

The readers of inline Python and JavaScript (`pyreader`, `jsreader`) done for Perl, with
the same records (`codeacts`) and the same promise: inline code is never granted. A call
whose effect is known and whose arguments are literals is a command or a file access the
guard already judges: ``system("rm", "-rf", $ENV{HOME})`` is ``rm -rf ~``, backticks and
``qx`` run their text, ``open(my $f, ">>", "$ENV{HOME}/.profile")`` appends to
``~/.profile``, ``remove_tree`` deletes a tree, ``$ENV{NAME}`` is what ``printenv NAME``
prints, a network module reaches the network. The code is *quiet* when every function it
calls is known to compute or print and nothing else (`perlnames`): ``print 365 * 24``,
``s/old/new/g`` on the lines ``-p`` reads. Anything else is not quiet, and stays asked.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from amplifier_hooks.guard.codeacts import NOT_READ, ActsFound, CodeAct, CodeReading
from amplifier_hooks.guard.decodes import unpack_hex
from amplifier_hooks.guard.perlnames import (
    DELETES,
    FROM_TO,
    LOUD,
    NETWORK_MODULES,
    QUIET_FUNCTIONS,
    QUIET_MODULES,
    RUNS,
)
from amplifier_hooks.guard.treecode import command_line, concatenated, joined, parse_nodes

__all__ = ["read_perl", "text_of"]

_MAX_NESTED = 4
"""Literal code given to ``eval`` read inside code given to ``eval``, at most."""
_CALLS = frozenset({"function_call_expression", "ambiguous_function_call_expression"})
_OPS = frozenset({"func0op_call_expression", "func1op_call_expression"})
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "e": "\x1b", "a": "\a"}
_REGEX_CODE = re.compile(rb"\(\*?\?{1,2}\{|\(\*\{")
"""The opening of a code block in a pattern: ``(?{``, ``(??{``, ``(*{``."""
_OPEN_MODES = {"<": "read", ">": "write", ">>": "append", "+<": "write", "+>": "write",
               "+>>": "append"}  # fmt: skip


def read_perl(code: str, nested: int = 0) -> CodeReading:
    """What ``code`` does as far as its text says (`CodeReading`); code that does not
    parse, or is too long or too large, is not read (``parsed`` False, not quiet)."""
    nodes = parse_nodes("perl", code)
    if nodes is None:
        return NOT_READ
    return _Reader(nested).read(nodes)


def text_of(node: Node | None) -> str | None:
    """The text ``node`` stands for when the code's text alone says it: a string with no
    variable in it, ``$ENV{HOME}`` (``~``) at its start, a number, ``.`` of two such."""
    if node is None:
        return None
    kind = node.type
    if kind in ("string_literal", "interpolated_string_literal"):
        content = node.child_by_field_name("content")
        return "" if content is None else _content(content, kind == "string_literal")
    if kind == "number":
        return (node.text or b"").decode()
    if kind == "hash_element_expression":
        return "~" if _env_key(node) == "HOME" else None
    if kind == "parenthesized_expression" and node.named_child_count == 1:
        return text_of(node.named_children[0])
    if kind in _CALLS and _name(node.child_by_field_name("function")) == "glob":
        args = _arguments(node)  # `glob("~/*")`: the pattern, which the guard expands
        return text_of(args[0]) if len(args) == 1 else None
    if kind in _CALLS and _name(node.child_by_field_name("function")) == "pack":
        texts = [text_of(a) for a in _arguments(node)]  # `pack("H*", HEX)`: its text
        template, digits = texts if len(texts) == 2 else [None, None]
        return unpack_hex(template, digits) if template and digits is not None else None
    if kind == "binary_expression":
        return concatenated(node, ".", text_of)
    return None


def _name(node: Node | None) -> str:
    return "" if node is None else (node.text or b"").decode()


def _content(content: Node, single: bool) -> str | None:
    """A string's text: its escapes undone; None when a variable is interpolated in it
    (but ``$ENV{HOME}`` at its start, which is ``~``)."""
    source = content.text or b""
    start = content.start_byte
    out: list[str] = []
    at = 0
    for child in content.named_children:  # text between them is literal
        out.append(source[at : child.start_byte - start].decode())
        piece = (child.text or b"").decode()
        at = child.end_byte - start
        if child.type == "escaped_delimiter" or (child.type == "escape_sequence" and single):
            out.append(piece[1:] if piece[1:2] in ("\\", "'") or not single else piece)
        elif child.type == "escape_sequence":
            letter = piece[1:2]
            out.append(_ESCAPES.get(letter, letter) if len(piece) == 2 else piece)
        elif child.type == "hash_element_expression" and _env_key(child) == "HOME":
            if joined("".join(out), "~") is None:
                return None
            out.append("~")
        else:
            return None
    out.append(source[at:].decode())
    return "".join(out)


def _env_key(node: Node) -> str | None:
    """``NAME`` of ``$ENV{NAME}``; None: another hash, or a key known only at run time."""
    hash_ = node.child_by_field_name("hash")
    key = node.child_by_field_name("key")
    if hash_ is None or not (hash_.text or b"").endswith(b"ENV"):
        return None
    if key is None:
        return None
    if key.type == "autoquoted_bareword":
        return (key.text or b"").decode()
    return text_of(key)


def _arguments(node: Node) -> list[Node]:
    """A call's arguments, a bareword filehandle included (``open F, '>x'``)."""
    args = node.child_by_field_name("arguments")
    if args is None:
        return []
    while args.type == "parenthesized_expression" and args.named_child_count == 1:
        args = args.named_children[0]
    return list(args.named_children) if args.type == "list_expression" else [args]


class _Reader(ActsFound):
    """One walk over a parsed tree: its acts, and whether anything in it is not quiet."""

    __slots__ = ()

    def read(self, nodes: list[Node]) -> CodeReading:
        for node in nodes:
            kind = node.type
            if kind in _CALLS:
                function = node.child_by_field_name("function")
                named = function is not None and function.named_child_count == 0
                name = (function.text or b"").decode() if function is not None else ""
                self._call(name if named else None, _arguments(node))
            elif kind in _OPS:
                self._call(node.children[0].type, list(node.named_children))
            elif kind == "method_call_expression":
                self._method(node)
            elif kind == "command_string":  # backticks, qx{}
                self._add(CodeAct("run", text_of_command(node)))
            elif kind == "command_heredoc_token":  # print <<`EOT`: its lines run
                self._add(CodeAct("run", None))
            elif kind == "regexp_content" and _REGEX_CODE.search(node.text or b""):
                self.quiet = False  # `(?{ code })` in a pattern runs Perl
            elif kind == "use_statement":
                self._module(node.child_by_field_name("module"))
            elif kind == "eval_expression":
                self._eval(node)
            elif kind == "substitution_regexp":
                modifiers = node.child_by_field_name("modifiers")
                if modifiers is not None and b"e" in (modifiers.text or b""):
                    self.quiet = False  # `s/x/code/e` runs its replacement as Perl
            elif kind == "hash_element_expression":
                key = _env_key(node)
                if key is not None:
                    self._add(CodeAct("env", key))
            elif kind in ("hash", "array", "container_variable", "slice_container_variable"):
                self._whole(node)
            elif kind in LOUD:
                self.quiet = False
        return self.found()

    def _whole(self, node: Node) -> None:
        """``%ENV`` as a whole (``keys %ENV``, ``%ENV`` passed on) is every variable read;
        ``%SIG`` and ``@INC`` change what runs later."""
        name = (node.named_children[0].text or b"") if node.named_child_count else b""
        if name in (b"SIG", b"INC"):
            self.quiet = False
        elif name == b"ENV":  # (its parent only now: tree-sitter finds it from the root down)
            parent = node.parent
            if parent is None or parent.type != "hash_element_expression":
                self._add(CodeAct("env", None))

    def _call(self, name: str | None, args: list[Node]) -> None:
        if name is None:  # `&$code`: a call the reader cannot name
            self.quiet = False
            return
        name = name.removeprefix("CORE::GLOBAL::").removeprefix("CORE::")
        short = name.rpartition("::")[2]
        texts = [text_of(a) for a in args]
        if name in RUNS:
            known = [t for t in texts if t is not None]
            if len(known) != len(texts) or not known:
                self._add(CodeAct("run", None))
            else:
                self._add(CodeAct("run", known[0] if len(known) == 1 else command_line(known)))
        elif name == "open":
            self._open(args, texts)
        elif name == "chdir":
            self.quiet, self.chdir = False, True
        elif name in DELETES or short in ("remove_tree", "rmtree"):
            does = DELETES.get(name, "delete-tree")
            targets = texts[:1] if does in ("write", "mkdir") else texts
            for target in targets or [None]:
                self._add(CodeAct(does, target))
        elif name in FROM_TO:
            source, target = [*texts, None, None][:2]
            self._add(CodeAct(FROM_TO[name], target, source))
        elif name == "chmod" and texts:
            for target in texts[1:] or [None]:
                self._add(CodeAct("chmod", target, mode=_mode(texts[0])))
        elif name in ("get", "getstore", "mirror", "head", "getprint", "socket", "connect"):
            self._add(CodeAct("network", _url(texts)))
        elif name not in QUIET_FUNCTIONS:
            self.quiet = False

    def _open(self, args: list[Node], texts: list[str | None]) -> None:
        """``open(FH, MODE, PATH)`` and ``open(FH, "MODEPATH")``; a pipe runs a command."""
        if len(args) >= 3:
            mode = texts[1]
            if mode is None:
                self._add(CodeAct("write", None))
            elif mode in ("|-", "-|"):
                rest = texts[2:]
                known = [t for t in rest if t is not None]
                line = command_line(known) if len(rest) > 1 else (known[0] if known else None)
                self._add(CodeAct("run", line if len(known) == len(rest) else None))
            elif mode.split(":")[0].strip() in _OPEN_MODES:
                if args[2].type == "refgen_expression":
                    return  # `open my $fh, '<', \$text`: a string, no file
                self._add(CodeAct(_OPEN_MODES[mode.split(":")[0].strip()], texts[2]))
            else:
                self._add(CodeAct("write", None))
        elif len(args) == 2:
            self._open_spec(texts[1])
        else:
            self.quiet = False

    def _open_spec(self, spec: str | None) -> None:
        if spec is None:
            self._add(CodeAct("write", None))
            return
        spec = spec.strip()
        if spec.startswith("|") or spec.endswith("|"):
            self._add(CodeAct("run", spec.strip("|").strip() or None))
            return
        for prefix in ("+>>", ">>", "+<", "+>", ">", "<"):
            if spec.startswith(prefix):
                self._add(CodeAct(_OPEN_MODES[prefix], spec[len(prefix) :].strip() or None))
                return
        self._add(CodeAct("read", spec or None))

    def _method(self, node: Node) -> None:
        """``LWP::UserAgent->new->get(URL)``: a class the reader knows reaches the network;
        any other method call runs code it does not see."""
        self.quiet = False
        parent = node.parent
        if parent is not None and parent.type == node.type and parent.child_by_field_name(
            "invocant"
        ) == node:  # fmt: skip
            return  # `A->new->get(URL)`: judged once, at the outer call
        invocant = node.child_by_field_name("invocant")
        while invocant is not None and invocant.type == "method_call_expression":
            invocant = invocant.child_by_field_name("invocant")
        if invocant is not None and invocant.type in ("bareword", "package"):
            module = (invocant.text or b"").decode()
            if module in NETWORK_MODULES or module.startswith("Net::"):
                self._add(CodeAct("network", _url([text_of(a) for a in _arguments(node)])))

    def _module(self, module: Node | None) -> None:
        name = "" if module is None else (module.text or b"").decode()
        if name in NETWORK_MODULES or name.startswith("Net::"):
            self._add(CodeAct("network", None))
        elif name not in QUIET_MODULES:
            self.quiet = False

    def _eval(self, node: Node) -> None:
        """``eval { }`` catches errors; ``eval STRING`` runs its text as Perl (a literal
        one is read too); ``do FILE`` runs a file."""
        inner = node.named_children[0] if node.named_child_count else None
        if inner is None or inner.type == "block":
            return
        self.quiet = False
        code = text_of(inner)
        if code is not None and self.nested < _MAX_NESTED:
            for act in read_perl(code, self.nested + 1).acts:
                self._add(act)


def text_of_command(node: Node) -> str | None:
    """The shell command line of backticks or ``qx``, when no variable is in it."""
    content = node.child_by_field_name("content")
    return "" if content is None else _content(content, single=False)


def _mode(text: str | None) -> str | None:
    """``0755`` as ``755``; None: not a number."""
    if text is None or not text.isdigit():
        return None
    return text.lstrip("0") or "0"


def _url(texts: list[str | None]) -> str | None:
    return next((t for t in texts if t is not None and "://" in t), None)
