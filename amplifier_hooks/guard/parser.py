"""Reading a shell command as bash would: every simple command it runs, and where to.

tree-sitter-bash gives the syntax tree; this module walks it (iteratively, with a budget of
bytes, nodes and depth, so no input can make it slow or crash it) and hands each simple
command to `unwrap`; `flow.assemble` then tells each where its output flows. The walk is
the hot path of every decision, so a frame (`walk.Frame`) is made as a tuple is, a node's
kind is read as its integer id (its `grammar.Role`), and leaves (words, operators) are not
visited: only `simplecommand.read_simple` reads them; a command of plain words (the tree
says so) becomes its piece in place, its words split from its text.
"""

from __future__ import annotations

from tree_sitter import Node

from amplifier_hooks.guard.commandpieces import Reparse
from amplifier_hooks.guard.continuations import joined
from amplifier_hooks.guard.flow import assemble
from amplifier_hooks.guard.forwarding import Definition, forwarded_commands
from amplifier_hooks.guard.grammar import (
    ASSIGNMENT,
    FILE_REDIRECT,
    FUNCTION,
    KEYWORD,
    KIND_ROLES,
    NEW_SCOPE,
    OTHER,
    PIPE,
    PIPELINE,
    REDIRECTED,
    SIMPLE,
    parser,
    stand_in,
)
from amplifier_hooks.guard.literals import KNOWN, known_values
from amplifier_hooks.guard.lonedollars import brace, lone_dollars
from amplifier_hooks.guard.model import ParsedCommand, Piece
from amplifier_hooks.guard.plainline import PlainLine, forget_commands, line_pieces, read_plain
from amplifier_hooks.guard.recurring import Sightings
from amplifier_hooks.guard.simplecommand import read_simple
from amplifier_hooks.guard.statements import (
    assignment,
    keyword_command,
    redirected,
    substitution_input,
)
from amplifier_hooks.guard.unwrap import unwrap
from amplifier_hooks.guard.walk import (
    MAX_NODES,
    Frame,
    Walk,
    first_command,
    new_tuple,
)
from amplifier_hooks.guard.words import ORIGINAL, node_text

__all__ = ["MAX_BYTES", "MAX_DEPTH", "MAX_NODES", "forget_parsed", "parse_by_tree", "parse_command",
           "parse_fresh"]  # fmt: skip

MAX_BYTES = 128 * 1024
"""Larger commands are not read at all (a person could not review them either)."""
MAX_DEPTH = 64
"""Nesting of substitutions, subshells and ``sh -c`` scripts."""
VARIABLE_HEAD = "the program name is a variable's value"
"""Why a command whose program a variable names is asked even where the value is known
(`literals`): it is judged as that program (a deny holds), but a person reads it."""
MAX_COMMANDS = 500
"""Simple commands in one command line, scripts inside it included."""


class _TooComplex(Exception):
    """The walk ran out of its node or depth budget."""


CACHED_BYTES = 4096
"""Commands up to this size are remembered (up to `PARSED_KEPT`, all forgotten when full)
from their second parse on (`recurring`): parsing is pure, and an agent runs the same
commands again and again. Larger ones would make the cache large."""
PARSED_KEPT = 1024

_PARSED: dict[str | bytes, ParsedCommand] = {}
_SIGHTED = Sightings(PARSED_KEPT)


def parse_command(text: str | bytes) -> ParsedCommand:
    """The simple commands of ``text``, wrappers seen through; a `ParsedCommand.problem`
    when it is too large, too deep or not text."""
    found = _PARSED.get(text)
    if found is not None:
        return found
    parsed = _parse(text)
    if len(text) <= CACHED_BYTES and _SIGHTED.again(text):
        if len(_PARSED) >= PARSED_KEPT:
            _PARSED.clear()
        _PARSED[text] = parsed
    return parsed


def parse_fresh(text: str | bytes) -> ParsedCommand:
    """`parse_command` without its cache (benchmarks and tests time and check the parse)."""
    return _parse(text, kept=False)


def parse_by_tree(text: str) -> ParsedCommand:
    """`parse_fresh` read from the syntax tree always, a plain line too (the property in
    tests/guard/test_plainline.py sets `plainline` against it)."""
    return _parse(text, plain=False, kept=False)


def forget_parsed() -> None:
    """Empty the cache of parsed commands (benchmarks time the parse itself this way)."""
    _PARSED.clear()
    _SIGHTED.forget()
    forget_commands()


def _parse(text: str | bytes, plain: bool = True, kept: bool = True) -> ParsedCommand:
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
    if len(text) > 10 * MAX_COMMANDS:  # (a shorter text cannot have more separators)
        separators = text.count("|") + text.count(";") + text.count("&") + text.count("\n")
        if separators > 10 * MAX_COMMANDS:
            return ParsedCommand(
                text[:200], (), f"the command has {separators} separators; the guard reads at "
                f"most {MAX_COMMANDS} commands: split it up"
            )  # fmt: skip
    if "\\\n" in text and (whole := joined(text)) != text:  # `r\<newline>m`: rm, as bash reads it
        return _parse(whole, plain, kept)
    line = read_plain(text, kept) if plain else None
    if line is not None and not isinstance(line, PlainLine):  # `plainline`: no tree needed
        return new_tuple(ParsedCommand, (text, line, None))
    walk = Walk()
    try:
        if line is None:
            pieces = _pieces(source, 0, walk)
        else:
            pieces = line_pieces(line, _scripts(walk), walk.functions)
    except _TooComplex as exc:
        return ParsedCommand(text, (), str(exc))
    if walk.errors:
        pieces += (Piece(text=text, program=None, opaque="bash would not parse this command "
                         "(a syntax error, or syntax the guard does not know)"),)  # fmt: skip
    return ParsedCommand(text, pieces, None)


def _pieces(source: bytes, depth: int, walk: Walk) -> tuple[Piece, ...]:
    if depth > MAX_DEPTH:
        raise _TooComplex(f"the command nests scripts more than {MAX_DEPTH} deep")
    parsed = source if source.isascii() else stand_in(source)
    if b"<>" in parsed:  # the grammar lacks `N<>FILE` (read and write): parsed as `>>`,
        parsed = parsed.replace(b"<>", b">>")  # its twin in shape; the texts are the source's
    root = _tree(parsed)
    spots = lone_dollars(root, parsed)
    if spots:  # (`a$A$B/c`: one word, which the tree splits in two)
        parsed, source = brace(parsed, spots), brace(source, spots)
        root = _tree(parsed)
    walk.errors = walk.errors or root.has_error
    walk.source = source
    token = ORIGINAL.set(source)
    known = KNOWN.set(known_values(root, source) if b"=" in source else None)
    try:
        _visit(root, walk, depth)
    finally:
        KNOWN.reset(known)
        ORIGINAL.reset(token)
    reparse = _scripts(walk)
    commands, walk.commands = walk.commands, []
    definitions, walk.definitions = walk.definitions, []
    runs_arguments, walk.runs_arguments = walk.runs_arguments, {}
    walk.variable_heads, variable_heads = set(), walk.variable_heads
    if definitions:
        commands = forwarded_commands(source, definitions, runs_arguments, commands)
    # Scripts inside commands are parsed (by `unwrap`) once the walk is done, in order.
    found: list[tuple[int, list[Piece], int | None]] = []
    flat: list[Piece] = []
    flows = bool(walk.functions)
    for node_id, command, sink in commands:
        pieces = [command] if isinstance(command, Piece) else unwrap(command, depth, reparse)
        if node_id in variable_heads:
            pieces = [p._replace(opaque=p.opaque or VARIABLE_HEAD) for p in pieces]
        found.append((node_id, pieces, sink))
        flat += pieces
        flows = flows or sink is not None
    # When nothing flows into another command and no function is defined, each command's
    # pieces are as they are.
    return assemble(found, walk.functions) if flows else tuple(flat)


def _scripts(walk: Walk) -> Reparse:
    """How the scripts inside a command (``sh -c``, ``eval``) are parsed: on the budgets
    of ``walk``, each one level deeper."""

    def reparse(script: str, inner_depth: int) -> tuple[Piece, ...]:
        if inner_depth > MAX_DEPTH:
            raise _TooComplex(f"the command nests scripts more than {MAX_DEPTH} deep")
        return _pieces(script.encode("utf-8", "replace"), inner_depth, walk)

    return reparse


def _tree(source: bytes) -> Node:
    """The syntax tree of ``source``; a line of two or more pipes parsed ended by a newline,
    as a line bash reads is. tree-sitter-bash is many times slower on a pipeline of three
    or more commands that stops at the end of the input (``a | b | c``) than on the same
    line ended, which has the same tree (every shipped and blind corpus command); other
    lines parse as fast either way and are parsed as given. The walk reads texts from
    ``source``: the newline, past every word, is never read. It is not added where it
    could change the reading: after a trailing backslash (it would join lines), nor kept
    where the ended line is not valid (error recovery may differ): that one is parsed
    again as given."""
    if source.count(b"|") > 1 and not source.endswith((b"\n", b"\\")):
        root = parser().parse(source + b"\n").root_node
        if not root.has_error:
            return root
    return parser().parse(source).root_node


def _visit(root: Node, walk: Walk, depth: int) -> None:
    roles = KIND_ROLES
    stack: list[Frame] = [new_tuple(Frame, (root, None, ["."], (), (), depth, None))]
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
        role = roles.get(node.kind_id, OTHER)
        level += 1
        if role == SIMPLE:
            read_simple(frame, walk, push)
        elif role == KEYWORD:
            keyword_command(frame, walk, push)
        elif role == REDIRECTED:
            redirected(frame, push, walk)
        elif role == ASSIGNMENT:
            assignment(frame, walk, push)
        elif role == FILE_REDIRECT:  # (one a command's walk did not read: `$(< FILE)`)
            substitution_input(frame, walk, push)
        elif role == PIPELINE:
            elements = [c for c in node.children if roles.get(c.kind_id) != PIPE]
            for index in range(len(elements) - 1, -1, -1):
                nxt = first_command(elements[index + 1]) if index + 1 < len(elements) else None
                target = nxt.id if nxt is not None else sink
                push(new_tuple(Frame, (elements[index], target, scope, writes, reads, level, None)))
        else:
            if role == FUNCTION:
                name = node.child_by_field_name("name")
                if name is not None:
                    walk.functions.add(node_text(name))
                    walk.definitions.append(
                        Definition(node_text(name), node.start_byte, node.end_byte)
                    )
            elif role == NEW_SCOPE:
                scope = [scope[0]]
            for child in reversed(node.children):
                if child.child_count:  # a leaf runs nothing
                    push(new_tuple(Frame, (child, sink, scope, writes, reads, level, None)))
    walk.budget = budget
