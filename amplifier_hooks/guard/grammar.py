"""tree-sitter-bash as the guard uses it: one parser per thread, what the walk does with
each kind of node, and the stand-in for the characters the grammar cannot take.

A node's kind is read as its integer id (``Node.kind_id``, no string made); what the walk
does with it is looked up here, worked out once from the grammar's names. One name may have
several ids (``word`` has four), so each id is mapped, not the first one found.
"""

from __future__ import annotations

import re
import threading
from enum import IntEnum

import tree_sitter_bash
from tree_sitter import Language, Parser

__all__ = ["KIND_ROLES", "Role", "parser", "stand_in"]

LANGUAGE = Language(tree_sitter_bash.language())


class Role(IntEnum):
    """What the walk does with a kind of node."""

    OTHER = 0
    SIMPLE = 1
    KEYWORD = 2
    REDIRECTED = 3
    PIPELINE = 4
    PIPE = 5
    FUNCTION = 6
    NEW_SCOPE = 7
    NAME = 8
    WORD = 9
    ASSIGNMENT = 10
    FILE_REDIRECT = 11
    HERESTRING = 12
    HEREDOC = 13
    HEREDOC_BODY = 14


# The members as plain names: the walk compares them for every node it visits.
OTHER, SIMPLE, KEYWORD, REDIRECTED = Role.OTHER, Role.SIMPLE, Role.KEYWORD, Role.REDIRECTED
PIPELINE, PIPE, FUNCTION, NEW_SCOPE = Role.PIPELINE, Role.PIPE, Role.FUNCTION, Role.NEW_SCOPE
NAME, WORD, ASSIGNMENT, FILE_REDIRECT = Role.NAME, Role.WORD, Role.ASSIGNMENT, Role.FILE_REDIRECT
HERESTRING, HEREDOC, HEREDOC_BODY = Role.HERESTRING, Role.HEREDOC, Role.HEREDOC_BODY
_ROLES = {
    "command": SIMPLE, "declaration_command": KEYWORD, "unset_command": KEYWORD,
    "test_command": KEYWORD, "compound_statement": KEYWORD,
    "redirected_statement": REDIRECTED, "pipeline": PIPELINE,
    "|": PIPE, "|&": PIPE, "function_definition": FUNCTION, "subshell": NEW_SCOPE,
    "command_substitution": NEW_SCOPE, "process_substitution": NEW_SCOPE,
    "command_name": NAME, "word": WORD, "variable_assignment": ASSIGNMENT,
    "file_redirect": FILE_REDIRECT, "herestring_redirect": HERESTRING,
    "heredoc_redirect": HEREDOC, "heredoc_body": HEREDOC_BODY,
}  # fmt: skip
_TOKENS = frozenset({"|", "|&"})
"""The only unnamed kinds (tokens) with a role."""


def _roles() -> dict[int, Role]:
    roles: dict[int, Role] = {}
    for kind in range(LANGUAGE.node_kind_count):
        name = LANGUAGE.node_kind_for_id(kind)
        if name in _ROLES and LANGUAGE.node_kind_is_named(kind) == (name not in _TOKENS):
            roles[kind] = _ROLES[name]
    return roles


KIND_ROLES = _roles()
"""The role of each node kind id that has one; any other (``ERROR`` included) is `OTHER`."""

_local = threading.local()


def parser() -> Parser:
    """This thread's parser."""
    # One parser per thread: a Parser is not safe to share between threads, and a handler
    # may be called from more than one. A finished tree does not need its parser, so the
    # scripts parsed again while a command is assembled may reuse it.
    found: Parser | None = getattr(_local, "parser", None)
    if found is None:
        found = _local.parser = Parser(LANGUAGE)
    return found


_FOUR_BYTES = re.compile(rb"[\xf0-\xf4][\x80-\xbf]{3}")


def stand_in(source: bytes) -> bytes:
    """``source`` with every character outside the Basic Multilingual Plane replaced by as
    many ``A`` bytes: tree-sitter-bash 0.25.1 crashes the process on some of them (``{``
    then U+F4D3B, found by the hypothesis properties). To bash they are word characters, as
    ``A`` is, and every byte offset stays the same, so texts are read from the original."""
    if source.isascii():
        return source
    return _FOUR_BYTES.sub(lambda m: b"A" * len(m.group()), source)
