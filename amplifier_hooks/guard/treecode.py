"""Inline code of a language read with its tree-sitter grammar (Perl, Ruby, PHP): the
grammar loaded the first time code of that language is read, one parser per thread, and a
bounded walk that hands the reader every node.

The grammars are imported lazily: a guard that never sees ``perl -e`` never pays for
loading tree-sitter-perl. Code that does not parse, is too long, has more than
`MAX_NODES` nodes, or whose grammar the installed tree-sitter cannot load, is not read
(None): it stays asked.
"""

from __future__ import annotations

import importlib
import shlex
import threading
import warnings
from collections.abc import Callable

from tree_sitter import Language, Node, Parser

from amplifier_hooks.guard.codeacts import MAX_CODE

__all__ = ["MAX_NODES", "command_line", "concatenated", "joined", "parse_nodes"]

MAX_NODES = 20000
"""Code with more syntax nodes than this is not read (64 KiB of code has fewer)."""

_MODULES = {"perl": ("tree_sitter_perl", "language"), "ruby": ("tree_sitter_ruby", "language"),
            "php": ("tree_sitter_php", "language_php")}  # fmt: skip
"""Each language's grammar package and the function that hands its grammar over."""
_local = threading.local()


def _parser(language: str) -> Parser | None:
    """This thread's parser for ``language``; None when its grammar cannot be loaded."""
    parsers: dict[str, Parser | None] = _local.__dict__.setdefault("parsers", {})
    if language not in parsers:
        try:
            package, function = _MODULES[language]
            grammar = getattr(importlib.import_module(package), function)()
            with warnings.catch_warnings():  # an older grammar hands its pointer as an int
                warnings.simplefilter("ignore", DeprecationWarning)
                parsers[language] = Parser(Language(grammar))
        except (ImportError, AttributeError, ValueError, TypeError):  # absent, another ABI
            parsers[language] = None
    return parsers[language]


def parse_nodes(language: str, code: str) -> list[Node] | None:
    """Every named node of ``code``'s tree, parents before their children; None: not read.
    Only named nodes are visited (the tokens between them are not made into Python
    objects: a tenth of reading Ruby or PHP, bench_guard's corpus rows)."""
    if len(code) > MAX_CODE or "\x00" in code:
        return None
    parser = _parser(language)
    if parser is None:
        return None
    try:
        tree = parser.parse(code.encode())
    except UnicodeEncodeError:  # a lone surrogate: no source an interpreter would run
        return None
    if tree.root_node.has_error:  # (a token the parser made up, missing, is an error too)
        return None
    found: list[Node] = []
    stack = [tree.root_node]
    met = 1  # the nodes met, tokens included (`MAX_NODES`): each counted by its parent
    while stack:
        node = stack.pop()
        found.append(node)
        met += node.child_count
        if met >= MAX_NODES:
            return None
        stack.extend(reversed(node.named_children))  # (no token holds a named node)
    return found


def command_line(words: list[str]) -> str:
    """``words`` as a shell command line, a leading ``~`` left for the shell to expand
    (``rm -rf ~/x``), so the command judged touches the path the code names."""
    return " ".join(_word(w) for w in words)


def _word(word: str) -> str:
    if word == "~":
        return "~"
    if word.startswith("~/"):
        return "~/" + shlex.quote(word[2:])
    return shlex.quote(word)


def joined(left: str | None, right: str | None) -> str | None:
    """``left`` and ``right`` as one text; ``~`` (the home folder) stays the home folder
    only where a word starts (``"rm -rf " . $ENV{HOME}``): elsewhere the text is unknown."""
    if left is None or right is None:
        return None
    if right.startswith("~") and left and not left[-1].isspace():
        return None
    return left + right


def concatenated(
    node: Node, operator: str, text_of: Callable[[Node | None], str | None]
) -> str | None:
    """A binary node's two sides as one text (`joined`) when its operator is
    ``operator``, the language's string concatenation (Perl's and PHP's ``.``, Ruby's
    ``+``); None for any other operator."""
    found = node.child_by_field_name("operator")
    if found is None or found.type != operator:
        return None
    left = text_of(node.child_by_field_name("left"))
    return joined(left, text_of(node.child_by_field_name("right")))
