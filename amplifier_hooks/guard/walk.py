"""The walk's records: a node still to walk (`Frame`), what one command's walk has found
(`Walk`), and recording a simple command where it was found (a ``cd`` moves the ones after
it)."""

from __future__ import annotations

from typing import NamedTuple

from tree_sitter import Node

from amplifier_hooks.guard.commandpieces import Command
from amplifier_hooks.guard.forwarding import ARGUMENTS, Definition
from amplifier_hooks.guard.grammar import KIND_ROLES, Role
from amplifier_hooks.guard.literals import substitute_known
from amplifier_hooks.guard.model import Piece, new_tuple
from amplifier_hooks.guard.words import Word

__all__ = ["CD", "MAX_NODES", "Frame", "Scope", "Walk", "cd", "first_command", "new_tuple",
           "record"]  # fmt: skip

MAX_NODES = 20_000
"""Syntax nodes walked in one command, scripts inside it included."""
CD = frozenset({"cd", "pushd"})
_BUILTIN = frozenset({"builtin", "command"})

Scope = list[str | None]
"""The directory commands run in, as far as ``cd`` before them says (one item, changed
by ``cd``; a subshell gets a copy)."""


class Frame(NamedTuple):
    """A node still to walk, with what holds where it is."""

    node: Node
    sink: int | None
    """The id of the command its output feeds."""
    scope: Scope
    writes: tuple[str, ...]
    """Paths written by redirections around it."""
    reads: tuple[str, ...]
    level: int
    """Its nesting."""
    stdin: str | None
    """A heredoc or here-string it reads."""


class Walk:
    """What one command's walk has found so far, scripts inside it included."""

    __slots__ = ("budget", "commands", "definitions", "errors", "extra_args", "functions",
                 "runs_arguments", "source", "variable_heads")  # fmt: skip

    def __init__(self) -> None:
        self.budget = MAX_NODES
        self.source = b""
        """The command (or script) whose tree is being walked, as written."""
        self.commands: list[tuple[int, Command | Piece, int | None]] = []
        """(node id, command, id of the command its output feeds); a command of plain
        words that runs no other is its piece already."""
        self.functions: set[str] = set()
        """Names of the shell functions the command defines."""
        self.definitions: list[Definition] = []
        """The functions the script being walked defines, and where (`forwarding`)."""
        self.variable_heads: set[int] = set()
        """The commands of the script being walked whose program a known variable names."""
        self.runs_arguments: dict[int, int] = {}
        """Where the commands of the script being walked whose head is ``"$@"`` start, by
        node id (`forwarding`)."""
        self.errors = False
        self.extra_args: dict[int, list[Node | Word]] = {}
        """Words the grammar hangs on a redirection after its target (`rm 2>/dev/null -rf
        DIR`), or drops before a heredoc (`make -f - <<EOF`: the ``-``), by the id of the
        command bash gives them to as arguments."""


def first_command(node: Node) -> Node | None:
    """The first simple command in ``node`` (the head of a pipeline's element)."""
    stack = [node]
    seen = 0
    while stack and seen < MAX_NODES:
        current = stack.pop()
        seen += 1
        if KIND_ROLES.get(current.kind_id) == Role.SIMPLE:
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


def record(walk: Walk, frame: Frame, words: list[Word], writes: tuple[str, ...],
            reads: tuple[str, ...], stdin: str | None) -> None:  # fmt: skip
    """Remember the simple command of ``frame``; a ``cd`` changes where later ones run."""
    node, sink, scope = frame.node, frame.sink, frame.scope
    text = walk.source[node.start_byte : node.end_byte].decode("utf-8", "replace")
    if len(words) > 2 and words[0].text == "trap" and not words[1].dynamic:
        # the action runs later, in this shell: the variables it reads are known as now
        words = [words[0], Word(substitute_known(words[1].text, node.start_byte)), *words[2:]]
    command = new_tuple(Command, (text, tuple(words), writes, reads, scope[0], stdin))
    walk.commands.append((node.id, command, sink))
    if words and words[0].text == ARGUMENTS and words[0].dynamic:
        walk.runs_arguments[node.id] = node.start_byte
    if words and words[0].text in _BUILTIN and len(words) > 1 and words[1].text in CD:
        words = words[1:]  # `builtin cd ..`, `command cd ..`: the shell's own cd
    if words and words[0].text in CD:
        scope[0] = cd(scope[0], words[1:])
