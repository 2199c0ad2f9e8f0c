"""Reading a shell command as bash would: every simple command it runs, and where to.

tree-sitter-bash gives the syntax tree; this module walks it (iteratively, with a budget of
bytes, nodes and depth, so no input can make it slow or crash it) and hands each simple
command to `unwrap`. What feeds what is kept: a pipeline's next command, and the command
that a ``$(...)`` or ``<(...)`` around a command feeds, become the piece's ``pipes_to``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

import tree_sitter_bash
from tree_sitter import Language, Node, Parser

from amplifier_hooks.guard.model import ParsedCommand, Piece
from amplifier_hooks.guard.programs import is_interpreter
from amplifier_hooks.guard.simple import CD, NeedsGrammar, cd, read_simple
from amplifier_hooks.guard.unwrap import Command, Reparse, unwrap
from amplifier_hooks.guard.words import ORIGINAL, Word, node_text, read_word

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_NODES",
    "assemble",
    "forget_parsed",
    "parse_command",
    "parse_with_grammar",
]

MAX_BYTES = 128 * 1024
"""Larger commands are not read at all (a person could not review them either)."""
MAX_NODES = 20_000
"""Syntax nodes walked in one command, scripts inside it included."""
MAX_DEPTH = 64
"""Nesting of substitutions, subshells and ``sh -c`` scripts."""
MAX_COMMANDS = 500
"""Simple commands in one command line, scripts inside it included."""

_WRITE_REDIRECTS = frozenset({">", ">>", "&>", "&>>", ">|", "<>", ">&"})


@lru_cache(maxsize=1)
def _language() -> Language:
    return Language(tree_sitter_bash.language())


def _parser() -> Parser:
    # A fresh parser for every parse (about 2 us): a Parser is not safe to share between
    # threads, and a handler may be called from more than one.
    return Parser(_language())


class _TooComplex(Exception):
    """The walk ran out of its node or depth budget."""


@dataclass
class _Scope:
    """The directory commands run in, as far as ``cd`` before them says."""

    cwd: str | None = "."


@dataclass
class _Walk:
    budget: int
    commands: list[tuple[int, Command, int | None]] = field(default_factory=list)
    """(node id, command, id of the command its output feeds)."""
    functions: set[str] = field(default_factory=set)
    """Names of the shell functions the command defines."""
    errors: bool = False


_text = node_text

_FOUR_BYTES = re.compile(rb"[\xf0-\xf4][\x80-\xbf]{3}")


def stand_in(source: bytes) -> bytes:
    """``source`` with every character outside the Basic Multilingual Plane replaced by as
    many ``A`` bytes: tree-sitter-bash 0.25.1 crashes the process on some of them (``{``
    then U+F4D3B, found by the hypothesis properties). To bash they are word characters, as
    ``A`` is, and every byte offset stays the same, so texts are read from the original."""
    return _FOUR_BYTES.sub(lambda m: b"A" * len(m.group()), source)


def _first_command(node: Node) -> Node | None:
    stack = [node]
    seen = 0
    while stack and seen < MAX_NODES:
        current = stack.pop()
        seen += 1
        if current.type == "command":
            return current
        stack.extend(reversed(current.children))
    return None


CACHED_BYTES = 4096
"""Commands up to this size are remembered (the last 1,024): parsing is pure, and an agent
runs the same commands again and again. Larger ones would make the cache large."""


def parse_command(text: str | bytes) -> ParsedCommand:
    """The simple commands of ``text``, wrappers seen through; a `ParsedCommand.problem`
    when it is too large, too deep or not text."""
    if len(text) <= CACHED_BYTES:
        return _remembered(text)
    return _parse(text)


@lru_cache(maxsize=1024)
def _remembered(text: str | bytes) -> ParsedCommand:
    return _parse(text)


def forget_parsed() -> None:
    """Empty the cache of parsed commands (benchmarks time the parse itself this way)."""
    _remembered.cache_clear()


def _grammar_needed(script: str, depth: int) -> tuple[Piece, ...]:
    raise NeedsGrammar(script)


def parse_with_grammar(text: str) -> ParsedCommand:
    """`parse_command` without the short road for plain commands (`simple`), uncached:
    what the tests compare that road with."""
    return _parse(text, grammar=True)


def _parse(text: str | bytes, _depth: int = 0, *, grammar: bool = False) -> ParsedCommand:
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            return ParsedCommand(repr(text[:200]), (), "the command is not valid UTF-8 text")
    try:
        source = text.encode("utf-8")
    except UnicodeEncodeError:
        return ParsedCommand(text[:200], (), "the command is not valid UTF-8 text")
    if "\x00" in text:
        return ParsedCommand(text[:200], (), "the command contains a NUL byte")
    if len(source) > MAX_BYTES:
        return ParsedCommand(
            text[:200], (), f"the command is {len(source)} bytes; the guard reads at most "
            f"{MAX_BYTES}: split it into smaller commands"
        )  # fmt: skip
    separators = text.count("|") + text.count(";") + text.count("&") + text.count("\n")
    if separators > 10 * MAX_COMMANDS:
        return ParsedCommand(
            text[:200], (), f"the command has {separators} separators; the guard reads at most "
            f"{MAX_COMMANDS} commands: split it up"
        )  # fmt: skip
    if not grammar and _depth == 0:
        simple = read_simple(text)
        if simple is not None:
            try:
                return ParsedCommand(text, assemble(simple, 0, _grammar_needed, set()), None)
            except NeedsGrammar:
                pass
    walk = _Walk(budget=MAX_NODES)
    try:
        pieces = _pieces(source, _depth, walk)
    except _TooComplex as exc:
        return ParsedCommand(text, (), str(exc))
    problem = None
    if walk.errors:
        pieces += (Piece(text=text, program=None, opaque="bash would not parse this command "
                         "(a syntax error, or syntax the guard does not know)"),)  # fmt: skip
    return ParsedCommand(text, pieces, problem)


def _pieces(source: bytes, depth: int, walk: _Walk) -> tuple[Piece, ...]:
    if depth > MAX_DEPTH:
        raise _TooComplex(f"the command nests scripts more than {MAX_DEPTH} deep")
    safe = stand_in(source)
    tree = _parser().parse(safe)
    root = tree.root_node
    walk.errors = walk.errors or root.has_error
    token = ORIGINAL.set(source if safe != source else None)
    try:
        _visit(root, walk, depth)
    finally:
        ORIGINAL.reset(token)

    def reparse(script: str, inner_depth: int) -> tuple[Piece, ...]:
        if inner_depth > MAX_DEPTH:
            raise _TooComplex(f"the command nests scripts more than {MAX_DEPTH} deep")
        return _pieces(script.encode("utf-8", "replace"), inner_depth, walk)

    commands, walk.commands = walk.commands, []
    return assemble(commands, depth, reparse, walk.functions)


def assemble(commands: list[tuple[int, Command, int | None]], depth: int, reparse: Reparse,
             functions: set[str]) -> tuple[Piece, ...]:  # fmt: skip
    """The pieces of the simple commands found, in order, each told where its output
    flows (``commands``: id, command, id of the command its output feeds)."""
    by_node: dict[int, list[Piece]] = {}
    for node_id, command, _ in commands:
        by_node[node_id] = unwrap(command, depth, reparse)
    sinks = {node_id: sink for node_id, _, sink in commands}
    result: list[Piece] = []
    for node_id, _, sink in commands:
        pieces = by_node[node_id]
        target = by_node.get(sink) if sink is not None else None
        if target:
            head = target[0]
            feeds = _feeds_code(sink, by_node, sinks)
            pieces = [replace(p, pipes_to=(*p.pipes_to, *((head.program,) if head.program else ())),
                              feeds_code=p.feeds_code or feeds) for p in pieces]  # fmt: skip
        result.extend(pieces)
    if functions:
        result = [replace(p, function=p.program in functions) for p in result]
    return tuple(result)


_PASS_THROUGH = frozenset({"tee", "cat", "head", "tail", "dd", "buffer", "pv", "stdbuf"})
"""Programs whose input flows on to their output: ``curl .. | tee f | sh`` still runs
what curl fetched."""


def _feeds_code(sink: int | None, by_node: dict[int, list[Piece]],
                sinks: dict[int, int | None]) -> bool:  # fmt: skip
    """Whether output flowing into ``sink`` is run as code, through pass-through programs."""
    for _ in range(len(sinks) + 1):
        target = by_node.get(sink) if sink is not None else None
        if not target or target[0].program is None:
            return False
        head = target[0]
        if _runs_input(head):
            return True
        if head.program not in _PASS_THROUGH:
            return False
        sink = sinks.get(sink) if sink is not None else None
    return False


def _runs_input(piece: Piece) -> bool:
    """Whether a command runs what flows into it as code: a shell or interpreter with no
    script of its own (``| sh``, ``| python3 -``), or one given it as an argument
    (``bash <(curl ..)``, ``python -c "$(curl ..)"``), or ``eval``/``source``."""
    program = piece.program or ""
    if program in ("eval", "source", "."):
        return True
    if not is_interpreter(program):
        return False
    operands = [a for a in piece.args if not a.startswith("-")]
    return not operands or operands[0] in ("-", "/dev/stdin") or piece.dynamic


@dataclass(frozen=True)
class _Frame:
    """A node still to walk, with what holds where it is: the command its output feeds,
    the directory, the redirections around it, its nesting, and a heredoc it reads."""

    node: Node
    sink: int | None
    scope: _Scope
    writes: tuple[str, ...] = ()
    reads: tuple[str, ...] = ()
    level: int = 0
    stdin: str | None = None

    def child(
        self,
        node: Node,
        *,
        sink: int | None = -1,
        scope: _Scope | None = None,
        writes: tuple[str, ...] | None = None,
        reads: tuple[str, ...] | None = None,
    ) -> _Frame:
        """A frame for ``node`` one level down; what is not given is inherited."""
        return _Frame(
            node,
            self.sink if sink == -1 else sink,  # -1: the parent's (node ids are addresses)
            scope or self.scope,
            self.writes if writes is None else writes,
            self.reads if reads is None else reads,
            self.level + 1,
        )


def _visit(root: Node, walk: _Walk, depth: int) -> None:
    stack = [_Frame(root, None, _Scope(), level=depth)]
    while stack:
        frame = stack.pop()
        walk.budget -= 1
        if walk.budget < 0 or len(walk.commands) > MAX_COMMANDS:
            raise _TooComplex(
                f"the command has more than {MAX_NODES} parts or {MAX_COMMANDS} commands; "
                "split it up"
            )
        if frame.level > MAX_DEPTH:
            raise _TooComplex(f"the command nests more than {MAX_DEPTH} deep")
        node = frame.node
        kind = node.type
        if kind in ("command", "declaration_command", "unset_command", "test_command"):
            _command(frame, walk, stack)
        elif kind == "redirected_statement":
            _redirected(frame, stack, walk)
        elif kind == "function_definition":
            name = node.child_by_field_name("name")
            if name is not None:
                walk.functions.add(_text(name))
            for child in reversed(node.children):
                stack.append(frame.child(child))
        elif kind == "pipeline":
            elements = [c for c in node.children if c.type not in ("|", "|&")]
            for index in range(len(elements) - 1, -1, -1):
                nxt = _first_command(elements[index + 1]) if index + 1 < len(elements) else None
                target = nxt.id if nxt is not None else frame.sink
                stack.append(frame.child(elements[index], sink=target))
        else:
            scope = frame.scope
            if kind in ("subshell", "command_substitution", "process_substitution"):
                scope = _Scope(scope.cwd)
            for child in reversed(node.children):
                stack.append(frame.child(child, scope=scope))


def _command(frame: _Frame, walk: _Walk, stack: list[_Frame]) -> None:
    """Record one simple command; walk its substitutions, which feed it."""
    node = frame.node
    substitutions: list[Node] = []
    words: list[Word] = []
    writes, reads = list(frame.writes), list(frame.reads)
    stdin = frame.stdin
    if node.type != "command":
        keyword = node.children[0] if node.children else None
        words.append(
            Word("[[" if node.type == "test_command" else _text(keyword) if keyword else "")
        )
        for child in node.children[1:]:
            stack.append(frame.child(child, sink=node.id))
    for index, child in enumerate(node.children if node.type == "command" else ()):
        name = node.field_name_for_child(index)
        if child.type == "variable_assignment":
            stack.append(frame.child(child, sink=node.id))
        elif child.type == "file_redirect":
            w, r = _redirect_paths(child, substitutions)
            writes += w
            reads += r
        elif child.type == "herestring_redirect":
            for part in child.named_children:
                stdin = read_word(part, substitutions).text
        elif name in ("name", "argument") or child.is_named:
            words.append(read_word(child, substitutions))
    for sub in reversed(substitutions):
        stack.append(
            frame.child(sub, sink=node.id, scope=_Scope(frame.scope.cwd), writes=(), reads=())
        )
    command = Command(_text(node), tuple(words), tuple(writes), tuple(reads), frame.scope.cwd,
                      stdin)  # fmt: skip
    walk.commands.append((node.id, command, frame.sink))
    if words and words[0].text in CD:
        frame.scope.cwd = cd(frame.scope.cwd, words[1:])


def _redirect_paths(redirect: Node, substitutions: list[Node]) -> tuple[list[str], list[str]]:
    """(written, read) paths of a file redirection; a descriptor copy (``2>&1``) is none."""
    destination = redirect.child_by_field_name("destination")
    if redirect.type != "file_redirect" or destination is None:
        return [], []
    operator = next((_text(c) for c in redirect.children if not c.is_named), "")
    if destination.type == "number" or _text(destination) == "-":
        return [], []
    word = read_word(destination, substitutions)
    path = word.text if not word.dynamic else "$" + word.text.lstrip("$")
    return ([path], []) if operator in _WRITE_REDIRECTS else ([], [path])


def _redirected(frame: _Frame, stack: list[_Frame], walk: _Walk) -> None:
    """A statement with redirections: they apply to every command in its body; a heredoc
    is the body's input (a script, for a shell)."""
    node = frame.node
    body = node.child_by_field_name("body")
    writes, reads = list(frame.writes), list(frame.reads)
    later: list[Node] = []
    body_sink = frame.sink
    script: str | None = None
    for child in node.children:
        if body is not None and child.id == body.id:
            continue
        if child.type == "file_redirect":
            subs: list[Node] = []
            w, r = _redirect_paths(child, subs)
            writes += w
            reads += r
            later.extend(subs)
        elif child.type == "heredoc_redirect":
            for part in child.children:
                if part.type == "heredoc_body":
                    script = _text(part)
                    later.append(part)
                elif (
                    part.type == "pipeline"
                    and part.children
                    and part.children[0].type in ("|", "|&")
                ):
                    head = _first_command(part)
                    body_sink = head.id if head is not None else frame.sink
                    later.append(part)
                elif part.is_named and part.type not in ("heredoc_start", "heredoc_end"):
                    later.append(part)
        elif child.type == "herestring_redirect":
            later.append(child)
            script = " ".join(_text(c) for c in child.named_children)
        else:
            later.append(child)
    for extra in reversed(later):
        stack.append(frame.child(extra))
    if body is None:
        # A redirection with no command (`> ~/.bashrc`) still truncates or reads its file.
        bare = Command(_text(node), (Word(":"),), tuple(writes), tuple(reads), frame.scope.cwd)
        walk.commands.append((node.id, bare, frame.sink))
        return
    inner = frame.child(body, sink=body_sink, writes=tuple(writes), reads=tuple(reads))
    stack.append(replace(inner, stdin=script) if body.type == "command" else inner)
