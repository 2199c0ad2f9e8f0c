"""Reading a shell command as bash would: every simple command it runs, and where to.

tree-sitter-bash gives the syntax tree; this module walks it (iteratively, with a budget of
bytes, nodes and depth, so no input can make it slow or crash it) and hands each simple
command to `unwrap`; `flow.assemble` then tells each where its output flows. The walk is
the hot path of every decision, so a frame is a plain tuple, each node's type is read
once, and leaves (words, operators) are not visited: only `_command` reads them.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from functools import lru_cache

import tree_sitter_bash
from tree_sitter import Language, Node, Parser

from amplifier_hooks.guard.flow import assemble
from amplifier_hooks.guard.model import ParsedCommand, Piece
from amplifier_hooks.guard.unwrap import Command, plain_piece, unwrap
from amplifier_hooks.guard.words import ORIGINAL, Word, node_text, read_word

__all__ = ["MAX_BYTES", "MAX_DEPTH", "MAX_NODES", "forget_parsed", "parse_command", "parse_fresh"]

MAX_BYTES = 128 * 1024
"""Larger commands are not read at all (a person could not review them either)."""
MAX_NODES = 20_000
"""Syntax nodes walked in one command, scripts inside it included."""
MAX_DEPTH = 64
"""Nesting of substitutions, subshells and ``sh -c`` scripts."""
MAX_COMMANDS = 500
"""Simple commands in one command line, scripts inside it included."""

_WRITE_REDIRECTS = frozenset({">", ">>", "&>", "&>>", ">|", "<>", ">&"})
CD = frozenset({"cd", "pushd"})


@lru_cache(maxsize=1)
def _language() -> Language:
    return Language(tree_sitter_bash.language())


# What the walk does with a node, by its kind: a node's `kind_id` is an int read without
# making a string, and one name may have several ids (``word`` has four).
_OTHER, _SIMPLE, _KEYWORD, _REDIRECTED, _PIPELINE, _PIPE, _FUNCTION, _NEW_SCOPE = range(8)
_NAME, _WORD, _ASSIGNMENT, _FILE_REDIRECT, _HERESTRING = range(8, 13)
_ROLES = {
    "command": _SIMPLE, "declaration_command": _KEYWORD, "unset_command": _KEYWORD,
    "test_command": _KEYWORD, "redirected_statement": _REDIRECTED, "pipeline": _PIPELINE,
    "|": _PIPE, "|&": _PIPE, "function_definition": _FUNCTION, "subshell": _NEW_SCOPE,
    "command_substitution": _NEW_SCOPE, "process_substitution": _NEW_SCOPE,
    "command_name": _NAME, "word": _WORD, "variable_assignment": _ASSIGNMENT,
    "file_redirect": _FILE_REDIRECT, "herestring_redirect": _HERESTRING,
}  # fmt: skip


def _roles() -> dict[int, int]:
    """The role of each node kind id that has one (others, ``ERROR`` included: none)."""
    language = _language()
    roles: dict[int, int] = {}
    for kind in range(language.node_kind_count):
        name = language.node_kind_for_id(kind)
        # "|" and "|&" are the only tokens (unnamed kinds) with a role.
        if name in _ROLES and language.node_kind_is_named(kind) == (name not in ("|", "|&")):
            roles[kind] = _ROLES[name]
    return roles


_KIND_ROLES = _roles()


_local = threading.local()


def _parser() -> Parser:
    # One parser per thread: a Parser is not safe to share between threads, and a handler
    # may be called from more than one. A finished tree does not need its parser, so the
    # scripts parsed again while a command is assembled may reuse it.
    parser: Parser | None = getattr(_local, "parser", None)
    if parser is None:
        parser = _local.parser = Parser(_language())
    return parser


class _TooComplex(Exception):
    """The walk ran out of its node or depth budget."""


Scope = list[str | None]
"""The directory commands run in, as far as ``cd`` before them says (one item, changed
by ``cd``; a subshell gets a copy)."""

_Frame = tuple[Node, "int | None", Scope, tuple[str, ...], tuple[str, ...], int, "str | None"]
"""A node still to walk, with what holds where it is: the id of the command its output
feeds, the directory, the paths written and read by redirections around it, its nesting,
and a heredoc or here-string it reads."""


class _Walk:
    """What one command's walk has found so far, scripts inside it included."""

    __slots__ = ("budget", "commands", "errors", "functions", "source")

    def __init__(self) -> None:
        self.budget = MAX_NODES
        self.source = b""
        """The command (or script) whose tree is being walked, as written."""
        self.commands: list[tuple[int, Command | Piece, int | None]] = []
        """(node id, command, id of the command its output feeds); a command of plain
        words that runs no other is its piece already."""
        self.functions: set[str] = set()
        """Names of the shell functions the command defines."""
        self.errors = False


_text = node_text

_FOUR_BYTES = re.compile(rb"[\xf0-\xf4][\x80-\xbf]{3}")


def stand_in(source: bytes) -> bytes:
    """``source`` with every character outside the Basic Multilingual Plane replaced by as
    many ``A`` bytes: tree-sitter-bash 0.25.1 crashes the process on some of them (``{``
    then U+F4D3B, found by the hypothesis properties). To bash they are word characters, as
    ``A`` is, and every byte offset stays the same, so texts are read from the original."""
    if source.isascii():
        return source
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


def cd(cwd: str | None, args: list[Word]) -> str | None:
    """The directory after ``cd`` with ``args`` in ``cwd`` (None: unknown)."""
    operands = [w for w in args if not w.text.startswith("-") or w.text == "-"]
    if not operands:
        return "~"
    target = operands[0]
    if target.dynamic or target.text == "-" or cwd is None:
        return None
    if target.text.startswith(("/", "~")):
        return target.text
    return f"{cwd}/{target.text}"


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


def parse_fresh(text: str | bytes) -> ParsedCommand:
    """`parse_command` without its cache (benchmarks and tests time and check the walk)."""
    return _parse(text)


def forget_parsed() -> None:
    """Empty the cache of parsed commands (benchmarks time the parse itself this way)."""
    _remembered.cache_clear()


def _parse(text: str | bytes) -> ParsedCommand:
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
    separators = 0
    if len(text) > 10 * MAX_COMMANDS:  # (a shorter text cannot have more separators)
        separators = text.count("|") + text.count(";") + text.count("&") + text.count("\n")
    if separators > 10 * MAX_COMMANDS:
        return ParsedCommand(
            text[:200], (), f"the command has {separators} separators; the guard reads at most "
            f"{MAX_COMMANDS} commands: split it up"
        )  # fmt: skip
    walk = _Walk()
    try:
        pieces = _pieces(source, 0, walk)
    except _TooComplex as exc:
        return ParsedCommand(text, (), str(exc))
    if walk.errors:
        pieces += (Piece(text=text, program=None, opaque="bash would not parse this command "
                         "(a syntax error, or syntax the guard does not know)"),)  # fmt: skip
    return ParsedCommand(text, pieces, None)


def _pieces(source: bytes, depth: int, walk: _Walk) -> tuple[Piece, ...]:
    if depth > MAX_DEPTH:
        raise _TooComplex(f"the command nests scripts more than {MAX_DEPTH} deep")
    tree = _parser().parse(source if source.isascii() else stand_in(source))
    root = tree.root_node
    walk.errors = walk.errors or root.has_error
    walk.source = source
    token = ORIGINAL.set(source)
    try:
        _visit(root, walk, depth)
    finally:
        ORIGINAL.reset(token)

    def reparse(script: str, inner_depth: int) -> tuple[Piece, ...]:
        if inner_depth > MAX_DEPTH:
            raise _TooComplex(f"the command nests scripts more than {MAX_DEPTH} deep")
        return _pieces(script.encode("utf-8", "replace"), inner_depth, walk)

    commands, walk.commands = walk.commands, []
    # Scripts inside commands are parsed (by `unwrap`) once the walk is done, in order.
    found: list[tuple[int, list[Piece], int | None]] = []
    flat: list[Piece] = []
    flows = bool(walk.functions)
    for node_id, command, sink in commands:
        pieces = [command] if isinstance(command, Piece) else unwrap(command, depth, reparse)
        found.append((node_id, pieces, sink))
        flat += pieces
        flows = flows or sink is not None
    # When nothing flows into another command and no function is defined, each command's
    # pieces are as they are.
    return assemble(found, walk.functions) if flows else tuple(flat)


def _visit(root: Node, walk: _Walk, depth: int) -> None:
    roles = _KIND_ROLES
    stack: list[_Frame] = [(root, None, ["."], (), (), depth, None)]
    push, pop = stack.append, stack.pop
    commands = walk.commands
    budget = walk.budget  # (shared with the scripts parsed after this walk)
    while stack:
        frame = pop()
        node, sink, scope, writes, reads, level, _ = frame
        budget -= 1
        if budget < 0 or len(commands) > MAX_COMMANDS:
            raise _TooComplex(
                f"the command has more than {MAX_NODES} parts or {MAX_COMMANDS} commands; "
                "split it up"
            )
        if level > MAX_DEPTH:
            raise _TooComplex(f"the command nests more than {MAX_DEPTH} deep")
        role = roles.get(node.kind_id, _OTHER)
        level += 1
        if role == _SIMPLE:
            _command(frame, walk, push)
        elif role == _KEYWORD:
            _keyword_command(frame, walk, push)
        elif role == _REDIRECTED:
            _redirected(frame, push, walk)
        elif role == _PIPELINE:
            elements = [c for c in node.children if roles.get(c.kind_id) != _PIPE]
            for index in range(len(elements) - 1, -1, -1):
                nxt = _first_command(elements[index + 1]) if index + 1 < len(elements) else None
                target = nxt.id if nxt is not None else sink
                push((elements[index], target, scope, writes, reads, level, None))
        else:
            if role == _FUNCTION:
                name = node.child_by_field_name("name")
                if name is not None:
                    walk.functions.add(_text(name))
            elif role == _NEW_SCOPE:
                scope = [scope[0]]
            for child in reversed(node.children):
                if child.child_count:  # a leaf runs nothing
                    push((child, sink, scope, writes, reads, level, None))
    walk.budget = budget


_new_tuple = tuple.__new__
"""A named tuple made without its Python-level ``__new__`` (``Word``, ``Command``): one is
made for nearly every word of every command."""


def _command(frame: _Frame, walk: _Walk, push: Callable[[_Frame], None]) -> None:
    """Record one simple command; walk its substitutions, which feed it."""
    node = frame[0]
    source = walk.source
    roles = _KIND_ROLES
    texts: list[str] = []
    for child in node.children:  # most commands are plain words: no quote, escape or brace
        role = roles.get(child.kind_id, _OTHER)
        if role == _NAME and child.named_child_count == 1:
            child = child.named_children[0]  # its one part is the name's word
            role = roles.get(child.kind_id, _OTHER)
        if role != _WORD:
            break
        raw = source[child.start_byte : child.end_byte].decode("utf-8", "replace")
        if "\\" in raw or "{" in raw:
            break
        texts.append(raw)
    else:
        if texts and texts[0] not in CD:
            text = source[node.start_byte : node.end_byte].decode("utf-8", "replace")
            piece = plain_piece(text, texts, frame[3], frame[4], frame[2][0])
            if piece is not None:
                walk.commands.append((node.id, piece, frame[1]))
                return
        words = [_new_tuple(Word, (raw, False)) for raw in texts]
        _record(walk, frame, words, frame[3], frame[4], frame[6])
        return
    _parts(frame, walk, push)


def _parts(frame: _Frame, walk: _Walk, push: Callable[[_Frame], None]) -> None:
    """A simple command with more than plain words: quotes, expansions, substitutions,
    assignments and redirections."""
    node, _, scope, writes, reads, level, stdin = frame
    level += 1
    node_id = node.id
    source = walk.source
    roles = _KIND_ROLES
    substitutions: list[Node] = []
    words: list[Word] = []
    for index, child in enumerate(node.children):
        role = roles.get(child.kind_id, _OTHER)
        if role == _NAME and child.named_child_count == 1:
            child = child.named_children[0]
            role = roles.get(child.kind_id, _OTHER)
        if role == _WORD:
            raw = source[child.start_byte : child.end_byte].decode("utf-8", "replace")
            plain = "\\" not in raw and "{" not in raw
            words.append(
                _new_tuple(Word, (raw, False)) if plain else read_word(child, substitutions)
            )
        elif role == _ASSIGNMENT:
            push((child, node_id, scope, writes, reads, level, None))
        elif role == _FILE_REDIRECT:
            writes, reads = _redirect_paths(child, substitutions, writes, reads)
        elif role == _HERESTRING:
            for part in child.named_children:
                stdin = read_word(part, substitutions).text
        elif child.is_named or node.field_name_for_child(index) in ("name", "argument"):
            words.append(read_word(child, substitutions))
    for sub in reversed(substitutions):
        push((sub, node_id, [scope[0]], (), (), level, None))
    _record(walk, frame, words, writes, reads, stdin)


def _keyword_command(frame: _Frame, walk: _Walk, push: Callable[[_Frame], None]) -> None:
    """``declare``/``export``/``local``, ``unset``, ``[[ ]]``: the keyword is the program;
    what follows is walked (its substitutions and assignments run too)."""
    node, _, scope, writes, reads, level, stdin = frame
    level += 1
    children = node.children
    keyword = children[0] if children else None
    test = node.type == "test_command"
    words = [Word("[[" if test else _text(keyword) if keyword else "")]
    for child in children[1:]:
        push((child, node.id, scope, writes, reads, level, None))
    _record(walk, frame, words, writes, reads, stdin)


def _record(walk: _Walk, frame: _Frame, words: list[Word], writes: tuple[str, ...],
            reads: tuple[str, ...], stdin: str | None) -> None:  # fmt: skip
    """Remember the simple command of ``frame``; a ``cd`` changes where later ones run."""
    node, sink, scope = frame[0], frame[1], frame[2]
    text = walk.source[node.start_byte : node.end_byte].decode("utf-8", "replace")
    command = _new_tuple(Command, (text, tuple(words), writes, reads, scope[0], stdin))
    walk.commands.append((node.id, command, sink))
    if words and words[0].text in CD:
        scope[0] = cd(scope[0], words[1:])


def _redirect_paths(redirect: Node, substitutions: list[Node], writes: tuple[str, ...],
                    reads: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:  # fmt: skip
    """``writes`` and ``reads`` with the path a file redirection writes or reads added; a
    descriptor copy (``2>&1``) adds none."""
    destination = redirect.child_by_field_name("destination")
    if destination is None or destination.type == "number":
        return writes, reads
    operator = next((_text(c) for c in redirect.children if not c.is_named), "")
    if _text(destination) == "-":
        return writes, reads
    word = read_word(destination, substitutions)
    path = word.text if not word.dynamic else "$" + word.text.lstrip("$")
    if operator in _WRITE_REDIRECTS:
        return (*writes, path), reads
    return writes, (*reads, path)


def _redirected(frame: _Frame, push: Callable[[_Frame], None], walk: _Walk) -> None:
    """A statement with redirections: they apply to every command in its body; a heredoc
    is the body's input (a script, for a shell)."""
    node, sink, scope, writes, reads, level, _ = frame
    level += 1
    body = node.child_by_field_name("body")
    later: list[Node] = []
    body_sink = sink
    script: str | None = None
    for child in node.children:
        if body is not None and child.id == body.id:
            continue
        ctype = child.type
        if ctype == "file_redirect":
            writes, reads = _redirect_paths(child, later, writes, reads)
        elif ctype == "heredoc_redirect":
            for part in child.children:
                ptype = part.type
                if ptype == "heredoc_body":
                    script = _text(part)
                    later.append(part)
                elif ptype == "pipeline" and part.children and part.children[0].type in ("|", "|&"):
                    head = _first_command(part)
                    body_sink = head.id if head is not None else sink
                    later.append(part)
                elif part.is_named and ptype not in ("heredoc_start", "heredoc_end"):
                    later.append(part)
        elif ctype == "herestring_redirect":
            later.append(child)
            script = " ".join(_text(c) for c in child.named_children)
        else:
            later.append(child)
    for extra in reversed(later):
        push((extra, sink, scope, frame[3], frame[4], level, None))
    if body is None:
        # A redirection with no command (`> ~/.bashrc`) still truncates or reads its file.
        bare = Command(_text(node), (Word(":"),), writes, reads, scope[0])
        walk.commands.append((node.id, bare, sink))
        return
    push((body, body_sink, scope, writes, reads, level, script if body.type == "command" else None))
