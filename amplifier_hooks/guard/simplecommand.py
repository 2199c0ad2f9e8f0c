"""Reading one simple command of the syntax tree (`parser`'s walk hands each to
`read_simple`): its words, assignments, redirections and here-strings, its substitutions
pushed to be walked in turn. Most commands are plain words, read by splitting their text
(`_PLAIN_TEXT`) with no node made for each word: the walk's hot path.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from amplifier_hooks.guard.grammar import (
    ASSIGNMENT,
    FILE_REDIRECT,
    HERESTRING,
    KIND_ROLES,
    NAME,
    OTHER,
    WORD,
)
from amplifier_hooks.guard.literals import KNOWN, names_known
from amplifier_hooks.guard.statements import assignment_word, fed_secret, redirect_paths
from amplifier_hooks.guard.unwrap import literal_piece
from amplifier_hooks.guard.walk import CD, Frame, Walk, new_tuple, record
from amplifier_hooks.guard.words import Word, read_word, split_unquoted

__all__ = ["read_simple"]

_PLAIN_TEXT = re.compile(rb"[\w./:@%+,~*?-]+(?:[ \t]+[\w./:@%+,=~*?-]+)*", re.ASCII)
"""A command's text of plain words: no quote, escape, expansion, brace, bracket or
redirection (a ``~`` and a ``*`` or ``?`` pattern are words as written, read so either
way), and no ``=`` in its first word (an assignment). When the tree has no error
and gives such a command as many named children as it has words, each child is one word
as written, so its words are the text split: no node is made for each child (the walk's
one shortcut; `benchmarks.bench_guard`, docs/performance.md)."""


def read_simple(frame: Frame, walk: Walk, push: Callable[[Frame], None]) -> None:
    """Record one simple command; walk its substitutions, which feed it."""
    node = frame.node
    if walk.extra_args and node.id in walk.extra_args:
        _parts(frame, walk, push)
        return
    source = walk.source
    written = source[node.start_byte : node.end_byte]
    if not walk.errors and _PLAIN_TEXT.fullmatch(written) is not None:
        text = written.decode("ascii")
        texts = text.split()
        if len(texts) == node.named_child_count:  # each node a word: none need be read
            _plain(frame, walk, text, texts)
            return
    roles = KIND_ROLES
    texts = []
    for child in node.children:  # most commands are plain words: no quote, escape or brace
        role = roles.get(child.kind_id, OTHER)
        if role == NAME and child.named_child_count == 1:
            child = child.named_children[0]  # its one part is the name's word
            role = roles.get(child.kind_id, OTHER)
        if role != WORD:
            break
        raw = source[child.start_byte : child.end_byte].decode("utf-8", "replace")
        if "\\" in raw or "{" in raw:
            break
        texts.append(raw)
    else:
        _plain(frame, walk, source[node.start_byte : node.end_byte].decode("utf-8", "replace"),
               texts)  # fmt: skip
        return
    _parts(frame, walk, push)


_EXPANSIONS = frozenset({"simple_expansion", "expansion"})


def _raw(source: bytes, node: Node) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _plain(frame: Frame, walk: Walk, text: str, texts: list[str]) -> None:
    """Record a simple command of plain words ``texts`` (its text ``text``): its piece
    at once when `unwrap` would have nothing to see through (a heredoc or input it reads
    would be)."""
    if texts and texts[0] not in CD and frame.stdin is None:
        piece = literal_piece(text, texts, frame.writes, frame.reads, frame.scope[0])
        if piece is not None:
            walk.commands.append((frame.node.id, piece, frame.sink))
            return
    words = [new_tuple(Word, (raw, False)) for raw in texts]
    record(walk, frame, words, frame.writes, frame.reads, frame.stdin)


def _parts(frame: Frame, walk: Walk, push: Callable[[Frame], None]) -> None:
    """A simple command with more than plain words: quotes, expansions, substitutions,
    assignments and redirections."""
    node, _, scope, writes, reads, level, stdin = frame
    level += 1
    node_id = node.id
    source = walk.source
    roles = KIND_ROLES
    substitutions: list[Node] = []
    words: list[Word] = []
    known = KNOWN.get()
    for index, child in enumerate(node.children):
        role = roles.get(child.kind_id, OTHER)
        if role == NAME and child.named_child_count == 1:
            child = child.named_children[0]
            role = roles.get(child.kind_id, OTHER)
        if role == WORD:
            raw = source[child.start_byte : child.end_byte].decode("utf-8", "replace")
            plain = "\\" not in raw and "{" not in raw
            words.append(
                new_tuple(Word, (raw, False)) if plain else read_word(child, substitutions)
            )
        elif role == ASSIGNMENT:  # `X=1 cmd`: a variable set for the command
            words.append(assignment_word(child, substitutions))
        elif role == FILE_REDIRECT:
            writes, reads = redirect_paths(child, substitutions, writes, reads)
            for extra in child.children_by_field_name("destination")[1:]:
                words.append(read_word(extra, substitutions))  # arguments: `redirected`
        elif role == HERESTRING:
            for part in child.named_children:
                stdin = read_word(part, substitutions).text
                if part.type != "raw_string":  # `cat <<< "$TOKEN"`: `heredocruns`
                    fed_secret(walk, child, _raw(source, part), node, scope[0])
        elif child.is_named or node.field_name_for_child(index) in ("name", "argument"):
            word = read_word(child, substitutions)
            if known is not None and not words and names_known(_raw(source, child), known):
                walk.variable_heads.add(node_id)  # `R=rm; $R -rf x`: judged, but opaque
            if child.type in _EXPANSIONS and not word.dynamic:  # `$RM` of `RM="rm -rf"`
                words += split_unquoted(word)
            else:
                words.append(word)
    for hung in walk.extra_args.pop(node_id, ()):
        words.append(hung if isinstance(hung, Word) else read_word(hung, substitutions))
    for sub in reversed(substitutions):
        push(new_tuple(Frame, (sub, node_id, [scope[0]], (), (), level, None)))
    record(walk, frame, words, writes, reads, stdin)
